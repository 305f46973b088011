#!/bin/bash
# The CLI speaks Simplified Chinese: messages translated, JSON keys and error
# codes not.  Usage: test-cli-zh-cn.sh ADBSCOPE LOCALEDIR
set -u
. "$(dirname "$0")/tap.sh"
bin="$1"; localedir="$2"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unset LC_ALL LC_MESSAGES LANG LANGUAGE

run () { env -u DISPLAY -u WAYLAND_DISPLAY ADBSCOPE_LOCALEDIR="$localedir" "$@"; }

# usage_error JSON LANGUAGE-REGEX: the error object has the untranslated code
# and a message matching the regex that names the unknown command.
usage_error ()
{
  python3 - "$1" "$2" <<'PY'
import json, re, sys
doc = json.loads(sys.argv[1])
assert list(doc) == ["error"], doc
err = doc["error"]
assert sorted(err) == ["code", "message"], err
assert err["code"] == "usage", err
assert "frobnicate" in err["message"], err
assert re.search(sys.argv[2], err["message"]), err["message"]
PY
}

# English first, so a Chinese result below cannot come from a binary that
# always prints Chinese or a test that cannot tell the difference.
out=$(run LANG=C.UTF-8 "$bin" frobnicate); rc=$?
check "C locale: English usage error, exit 2" \
  eval '[ $rc = 2 ] && usage_error "$out" "^Unknown command"'

# LANGUAGE picks the catalog when LC_MESSAGES is not plain C.
out=$(run LANG=C.UTF-8 LANGUAGE=zh_CN "$bin" frobnicate); rc=$?
check "LANGUAGE=zh_CN: translated message, code stays \"usage\"" \
  eval '[ $rc = 2 ] && usage_error "$out" "^未知命令“frobnicate”"'

out=$(run LANG=C.UTF-8 LANGUAGE=zh_CN "$bin" --help); rc=$?
check "LANGUAGE=zh_CN: --help is translated" \
  eval '[ $rc = 0 ] && grep -q "^用法：adbscope" <<<"$out" && grep -q "^命令：" <<<"$out"'

# An error from the core (not only the CLI's own usage text) is translated
# too, and its code is not.
out=$(run LANG=C.UTF-8 LANGUAGE=zh_CN ADB=/nonexistent/adb "$bin" devices); rc=$?
check "LANGUAGE=zh_CN: adb_not_found keeps its code, message in Chinese" \
  python3 -c '
import json, sys
assert sys.argv[1] == "1", sys.argv[1]
err = json.loads(sys.argv[2])["error"]
assert err["code"] == "adb_not_found", err
assert "/nonexistent/adb" in err["message"] and "找不到" in err["message"], err
' "$rc" "$out"

# A real zh_CN.UTF-8 locale, as a user in China has it: compiled into a
# private LOCPATH, so nothing is installed system-wide.
if localedef -i zh_CN -f UTF-8 "$tmp/zh_CN.UTF-8" 2>"$tmp/localedef.err" || [ -d "$tmp/zh_CN.UTF-8" ]; then
  out=$(run LOCPATH="$tmp" LANG=zh_CN.UTF-8 "$bin" frobnicate); rc=$?
  check "LANG=zh_CN.UTF-8: translated message" \
    eval '[ $rc = 2 ] && usage_error "$out" "^未知命令“frobnicate”"'
else
  cat "$tmp/localedef.err"
  check "localedef builds zh_CN.UTF-8 (Debian package locales)" false
fi

# Without the catalog the message falls back to English (proves the catalog,
# not the binary, carries the Chinese).
out=$(env -u DISPLAY ADBSCOPE_LOCALEDIR="$tmp/none" LANG=C.UTF-8 LANGUAGE=zh_CN "$bin" frobnicate); rc=$?
check "no catalog: English again" eval '[ $rc = 2 ] && usage_error "$out" "^Unknown command"'

finish
