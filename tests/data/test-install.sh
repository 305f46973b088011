#!/bin/bash
# `meson install` into a DESTDIR puts every file where a desktop looks for it,
# and the installed binary runs from there.
# Usage: test-install.sh MESON BUILDDIR PREFIX BINDIR DATADIR MANDIR LOCALEDIR APP_ID GUI(true|false)
set -u
. "$(dirname "$0")/tap.sh"
meson="$1"; build="$2"; prefix="$3"; bindir="$4"; datadir="$5"; mandir="$6"; localedir="$7"
app_id="$8"; gui="$9"
dest=$(mktemp -d); trap 'rm -rf "$dest"' EXIT

# --no-rebuild: the test runs on what `meson test` built; the post-install
# scripts (schema compile, icon cache, desktop database) skip a DESTDIR.
if ! "$meson" install -C "$build" --no-rebuild --quiet --destdir "$dest" >"$dest.log" 2>&1; then
  cat "$dest.log"; rm -f "$dest.log"
  check "meson install --destdir succeeds" false
  finish
fi
rm -f "$dest.log"
check "meson install --destdir succeeds" true

d () { echo "$dest$1"; }
expect_file ()
{
  check "installs $1" test -f "$(d "$1")"
}
expect_file "$bindir/adbscope"
check "the binary is executable" test -x "$(d "$bindir/adbscope")"
expect_file "$datadir/applications/$app_id.desktop"
expect_file "$datadir/metainfo/$app_id.metainfo.xml"
expect_file "$datadir/icons/hicolor/scalable/apps/$app_id.svg"
expect_file "$datadir/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
expect_file "$datadir/glib-2.0/schemas/$app_id.gschema.xml"
expect_file "$localedir/zh_CN/LC_MESSAGES/adbscope.mo"
expect_file "$mandir/man1/adbscope.1"

# The installed files are valid where they are.
check "installed desktop file validates" desktop-file-validate "$(d "$datadir/applications/$app_id.desktop")"
check "installed metainfo validates" appstreamcli validate --no-net --no-color "$(d "$datadir/metainfo/$app_id.metainfo.xml")"
check "installed schema compiles" glib-compile-schemas --strict --targetdir="$dest" "$(d "$datadir/glib-2.0/schemas")"
check "installed man page is found by man -w" eval \
  'MANPATH="$(d "$mandir")" man -w adbscope | grep -qx "$(d "$mandir")/man1/adbscope.1"'
check "installed .mo has the zh_CN translation" eval \
  'msgunfmt "$(d "$localedir/zh_CN/LC_MESSAGES/adbscope.mo")" | grep -q "未知命令"'

# What the desktop file launches is what was installed: Exec's binary is in
# bindir, and the metainfo says it provides that binary.
exec_bin=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$(d "$datadir/applications/$app_id.desktop")")
check "Exec=$exec_bin is the installed binary" test -x "$(d "$bindir/$exec_bin")"

# No path into the build tree survives installation.
check "the installed binary has no RUNPATH into the build tree" eval \
  '! readelf -d "$(d "$bindir/adbscope")" | grep -E "R(UN)?PATH" | grep -qF "$build"'

# Run it from the DESTDIR, away from the build tree and any user adb server.
bin=$(d "$bindir/adbscope")
home=$(mktemp -d); trap 'rm -rf "$dest" "$home"' EXIT
run () { (cd "$home" && env -u DISPLAY -u WAYLAND_DISPLAY HOME="$home" "$@"); }
out=$(run "$bin" --version); rc=$?
check "installed adbscope --version prints the version" eval '[ $rc = 0 ] && [[ "$out" =~ ^adbscope\ [0-9]+\.[0-9]+\.[0-9]+$ ]]'

# `devices` with a private adb server on a free port; the result is JSON
# either way (a list, or an error object with a code) and the server is
# killed afterwards.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
out=$(run ANDROID_ADB_SERVER_PORT="$port" ADB_MDNS=0 ADB_EMU=0 timeout 60 "$bin" devices); rc=$?
echo "# devices exit $rc: $out" | head -5
check "installed adbscope devices prints JSON" python3 -c '
import json, sys
rc, doc = int(sys.argv[1]), json.loads(sys.argv[2])
if rc == 0:
    assert isinstance(doc, list), doc
else:
    assert rc == 1 and isinstance(doc["error"]["code"], str) and doc["error"]["message"], (rc, doc)
' "$rc" "$out"
if command -v adb >/dev/null; then
  run ANDROID_ADB_SERVER_PORT="$port" adb kill-server >/dev/null 2>&1 || true
fi

# The installed binary finds the installed catalog (relocated by the env var,
# as the compiled-in localedir lies outside the DESTDIR).
out=$(run ADBSCOPE_LOCALEDIR="$(d "$localedir")" LANG=C.UTF-8 LANGUAGE=zh_CN "$bin" frobnicate); rc=$?
check "installed adbscope speaks zh_CN from the installed catalog" eval '[ $rc = 2 ] && grep -q "未知命令" <<<"$out"'

if [ "$gui" = true ]; then
  check "installed binary carries the gresource" eval \
    'gresource list "$bin" | grep -qx /io/github/adbscope/Adbscope/style.css'
fi
finish
