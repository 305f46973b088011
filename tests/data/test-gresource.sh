#!/bin/bash
# The built binary carries the gresource: the CSS, the symbolic icon and every
# .ui file under ui/ (found here, so a new .ui missing from the gresource.xml
# fails).  Usage: test-gresource.sh ADBSCOPE SRCDIR APP_ID
set -u
. "$(dirname "$0")/tap.sh"
bin="$1"; src="$2"; app_id="$3"
base="/io/github/adbscope/Adbscope"

listed=$(gresource list "$bin" 2>&1)
check "gresource finds resources in the binary" eval '[ -n "$listed" ] && ! grep -q "^Can.t find" <<<"$listed"'
check "style.css is at the base path (AdwApplication loads it)" grep -qx "$base/style.css" <<<"$listed"
check "the symbolic icon is under the base path's icons/" \
  grep -qx "$base/icons/scalable/apps/$app_id-symbolic.svg" <<<"$listed"
check "the embedded style.css is the one in data/" \
  cmp -s <(gresource extract "$bin" "$base/style.css") "$src/data/style.css"

n=0
if [ -d "$src/ui" ]; then
  while IFS= read -r ui; do
    rel=${ui#"$src/ui/"}
    n=$((n + 1))
    check "ui/$rel is in the binary as $base/$rel" grep -qx "$base/$rel" <<<"$listed"
  done < <(find "$src/ui" -name '*.ui' | sort)
fi
echo "# $n .ui files under ui/"
finish
