#!/bin/sh
# Usage: check-parsers-pure.sh NM PARSERS_DIR LIBRARY.a — fails when a parser
# includes the shell or adb layer, or when the parsers library calls anything
# that spawns or does I/O (parsers are text in, structs out).
set -eu
nm="$1"; dir="$2"; lib="$3"
bad=$(grep -nE '#include +"adbscope-(shell|adb|collector|session|device|probe)[-.]' "$dir"/*.[ch] \
      | grep -v 'adbscope-adb-parse' || true)
if [ -n "$bad" ]; then
  echo "a parser includes the shell/adb/collector layer:"; echo "$bad"; exit 1
fi
syms=$("$nm" -u "$lib" | grep -E ' (g_subprocess|g_spawn|adbscope_shell_|adbscope_adb_|fork|execv|popen|system|g_socket)' || true)
if [ -n "$syms" ]; then
  echo "the parsers library spawns or does I/O:"; echo "$syms"; exit 1
fi
"$nm" -u "$lib" | grep -q ' g_strsplit\| g_ascii_strtoll\| g_str_has_prefix' || { echo "nm saw no GLib symbols; check is blind"; exit 1; }
echo "ok: the parsers are pure"
