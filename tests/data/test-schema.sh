#!/bin/bash
# The compiled schema has the preference keys the GUI reads, with sane
# defaults, and refuses values outside their ranges.
# Usage: test-schema.sh SCHEMA_BUILDDIR APP_ID
set -u
. "$(dirname "$0")/tap.sh"
dir="$1"; schema="$2"
export GSETTINGS_BACKEND=memory
gs () { gsettings --schemadir "$dir" "$@"; }

check "gschemas.compiled was built" test -f "$dir/gschemas.compiled"
check "schema $schema is in it" eval 'gs list-schemas | grep -qx "$schema"'

expect_default ()
{
  local key="$1" want="$2" got
  got=$(gs get "$schema" "$key" 2>&1)
  check "$key defaults to $want" test "$got" = "$want"
}
expect_default sample-interval "uint32 1000"
expect_default history-length "uint32 600"
expect_default meminfo-interval "uint32 2000"
expect_default window-width "1100"
expect_default window-height "720"
expect_default window-maximized "false"
expect_default last-device "''"
expect_default last-app "''"


# Ranges: the documented bounds are accepted, one step outside is refused.
check "sample-interval range is 250..10000" eval \
  '[ "$(gs range "$schema" sample-interval | tr "\n" " ")" = "range u 250 10000 " ]'
check "sample-interval 100 ms is refused" eval '! gs set "$schema" sample-interval 100 2>/dev/null'
check "meminfo-interval below 1 s is refused" eval '! gs set "$schema" meminfo-interval 500 2>/dev/null'
check "history-length above 2 h is refused" eval '! gs set "$schema" history-length 7201 2>/dev/null'
check "a valid value is accepted" gs set "$schema" sample-interval 500

for key in $(gs list-keys "$schema"); do
  check "$key has a summary and description" eval \
    '[ -n "$(gs describe "$schema" "$key")" ]'
done

finish
