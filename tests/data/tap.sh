# Sourced by the tests in this folder: `check NAME COMMAND…` runs a check and
# prints ok / not ok; `finish` exits 1 when one failed.
fails=0
check ()
{
  local name="$1"; shift
  if "$@"; then
    echo "ok - $name"
  else
    echo "not ok - $name"
    fails=$((fails + 1))
  fi
}
finish ()
{
  if [ "$fails" != 0 ]; then
    echo "$fails check(s) failed"
    exit 1
  fi
  exit 0
}
