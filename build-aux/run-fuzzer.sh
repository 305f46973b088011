#!/bin/sh
# A bounded libFuzzer run, the one runner for every fuzz target.
#   run-fuzzer.sh FUZZER SECONDS SEED_DIR…
# The committed seed directories are only read; new inputs and artifacts go
# to a scratch directory.  On a failure the reproducer is printed, so it can
# be committed as a regression seed.
set -eu
fuzzer=$1 seconds=$2
shift 2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/corpus"
seeds=""
for d in "$@"; do
  [ -d "$d" ] && seeds="$seeds $d"
done
status=0
# shellcheck disable=SC2086
"$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$scratch/" "$scratch/corpus" $seeds || status=$?
if [ "$status" != 0 ]; then
  for f in "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* "$scratch"/oom-*; do
    [ -e "$f" ] || continue
    echo "reproducer $(basename "$f") (commit it as a regression seed):"
    od -A d -c "$f" | head -40
  done
  # libFuzzer's own exit code for a crash is 77, which meson reads as
  # "skipped": a finding must fail the test.
  echo "fuzzer failed (exit $status)" >&2
  exit 1
fi
exit 0
