#!/bin/sh
# Usage: run-xvfb.sh COMMAND [ARGS…] — runs COMMAND on a private Xvfb.
# -displayfd lets Xvfb pick a free display itself, so parallel test runs
# (and other workers on the machine) cannot race for the same number the
# way `xvfb-run -a` can.
set -eu
tmp=$(mktemp -d)
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp -noreset \
  3>"$tmp/display" >"$tmp/log" 2>&1 &
xvfb=$!
cleanup () { kill "$xvfb" 2>/dev/null || true; wait "$xvfb" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM
i=0
# Xvfb writes the number and a newline once it accepts clients.
until grep -q '^[0-9][0-9]*$' "$tmp/display" 2>/dev/null; do
  if ! kill -0 "$xvfb" 2>/dev/null || [ "$i" -ge 200 ]; then
    echo "Xvfb did not start:" >&2; cat "$tmp/log" >&2; exit 1
  fi
  i=$((i + 1)); sleep 0.05
done
DISPLAY=":$(cat "$tmp/display")"
export DISPLAY
unset WAYLAND_DISPLAY
GDK_BACKEND=x11 "$@"
