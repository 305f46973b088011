#!/bin/sh
# Usage: check-gui-reads-view.sh NM GUI_DIR LIBADBSCOPE-GUI.a — fails when
# src/gui includes a collector's header (the GUI never sees a collector's
# sample struct), or when anything in the GUI library but the window's files (which
# owns the session) and AdbscopeDataView calls the session: pages read the
# view, so pausing it freezes every page.
set -eu
nm="$1"; dir="$2"; lib="$3"
bad=$(grep -nE '#include +"adbscope-([a-z]+-)?collector[-.]' "$dir"/*.[ch] || true)
if [ -n "$bad" ]; then
  echo "src/gui includes a collector header:"; echo "$bad"; exit 1
fi
calls=$("$nm" -A -u "$lib" | grep -E ' U adbscope_session_' || true)
echo "$calls" | grep -q 'adbscope-data-view' || { echo "nm saw no session call from the view; check is blind"; exit 1; }
bad=$(echo "$calls" | grep -vE 'adbscope-(data-view|window|window-actions|window-capture|window-compare)\.c\.o' || true)
if [ -n "$bad" ]; then
  echo "GUI code other than the window and the data view reads the session:"; echo "$bad"; exit 1
fi
echo "ok: the pages read only AdbscopeDataView"
