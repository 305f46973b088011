#!/usr/bin/env bash
# Set up (install missing Debian packages, configure, build) and run Adbscope.
#   ./run.sh            the window when a display exists, otherwise a 10 s demo record
#   ./run.sh ARGS…      adbscope ARGS…
set -uo pipefail
ADBSCOPE_SRC=$(cd "$(dirname "$0")" && pwd)
. "$ADBSCOPE_SRC/build-aux/setup.sh"

adbscope_install_deps || exit 1
adbscope_build "$ADBSCOPE_SRC/_build" || { echo "error: the build failed" >&2; exit 1; }

bin="$ADBSCOPE_SRC/_build/src/adbscope"
# The uninstalled build finds its compiled GSettings schema and translations.
export GSETTINGS_SCHEMA_DIR="$ADBSCOPE_SRC/_build/data${GSETTINGS_SCHEMA_DIR:+:$GSETTINGS_SCHEMA_DIR}"
export ADBSCOPE_LOCALEDIR="$ADBSCOPE_SRC/_build/po"
if [ $# -gt 0 ]; then
  exec "$bin" "$@"
fi
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$bin"
fi
if "$bin" --help 2>/dev/null | grep -q '^  record'; then
  exec "$bin" record --demo -p io.github.adbscope.demo --duration 10s
fi
exec "$bin" devices
