#!/bin/sh
# Screenshots of every page of the app on the demo device, light and dark.
#
#   build-aux/screenshots.sh OUTDIR [PROFILE] [SECONDS]
#
# PROFILE is a simulated phone (pixel-14, legacy-8, tablet-13; default
# pixel-14); SECONDS how long to record before the pictures (default 20).
# Runs on a private Xvfb, D-Bus session and adb server (never port 5037),
# so it works on a headless machine and does not disturb a real phone.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${ADBSCOPE_BUILDDIR:-$src/_build}
out=${1:?usage: screenshots.sh OUTDIR [PROFILE] [SECONDS]}
profile=${2:-pixel-14}
seconds=${3:-20}

if [ ! -x "$build/tests/gui/gui-tour" ]; then
  meson setup "$build" "$src" >/dev/null 2>&1 || true
  meson compile -C "$build" gui-tour adbscope >/dev/null
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

home=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export HOME="$home" ANDROID_ADB_SERVER_PORT="$port" ADB_MDNS=0 ADB_EMU=0
export ADBSCOPE_BIN="$build/src/adbscope" ADBSCOPE_DEMO_PROFILE="$profile"
export GSETTINGS_SCHEMA_DIR="$build/data" GSETTINGS_BACKEND=memory
export GSK_RENDERER=cairo NO_AT_BRIDGE=1
# The simulated user takes 4 s to accept the VPN dialog: time to take the
# waiting dialog in both schemes.
export ADBSCOPE_SIM_CONSENT_MS=4000
# Real APKs on the demo device, for the app picker's names and icons.
apks="$build/tests/apk"
if [ -f "$apks/labels.apk" ]; then
  export ADBSCOPE_DEMO_APKS="$apks/labels.apk:$apks/literal.apk:$apks/adaptive.apk:$apks/nolabel.apk:$apks/game.apk"
fi
cleanup () { "${ADB:-adb}" kill-server >/dev/null 2>&1 || true; rm -rf "$home"; }
trap cleanup EXIT INT TERM
"${ADB:-adb}" start-server >/dev/null 2>&1

"$src/tests/gui/run-gui-test.sh" "$build/tests/gui/gui-tour" "$out" "$seconds" 2>"$out/tour.log"
echo "screenshots in $out ($profile)"
