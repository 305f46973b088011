#!/bin/sh
# run-fuzzer.sh FUZZER SEEDS WORKDIR SECONDS: a bounded libFuzzer run.  New
# inputs and crash artifacts go to WORKDIR (the build tree), never to the
# committed seed corpus; a crash input found here belongs in SEEDS/regressions.
set -eu
fuzzer=$1 seeds=$2 work=$3 seconds=$4
mkdir -p "$work/corpus" "$work/artifacts"
exec "$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  "$work/corpus" "$seeds" "$seeds/regressions"
