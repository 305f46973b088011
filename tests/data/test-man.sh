#!/bin/bash
# adbscope(1) formats without warnings and documents what the binary has:
# every command `adbscope --help` lists, every JSON error code, every exit
# status.  Usage: test-man.sh MAN_PAGE ADBSCOPE ERROR_C VERSION
set -u
. "$(dirname "$0")/tap.sh"
man="$1"; bin="$2"; error_c="$3"; version="$4"

warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$man" 2>&1)
check "groff -man -ww formats it without warnings" eval '[ -z "$warnings" ] || { echo "$warnings"; false; }'
text=$(LC_ALL=C.UTF-8 MANWIDTH=80 groff -man -Tutf8 -P-cbou "$man" 2>/dev/null)
check "it renders to text" eval '[ $(wc -l <<<"$text") -gt 100 ]'
check "its header names version $version" eval 'grep -q "^\.TH ADBSCOPE 1 .*\"adbscope $version\"" "$man"'
for section in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
  check "has section $section" grep -q "^\.SH \"\?$section\"\?\$" "$man"
done

# Commands come from the binary, so a new command without a page section fails.
commands=$(env -u DISPLAY -u WAYLAND_DISPLAY "$bin" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
check "adbscope --help lists commands" test -n "$commands"
for c in $commands devices apps record mark stop sim agent; do
  check "command $c has a .SS section" grep -qx "\.SS $c" "$man"
done

# Error codes come from the core's table.
codes=$(grep -o '\] = "[a-z_]*"' "$error_c" | sed 's/.*"\(.*\)"/\1/')
check "found the error codes in $(basename "$error_c")" eval '[ $(wc -w <<<"$codes") -ge 10 ]'
for code in $codes; do
  check "error code $code is documented" grep -qx "\.B $code" "$man"
done

for status in 0 1 2 3; do
  check "exit status $status is documented" eval 'sed -n "/^\.SH \"\?EXIT STATUS/,/^\.SH [A-Z]/p" "$man" | grep -qx "\.B $status"'
done
for env in ADB ANDROID_ADB_SERVER_PORT ADBSCOPE_LOCALEDIR; do
  check "environment variable $env is documented" grep -qx "\.B $env" "$man"
done
finish
