#!/bin/sh
# Bounded libFuzzer run: new inputs go to a scratch directory, the committed
# seed corpus is only read.  usage: run-fuzzer.sh FUZZER SEED_DIR
set -eu
fuzzer=$1
seeds=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$fuzzer" -max_total_time=15 -rss_limit_mb=2048 -timeout=10 \
  -print_final_stats=1 "$scratch" "$seeds"
