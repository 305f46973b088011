#!/bin/bash
# Every catalog is valid (msgfmt --check) and complete: merged with a template
# made from the sources as they are now, nothing is untranslated or fuzzy.
# Usage: test-po.sh SRCDIR
set -u
. "$(dirname "$0")/tap.sh"
src="$1"
langs=$(grep -v '^#' "$src/po/LINGUAS")
check "po/LINGUAS has zh_CN" grep -qx zh_CN <<<"$langs"
for lang in $langs; do
  check "$lang.po passes msgfmt --check" msgfmt --check --check-format -o /dev/null "$src/po/$lang.po"
  stats=$(LC_ALL=C msgfmt --statistics -o /dev/null "$src/po/$lang.po" 2>&1)
  check "$lang.po has no untranslated or fuzzy entries ($stats)" eval '! grep -Eq "untranslated|fuzzy" <<<"$stats"'
done
out=$("$src/po/update.sh" --check 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
check "catalogs are complete for the current sources (po/update.sh --check)" test "$rc" = 0
finish
