#!/bin/sh
# Usage: check-no-gtk.sh NM LIBRARY.a — fails when the core references GTK.
set -eu
nm="$1"; lib="$2"
[ -f "$lib" ] || { echo "no such library: $lib"; exit 1; }
syms=$("$nm" -u "$lib" | grep -E ' (gtk_|gdk_|gsk_|adw_)' || true)
if [ -n "$syms" ]; then
  echo "the core library references GTK/libadwaita:"
  echo "$syms"
  exit 1
fi
# Prove the check can see undefined symbols at all.
"$nm" -u "$lib" | grep -q ' g_object_new' || { echo "nm saw no GLib symbols; check is blind"; exit 1; }
echo "ok: no GTK symbols in $(basename "$lib")"
