#!/bin/bash
# --adb-server HOST:PORT against a real second adb server on another
# "machine": a network namespace with its own veth address, where Debian's
# adb runs `-a -P PORT nodaemon server` (listening on every interface) and a
# simulated device is attached to THAT server.  Nothing on this side has the
# device: every number in the reports must have come through the remote
# server from the sim in the namespace.
set -u
bin="$1"
adb="${ADB:-adb}"
fails=0
check () { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fails=$((fails+1)); fi; }
# json EXPR TEXT: EXPR over d = the parsed TEXT ("" when TEXT is not JSON)
json () { python3 -c "import json,sys; d=json.loads(sys.argv[1]); print($1)" "$2" 2>/dev/null; }
. "$(dirname "$0")/../common/wait.sh"
# accepts PORT [NETNS]: something listens on 127.0.0.1:PORT (in NETNS)
accepts () {
  if [ -n "${2:-}" ]; then
    ip netns exec "$2" bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
  else
    bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
  fi
}

if [ "$(id -u)" != 0 ]; then
  echo "1..0 # SKIP needs root for ip netns"
  exit 77
fi

work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/farm-XXXXXX")
ns="adbscope-farm-$$"
host_if="vfh$$"; peer_if="vfp$$"
# A /30 of its own per run: two runs at once must not share addresses.
net=$(( ($$ % 60) * 4 ))
host_ip="10.77.$((($$ / 60) % 250)).$((net + 1))"
peer_ip="10.77.$((($$ / 60) % 250)).$((net + 2))"
sim_pid=; server_pid=
cleanup () {
  [ -n "$sim_pid" ] && kill -TERM "$sim_pid" 2>/dev/null && timeout 10 tail --pid="$sim_pid" -f /dev/null
  [ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null
  for p in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
  ip netns del "$ns" 2>/dev/null
  ip link del "$host_if" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ip netns add "$ns" || { echo "not ok - ip netns add"; exit 1; }
ip link add "$host_if" type veth peer name "$peer_if" &&
  ip link set "$peer_if" netns "$ns" &&
  ip addr add "$host_ip/30" dev "$host_if" && ip link set "$host_if" up &&
  ip netns exec "$ns" ip addr add "$peer_ip/30" dev "$peer_if" &&
  ip netns exec "$ns" ip link set "$peer_if" up &&
  ip netns exec "$ns" ip link set lo up || { echo "not ok - veth pair"; exit 1; }

# The remote machine: its own HOME (adb key), its own server.
mkdir -p "$work/remote-home" "$work/home"
port=15037
env -i PATH="$PATH" HOME="$work/remote-home" ADB_MDNS=0 ADB_EMU=0 \
  ip netns exec "$ns" "$adb" -a -P "$port" nodaemon server >"$work/server.log" 2>&1 &
server_pid=$!
wait_until 30 "the remote adb server accepts" accepts "$port" "$ns"
env -i PATH="$PATH" HOME="$work/remote-home" ADB_MDNS=0 ADB_EMU=0 ANDROID_ADB_SERVER_PORT="$port" \
  LANGUAGE=C ip netns exec "$ns" "$bin" sim --profile tablet-13 --try-network --agent-installed \
  >"$work/sim.json" 2>"$work/sim.err" &
sim_pid=$!
wait_until 60 "the sim in the namespace printed its line" test -s "$work/sim.json"
sim_line=$(head -n1 "$work/sim.json")
serial=$(json "d['serial']" "$sim_line")
app_pid=$(json "d['app_pids']['io.github.adbscope.demo']" "$sim_line")
check "the sim in the namespace is attached to the remote server" '[ -n "$serial" ] && [ -n "$app_pid" ]'

# This side: a private HOME and an adb port where nothing listens, so a
# command that ignored --adb-server would find no device (and start no
# server that could hide the mistake: it is checked below).
export HOME="$work/home" ADB_MDNS=0 ADB_EMU=0 LANGUAGE=C
unset ADB_SERVER_SOCKET ADBSCOPE_ADB_SERVER
local_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export ANDROID_ADB_SERVER_PORT="$local_port"
remote="$peer_ip:$port"

out=$("$bin" devices --adb-server "$remote"); rc=$?
check "devices --adb-server lists the remote sim" \
  '[ $rc = 0 ] && [ "$(json "[x[\"serial\"] for x in d if x[\"state\"]==\"device\"]" "$out")" = "[$(printf "%s" "'"'"'$serial'"'"'")]" ]'
check "and its model is the namespace sim's profile (tablet-13)" \
  '[ "$(json "d[0][\"name\"]" "$out")" = "Lenovo TB370FU" ]'

out=$(ADBSCOPE_ADB_SERVER="$remote" "$bin" devices); rc=$?
check "ADBSCOPE_ADB_SERVER does the same" '[ $rc = 0 ] && grep -q "$serial" <<<"$out"'

out=$("$bin" --adb-server="$remote" record -p io.github.adbscope.demo --duration 4s); rc=$?
check "record through the remote server (option before the command)" '[ $rc = 0 ]'
check "its report names the remote device" '[ -n "$serial" ] && [ "$(json "d[\"device\"][\"serial\"]" "$out")" = "$serial" ]'
check "its app pid is the namespace sim's app" '[ "$(json "d[\"app\"][\"pids\"]" "$out")" = "[$app_pid]" ]'
check "it has samples" '[ "$(json "d[\"run\"][\"samples\"]>=2" "$out")" = True ]'

# --capture: the agent's forwards are made by the remote server and listen
# on its machine (on every interface, since it runs with -a).
if [ "$(json "d.get('network',{}).get('supported')" "$sim_line")" = True ]; then
  out=$("$bin" record --adb-server "$remote" -s "$serial" -p io.github.adbscope.demo --capture --duration 6s); rc=$?
  check "record --capture through the remote server's forward" '[ $rc = 0 ] && [ "$(json "d[\"network\"][\"agent\"][\"enabled\"] and d[\"network\"][\"agent\"][\"link\"][\"snapshots\"]>=2" "$out")" = True ]'
  check "the remote server holds no forward after the run" \
    '[ -z "$("$adb" -L "tcp:$remote" forward --list)" ]'
else
  echo "not ok - the namespace sim has no network: $(json "d.get('network')" "$sim_line")"; fails=$((fails+1))
fi

out=$("$bin" devices --adb-server "$host_ip:1"); rc=$?
check "a server that does not answer is a clear error" \
  '[ $rc = 1 ] && [ "$(json "d[\"error\"][\"code\"]" "$out")" = adb_failed ] && grep -q "No adb server answers at $host_ip:1" <<<"$out"'
out=$("$bin" devices --adb-server "bad host:x"); rc=$?
check "a bad address is a usage error" '[ $rc = 2 ] && grep -q "not an adb server address" <<<"$out"'
out=$("$bin" devices --adb-server); rc=$?
check "--adb-server without a value is a usage error" '[ $rc = 2 ]'
out=$("$bin" record --demo --adb-server "$remote" --duration 1s); rc=$?
check "--demo with a remote server is refused" '[ $rc = 1 ] && grep -q "cannot be used with the adb server at $remote" <<<"$out"'

# --demo with a second adb server on this machine: the demo device is
# attached to THAT server (nothing listens on ANDROID_ADB_SERVER_PORT, so a
# demo that attached itself elsewhere would not be found).
second_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$adb" -P "$second_port" nodaemon server >"$work/second.log" 2>&1 &
second_pid=$!
wait_until 30 "the second adb server accepts" accepts "$second_port"
out=$("$bin" record --demo --adb-server "127.0.0.1:$second_port" --duration 2s); rc=$?
check "--demo with a server on this machine records through it" \
  '[ $rc = 0 ] && [ "$(json "d[\"run\"][\"samples\"]>=2 and d[\"device\"][\"serial\"].startswith(\"127.0.0.1:\")" "$out")" = True ]'
check "and leaves no device on that server" \
  '[ -z "$("$adb" -P "$second_port" devices | sed 1d | grep -v "^$")" ]'
kill -TERM "$second_pid" 2>/dev/null; wait "$second_pid" 2>/dev/null

check "no adb server was started on this side" \
  '! bash -c "exec 3<>/dev/tcp/127.0.0.1/$local_port" 2>/dev/null'

[ $fails = 0 ]
