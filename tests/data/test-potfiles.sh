#!/bin/bash
# po/POTFILES.in lists every file with translatable strings, and the check
# notices when one is missing.  Usage: test-potfiles.sh SRCDIR
set -u
. "$(dirname "$0")/tap.sh"
src="$1"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

check "po/POTFILES.in covers the tree" python3 "$src/po/potfiles.py" --root "$src" --check

# The checker itself: a copy of the tree where one more file uses _(),
# another has translatable="yes", and a comment merely mentions N_().
mkdir -p "$tmp/tree/po" "$tmp/tree/src/gui" "$tmp/tree/ui"
cp "$src/po/POTFILES.in" "$tmp/tree/po/"
while read -r f; do
  case "$f" in ''|'#'*) continue ;; esac
  mkdir -p "$tmp/tree/$(dirname "$f")"; cp "$src/$f" "$tmp/tree/$f"
done < "$src/po/POTFILES.in"
check "the copy passes" python3 "$src/po/potfiles.py" --root "$tmp/tree" --check
printf '/* comment: N_("not a string") */\nstatic const char *s = "_(";\n' > "$tmp/tree/src/gui/quiet.c"
check "comments and string literals do not count" python3 "$src/po/potfiles.py" --root "$tmp/tree" --check
printf '#include <glib/gi18n.h>\nconst char *f (void) { return _("Hello"); }\n' > "$tmp/tree/src/gui/new.c"
out=$(python3 "$src/po/potfiles.py" --root "$tmp/tree" --check); rc=$?
check "a new C file with _() is reported missing" eval '[ $rc = 1 ] && grep -q "missing from po/POTFILES.in: src/gui/new.c" <<<"$out"'
rm "$tmp/tree/src/gui/new.c"
printf '<interface><object class="GtkLabel"><property name="label" translatable="yes">Hi</property></object></interface>\n' > "$tmp/tree/ui/new.ui"
out=$(python3 "$src/po/potfiles.py" --root "$tmp/tree" --check); rc=$?
check "a new .ui file with translatable=\"yes\" is reported missing" eval '[ $rc = 1 ] && grep -q "ui/new.ui" <<<"$out"'
rm "$tmp/tree/ui/new.ui"
echo "src/gui/gone.c" >> "$tmp/tree/po/POTFILES.in"
out=$(python3 "$src/po/potfiles.py" --root "$tmp/tree" --check); rc=$?
check "a listed file that no longer exists is reported" eval '[ $rc = 1 ] && grep -q "gone.c" <<<"$out"'
finish
