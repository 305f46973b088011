#!/bin/bash
# CLI conventions: --version, --help, unknown commands, JSON errors, no GTK.
set -u
bin="$1"
fails=0
check () { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fails=$((fails+1)); fi; }

out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$bin" --version); rc=$?
check "--version prints the version" '[ $rc = 0 ] && [[ "$out" =~ ^adbscope\ [0-9]+\.[0-9]+\.[0-9]+$ ]]'

out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$bin" --help); rc=$?
check "--help lists the subcommands" '[ $rc = 0 ] && grep -q "^  devices" <<<"$out"'

out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$bin" frobnicate); rc=$?
check "unknown command is a JSON usage error with exit 2" \
  '[ $rc = 2 ] && python3 -c "import json,sys; e=json.loads(sys.argv[1])[\"error\"]; assert e[\"code\"]==\"usage\" and \"frobnicate\" in e[\"message\"]" "$out"'

out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$bin" devices --no-such-option); rc=$?
check "bad option is a JSON usage error" '[ $rc = 2 ] && grep -q "\"usage\"" <<<"$out"'

out=$(env -u DISPLAY -u WAYLAND_DISPLAY ADB=/nonexistent/adb "$bin" devices); rc=$?
check "missing adb gives adb_not_found" '[ $rc = 1 ] && grep -q "\"adb_not_found\"" <<<"$out"'

out=$(env -u DISPLAY -u WAYLAND_DISPLAY PATH=/nonexistent "$bin" devices 2>&1); rc=$?
check "no adb on PATH gives adb_not_found and nothing but JSON" \
  '[ $rc = 1 ] && python3 -c "import json,sys; assert json.loads(sys.argv[1])[\"error\"][\"code\"]==\"adb_not_found\"" "$out"'

[ $fails = 0 ]
