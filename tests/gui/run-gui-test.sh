#!/bin/sh
# Usage: run-gui-test.sh COMMAND [ARGS…] — a private D-Bus session (GtkApplication
# registers on it) around run-xvfb.sh's private X server.
set -eu
here=$(dirname "$0")
exec dbus-run-session -- "$here/run-xvfb.sh" "$@"
