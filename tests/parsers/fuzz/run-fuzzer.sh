#!/bin/sh
# Bounded libFuzzer run over a copy of the committed seed corpus, so new
# inputs land in a temporary directory and not in the source tree.
#   run-fuzzer.sh FUZZER CORPUS_DIR
set -eu
fuzzer=$1
corpus=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$corpus"/* "$work"/
exec_status=0
"$fuzzer" -max_total_time=15 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$work/" "$work" || exec_status=$?
if [ "$exec_status" != 0 ]; then
  for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
    if [ -e "$f" ]; then echo "reproducer $f:"; od -c "$f" | head -20; fi
  done
fi
exit "$exec_status"
