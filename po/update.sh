#!/bin/sh
# Refresh the translation files after strings changed in the sources.
#
#   po/update.sh           rewrite po/POTFILES.in, po/adbscope.pot and merge it
#                          into every catalog in po/LINGUAS (then translate
#                          what msgfmt reports as untranslated or fuzzy)
#   po/update.sh --check   change nothing; exit 1 when POTFILES.in is stale
#                          or a catalog lacks a translation for a current
#                          string (tests/data runs this)
set -eu
po=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$po")
check=0
[ "${1:-}" = "--check" ] && check=1

# The same keywords and flags as meson's i18n 'glib' preset, so the template
# here and `meson compile adbscope-pot` agree.
make_pot () {
  (cd "$root" && xgettext --from-code=UTF-8 --add-comments \
    --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
    --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
    --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
    --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
    --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
    --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
    --flag=g_markup_printf_escaped:1:c-format --flag=g_printerr:1:c-format \
    --flag=g_print:1:c-format --flag=g_printf:1:c-format --flag=g_fprintf:2:c-format \
    --package-name=adbscope --msgid-bugs-address=https://github.com/adbscope/adbscope/issues \
    --files-from="$1" --directory="$root" --output="$2")
}

if [ "$check" = 1 ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  python3 "$po/potfiles.py" --root "$root" --check
  make_pot "$po/POTFILES.in" "$tmp/adbscope.pot" 2>"$tmp/xgettext.log"
  status=0
  # A warning usually means a msgid xgettext could not read whole, such as
  # one built with G_GINT64_FORMAT: its translation could never be found.
  if [ -s "$tmp/xgettext.log" ]; then
    cat "$tmp/xgettext.log"
    echo "xgettext warned about the sources (above)"
    status=1
  fi
  for lang in $(grep -v '^#' "$po/LINGUAS"); do
    msgmerge --quiet --no-fuzzy-matching "$po/$lang.po" "$tmp/adbscope.pot" -o "$tmp/$lang.po"
    stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$tmp/$lang.po" 2>&1)
    echo "$lang: $stats"
    case "$stats" in
      *untranslated*|*fuzzy*) status=1 ;;
    esac
    # Strings that left the sources stay behind as obsolete #~ entries.
    if grep -q '^#~ msgid' "$tmp/$lang.po"; then
      echo "$lang: has obsolete messages; run po/update.sh"
      status=1
    fi
  done
  [ "$status" = 0 ] || echo "catalogs are not complete for the sources: run po/update.sh and translate"
  exit "$status"
fi

python3 "$po/potfiles.py" --root "$root" --write
make_pot "$po/POTFILES.in" "$po/adbscope.pot"
for lang in $(grep -v '^#' "$po/LINGUAS"); do
  if [ -f "$po/$lang.po" ]; then
    msgmerge --quiet --update --backup=none --previous "$po/$lang.po" "$po/adbscope.pot"
    # Keep the catalog free of strings no source has any more.
    msgattrib --no-obsolete -o "$po/$lang.po" "$po/$lang.po"
  else
    msginit --no-translator --locale="$lang.UTF-8" -i "$po/adbscope.pot" -o "$po/$lang.po"
  fi
  printf '%s: ' "$lang"; LC_ALL=C msgfmt --check --statistics -o /dev/null "$po/$lang.po"
done
