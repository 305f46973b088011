#!/bin/sh
# Bounded libFuzzer run over a copy of the seed corpus (new inputs stay out
# of the source tree).   run-fuzzer.sh FUZZER CORPUS_DIR
set -eu
fuzzer=$1
corpus=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$corpus"/* "$work"/
"$fuzzer" -max_total_time=15 -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$work/" "$work"
