#!/bin/bash
# Every command's outputs (issue 24, "Outputs: one way to write a file"):
# one writer with record's rules for every file and for stdout, outputs
# that name one file refused before anything is opened, a failed run that
# touches no earlier result, the recording never in a system folder, no
# deletion through a symlink, a recording that could not be written
# reported as such, one lock per device and adb server however the server
# is spelled, and signals that never cut the end of a record short.
#
# Real parts: a private adb server (never 5037), the simulated device, the
# kernel's view of the files (stat, /proc), tmpfs for a full disk, chattr
# on ext4, setpriv to an ordinary user.  The checks that need root (mknod,
# mount, chattr, setpriv) are skipped without it.
set -u
bin="$1"
adb="${ADB:-adb}"
fails=0
n=0
check () { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fails=$((fails+1)); fi; }
skip () { n=$((n+1)); echo "ok $n - $1 # SKIP $2"; }
# json EXPR TEXT: EXPR over d = the parsed TEXT ("" when TEXT is not JSON)
json () { python3 -c "import json,sys; d=json.loads(sys.argv[1]); print($1)" "$2" 2>/dev/null; }
jsonf () { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$2" 2>/dev/null; }
# wait_for COND [SECONDS]: polls COND every 50 ms (30 s by default)
wait_for () {
  local end=$(( $(date +%s) + ${2:-30} ))
  until eval "$1"; do [ "$(date +%s)" -ge "$end" ] && return 1; sleep 0.05; done
}
is_root () { [ "$(id -u)" = 0 ]; }
lines () { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }

work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/outputs-XXXXXX")
chmod 755 "$work"
server_pid=; sim_pid=; mounted=
cleanup () {
  [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
  is_root && chattr -R -i "$work" 2>/dev/null
  [ -n "$sim_pid" ] && kill -TERM "$sim_pid" 2>/dev/null && timeout 10 tail --pid="$sim_pid" -f /dev/null
  [ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A private adb server and HOME; every adb client reaches it through
# ADB_SERVER_SOCKET, so none starts a daemon of its own.
mkdir -p "$work/home" "$work/run" && chmod 700 "$work/run"
export HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state"
export ADB_MDNS=0 ADB_EMU=0 LANGUAGE=C
unset ADBSCOPE_ADB_SERVER
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$adb" -P "$port" nodaemon server >"$work/server.log" 2>&1 &
server_pid=$!
wait_for "bash -c 'exec 3<>/dev/tcp/127.0.0.1/$port' 2>/dev/null" || { echo "Bail out! the private adb server did not start"; exit 1; }
export ADB_SERVER_SOCKET="tcp:127.0.0.1:$port"
"$bin" sim --try-network --agent-installed >"$work/sim.json" 2>"$work/sim.err" &
sim_pid=$!
wait_for "[ -s '$work/sim.json' ]" 60 || { echo "Bail out! the sim did not start: $(cat "$work/sim.err")"; exit 1; }
sim_line=$(head -n1 "$work/sim.json")
serial=$(json "d['serial']" "$sim_line")
wait_for "'$adb' devices | grep -q '^$serial\sdevice'" 30 || { echo "Bail out! adb does not see $serial"; exit 1; }
pkg=io.github.adbscope.demo
network=$(json "d.get('network',{}).get('supported')" "$sim_line")
cd "$work"

# One recording to read back.
"$bin" record -s "$serial" -p "$pkg" --duration 2s -o base.json >/dev/null 2>&1
R="$work/base.adbscope"
check "a recording to work with" '[ -s "$R" ]'
rsum=$(sha256sum "$R" | cut -d" " -f1)
unchanged_R () { [ "$(sha256sum "$R" | cut -d" " -f1)" = "$rsum" ]; }

# --- 1. one writer, for files and for stdout -------------------------------
if is_root; then
  # A device of our own (the same major/minor as /dev/null): if the writer
  # ever replaced a device again it would not take the machine's.
  mknod "$work/null" c 1 3 && chmod 666 "$work/null"
  "$bin" report "$R" -o "$work/null" >out.txt 2>err.txt; rc=$?
  check "report -o DEVICE exits 0" '[ $rc = 0 ]'
  check "report -o DEVICE leaves it a character device (written, not replaced)" '[ -c "$work/null" ]'
  # The machine's /dev/null only once our own device came through: a
  # writer that replaced devices must not take the machine's with it.
  if [ -c "$work/null" ]; then
    "$bin" report "$R" -o /dev/null >out.txt 2>err.txt; rc=$?
    check "report -o /dev/null as root: /dev/null is still the device" '[ $rc = 0 ] && [ -c /dev/null ]'
  else
    check "report -o /dev/null as root (not tried: a device was replaced above)" false
  fi
else
  skip "report -o DEVICE" "mknod needs root"; skip "report -o DEVICE kept" "needs root"; skip "/dev/null" "needs root"
fi

mkdir -p sub && echo old >sub/target.json && ln -s sub/target.json link.json
ino=$(stat -c %i sub/target.json)
"$bin" report "$R" -o link.json >/dev/null 2>&1; rc=$?
check "report -o SYMLINK keeps the link" '[ $rc = 0 ] && [ -L link.json ] && [ "$(readlink link.json)" = sub/target.json ]'
check "and replaces its target atomically (a new inode) with the report" \
  '[ "$(stat -c %i sub/target.json)" != "$ino" ] && [ "$(jsonf "d[\"schema\"]" sub/target.json)" = adbscope-report/1 ]'

mkfifo fifo
timeout 60 cat fifo >fifo.out &
reader=$!
"$bin" report "$R" -o fifo >/dev/null 2>&1; rc=$?
# (a writer that replaced the FIFO never opened it: nothing would end the reader)
if [ -p fifo ]; then wait $reader; else kill $reader 2>/dev/null; wait $reader 2>/dev/null; fi
check "report -o FIFO writes the report into the pipe" '[ $rc = 0 ] && [ "$(jsonf "d[\"schema\"]" fifo.out)" = adbscope-report/1 ]'
check "and the FIFO is still a FIFO" '[ -p fifo ]'

for cmd in "report $R" "compare $R $R" "devices" "apps -s $serial" "agent status -s $serial" "launch -s $serial -p $pkg --runs 1"; do
  # shellcheck disable=SC2086
  "$bin" $cmd >/dev/full 2>err.txt; rc=$?
  check "$(echo "$cmd" | cut -d" " -f1) > /dev/full: exit 1, a JSON error on stderr" \
    '[ $rc = 1 ] && [ "$(json "d[\"error\"][\"code\"]" "$(tail -n1 err.txt)")" = io_error ]'
done

"$bin" record -s "$serial" -p "$pkg" --duration 1s >/dev/full 2>err.txt; rc=$?
saved=$(json "d['error']['message'].split('saved in ')[-1]" "$(tail -n1 err.txt)")
check "record > /dev/full: exit 1, a JSON error on stderr naming where the report was saved" \
  '[ $rc = 1 ] && [ "$(json "d[\"error\"][\"code\"]" "$(tail -n1 err.txt)")" = io_error ] && [ "$(jsonf "d[\"schema\"]" "$saved")" = adbscope-report/1 ]'

# --- 2. two outputs that are one file ---------------------------------------
ln "$R" hard.adbscope 2>/dev/null || cp "$R" hard.adbscope
ln -s base.adbscope soft.adbscope
for o in "$R" soft.adbscope hard.adbscope; do
  "$bin" report "$R" -o "$o" >out.txt 2>&1; rc=$?
  check "report R -o $(basename "$o"): usage error, R untouched" \
    '[ $rc = 2 ] && [ "$(json "d[\"error\"][\"code\"]" "$(cat out.txt)")" = usage ] && unchanged_R'
done
pairs=("-o x.json --recording x.json" "--pcap x.pcap -o x.pcap" "--pcap x.pcap --samples x.pcap"
       "--pcap $R --recording $R" "--samples x.csv --recording x.csv" "--samples $R -o soft.adbscope"
       "-o x.json --samples x.adbscope")
for p in "${pairs[@]}"; do
  # shellcheck disable=SC2086
  "$bin" record -s "$serial" -p "$pkg" --duration 1s $p >out.txt 2>&1; rc=$?
  check "record $p: usage error, nothing made or touched" \
    '[ $rc = 2 ] && [ "$(json "d[\"error\"][\"code\"]" "$(cat out.txt)")" = usage ] && ! ls x.* >/dev/null 2>&1 && unchanged_R'
done

# --- 3. a failed run touches no earlier result -------------------------------
printf 'old,csv\n1,2\n' >old.csv
before=$(sha256sum old.csv)
"$bin" record -s "$serial" -p no.such.pkg --samples old.csv --duration 2s >out.txt 2>&1; rc=$?
check "record -p no.such.pkg --samples old.csv fails" '[ $rc = 1 ]'
check "and leaves old.csv as it was" '[ "$(sha256sum old.csv)" = "$before" ]'
"$bin" record -s "$serial" -p "$pkg" --samples old.csv --duration 2s -o ok.json >/dev/null 2>&1; rc=$?
check "a run that starts replaces it with its rows" \
  '[ $rc = 0 ] && head -n1 old.csv | grep -q "cpu.app_pct" && [ "$(wc -l <old.csv)" -ge 2 ]'

if [ "$network" = True ]; then
  echo old-pcap >old.pcap
  "$bin" record -s "$serial" -p no.such.pkg --pcap old.pcap --duration 2s >out.txt 2>&1; rc=$?
  check "record -p no.such.pkg --pcap old.pcap leaves old.pcap as it was, no temporary file left" \
    '[ $rc = 1 ] && [ "$(cat old.pcap)" = old-pcap ] && [ -z "$(ls -A | grep "^\.old\.pcap")" ]'
  "$bin" record -s "$serial" -p "$pkg" --pcap old.pcap --duration 3s -o pcap.json >/dev/null 2>&1; rc=$?
  check "a run that starts replaces it with its capture (a pcap file)" \
    '[ $rc = 0 ] && [ "$(head -c4 old.pcap | od -An -tx1 | tr -d " ")" = d4c3b2a1 ]'
else
  skip "--pcap of a failed run" "the sim has no network here"; skip "--pcap of a run" "no network"
fi

# --- 4. the recording never goes "beside" a device ---------------------------
if is_root; then
  before_dev=$(ls /dev | grep -c adbscope)
  "$bin" record -s "$serial" -p "$pkg" --duration 1s -o "$work/null" >out.txt 2>&1; rc=$?
  rec=$(json "d['recording']" "$(cat out.txt)")
  check "-o DEVICE as root: the recording goes to \$XDG_DATA_HOME/adbscope/recordings and the summary names it" \
    '[ $rc = 0 ] && [[ "$rec" == "$XDG_DATA_HOME/adbscope/recordings/"*.adbscope ]] && [ -s "$rec" ] && [ ! -e "$work/null.adbscope" ]'
  "$bin" record -s "$serial" -p "$pkg" --duration 1s -o /dev/stdout >out.txt 2>err.txt; rc=$?
  rec=$(json "d['run']['recording']" "$(cat out.txt)")
  check "-o /dev/stdout as root: the report on stdout names a recording in the data folder, nothing in /dev" \
    '[ $rc = 0 ] && [[ "$rec" == "$XDG_DATA_HOME/adbscope/recordings/"*.adbscope ]] && [ -s "$rec" ] && [ "$(ls /dev | grep -c adbscope)" = "$before_dev" ]'

  # An ordinary user (nobody) with a HOME of its own.
  user_home="$work/nobody" && mkdir -p "$user_home/run" && chmod 700 "$user_home/run" && chown -R nobody "$user_home"
  as_nobody () {
    setpriv --reuid=nobody --regid=nogroup --clear-groups -- env HOME="$user_home" XDG_RUNTIME_DIR="$user_home/run" \
      XDG_DATA_HOME="$user_home/data" XDG_STATE_HOME="$user_home/state" "$@"
  }
  as_nobody "$bin" record -s "$serial" -p "$pkg" --duration 1s -o /dev/stdout >out.txt 2>err.txt; rc=$?
  rec=$(json "d['run']['recording']" "$(cat out.txt)")
  check "-o /dev/stdout as an ordinary user: exit 0, the report on stdout" '[ $rc = 0 ] && [ -n "$rec" ]'
  check "its recording is in that user's data folder, owned by it" \
    '[[ "$rec" == "$user_home/data/adbscope/recordings/"*.adbscope ]] && [ "$(stat -c %U "$rec")" = nobody ]'
  as_nobody "$bin" record -s "$serial" -p "$pkg" --duration 1s -o /dev/null >out.txt 2>err.txt; rc=$?
  rec=$(json "d['recording']" "$(cat out.txt)")
  check "-o /dev/null as an ordinary user: exit 0, the summary names the recording in its data folder" \
    '[ $rc = 0 ] && [[ "$rec" == "$user_home/data/adbscope/recordings/"*.adbscope ]] && [ -s "$rec" ]'
else
  for i in 1 2 3 4 5; do skip "recording placement as root and as nobody" "needs root"; done
fi

# --- 5. capture-device --force never deletes through a symlink ---------------
mkdir -p cap elsewhere/sub
echo precious >elsewhere/a.txt; echo kept >elsewhere/sub/b.txt
echo '{}' >cap/manifest.json
ln -s ../elsewhere cap/commands
ln -s ../elsewhere/sub cap/files
"$bin" capture-device -s "$serial" -o cap --force --duration 1s --repeats 1 >out.txt 2>/dev/null; rc=$?
check "capture-device --force over links: exit 0" '[ $rc = 0 ]'
check "the links' targets are intact" \
  '[ "$(cat elsewhere/a.txt)" = precious ] && [ "$(cat elsewhere/sub/b.txt)" = kept ]'
check "the links were replaced by the capture's own folders" '[ -d cap/commands ] && [ ! -L cap/commands ] && [ ! -L cap/files ]'

# --- 6. a recording that cannot be written ------------------------------------
report_errors () { jsonf "len(d['run']['output_errors'])" "$1"; }
if is_root; then
  mkdir -p small && mount -t tmpfs -o size=160k tmpfs small && mounted="$work/small"
  "$bin" record -s "$serial" -p "$pkg" --interval 100ms --screenshots 1s --duration 6s \
    --recording small/full.adbscope -o full.json >/dev/null 2>err.txt; rc=$?
  check "full disk: exit 1 (the run was not saved)" '[ $rc = 1 ]'
  check "full disk: run.output_errors names the recording and what the report covers" \
    '[ "$(report_errors full.json)" -ge 1 ] && [ "$(jsonf "\"full.adbscope\" in d[\"run\"][\"output_errors\"][0] and \"kept in memory\" in d[\"run\"][\"output_errors\"][0]" full.json)" = True ]'
  check "full disk: run.recording is null (no file holds this run)" '[ "$(jsonf "d[\"run\"][\"recording\"]" full.json)" = None ]'
  umount small && mounted=

  "$bin" record -s "$serial" -p "$pkg" --interval 100ms --samples gone.csv --duration 5s --recording gone.adbscope -o gone.json >/dev/null 2>&1 &
  pid=$!
  wait_for '[ "$(lines gone.csv)" -ge 3 ]'
  rm -f gone.adbscope gone.adbscope-wal
  wait $pid; rc=$?
  check "recording removed mid-run: exit 1, the error in run.output_errors" \
    '[ $rc = 1 ] && [ "$(jsonf "\"removed\" in \" \".join(d[\"run\"][\"output_errors\"])" gone.json)" = True ]'

  if lsattr -d . >/dev/null 2>&1; then
    "$bin" record -s "$serial" -p "$pkg" --interval 100ms --screenshots 1s --samples ro.csv --duration 6s \
      --recording ro.adbscope -o ro.json >/dev/null 2>&1 &
    pid=$!
    wait_for '[ "$(lines ro.csv)" -ge 3 ]'
    chattr +i ro.adbscope* 2>/dev/null
    wait $pid; rc=$?
    chattr -i ro.adbscope* 2>/dev/null
    check "recording made immutable mid-run (chattr +i): no SIGBUS, exit 1" '[ $rc = 1 ]'
    check "and the error is in run.output_errors" '[ "$(report_errors ro.json)" -ge 1 ]'
  else
    skip "chattr +i mid-run" "this file system has no attributes"; skip "chattr +i errors" "no attributes"
  fi
else
  for i in 1 2 3 4 5 6; do skip "unwritable recordings" "needs root"; done
fi

# --- 7. one lock per device and server, removed at the end --------------------
"$bin" record -s "$serial" -p "$pkg" -o lock.json >/dev/null 2>&1 &
pid=$!
wait_for '[ -n "$(ls "$XDG_RUNTIME_DIR"/adbscope/runs/*.json 2>/dev/null)" ]' 60
for spelling in "localhost:$port" "127.0.0.1:$port"; do
  "$bin" --adb-server "$spelling" record -s "$serial" -p "$pkg" --duration 1s >out.txt 2>&1; rc=$?
  check "a second record through $spelling is refused (already recording)" \
    '[ $rc = 1 ] && [ "$(json "d[\"error\"][\"code\"]" "$(cat out.txt)")" = address_in_use ]'
done
env -u ADB_SERVER_SOCKET ANDROID_ADB_SERVER_PORT="$port" "$bin" record -s "$serial" -p "$pkg" --duration 1s >out.txt 2>&1; rc=$?
check "and through ANDROID_ADB_SERVER_PORT" '[ $rc = 1 ] && [ "$(json "d[\"error\"][\"code\"]" "$(cat out.txt)")" = address_in_use ]'
if [ "$network" = True ]; then
  # Refused after its agent started (the lock is taken then): a failed run
  # that had opened its pcap must leave an old one as it was.
  echo old-pcap >old2.pcap
  "$bin" record -s "$serial" -p "$pkg" --capture --pcap old2.pcap --duration 1s >out.txt 2>&1; rc=$?
  check "a refused record --pcap old2.pcap leaves old2.pcap as it was" \
    '[ $rc = 1 ] && [ "$(cat old2.pcap)" = old-pcap ] && [ -z "$(ls -A | grep "^\.old2\.pcap")" ]'
else
  skip "--pcap of a refused record" "the sim has no network here"
fi
"$bin" stop >/dev/null 2>&1
wait $pid; rc=$?
check "the first record ends with its report" '[ $rc = 0 ] && [ -s lock.json ]'
check "no lock file remains in the runtime folder" \
  '[ -z "$(find "$XDG_RUNTIME_DIR/adbscope" -type f 2>/dev/null)" ]'

# --- 8. signals: a second Ctrl+C is never fatal -------------------------------
if [ "$network" = True ]; then capture=--capture; else capture=; fi
"$bin" record -s "$serial" -p "$pkg" $capture --samples sig.csv -o sig.json >sig.out 2>sig.err &
pid=$!
# running: rows coming, and with --capture the agent's forward made
wait_for '[ "$(lines sig.csv)" -ge 3 ]' 60
[ -n "$capture" ] && wait_for '[ -n "$("$adb" forward --list)" ]'
# twice 100 ms apart (the case of the issue), then a third: none is fatal
kill -INT $pid; sleep 0.1; kill -INT $pid; sleep 0.1; kill -INT $pid 2>/dev/null
wait $pid; rc=$?
check "SIGINT twice 100 ms apart (and a third): exit 0, not 130" '[ $rc = 0 ]'
check "and the report was written" '[ "$(jsonf "d[\"schema\"]" sig.json)" = adbscope-report/1 ]'
if [ -n "$capture" ]; then
  check "the private server holds no forward afterwards" '[ -z "$("$adb" forward --list)" ]'
  status=$("$bin" agent status -s "$serial")
  check "the sim's agent is stopped" '[ "$(json "d[\"state\"]" "$status")" = stopped ] && [ "$(json "d[\"capture_running\"]" "$status")" = False ]'
  check "the report has the capture" '[ "$(jsonf "d[\"network\"][\"agent\"][\"enabled\"]" sig.json)" = True ]'
else
  skip "forwards after two SIGINTs" "the sim has no network here"; skip "agent stopped" "no network"; skip "capture in report" "no network"
fi

echo "1..$n"
[ $fails = 0 ]
