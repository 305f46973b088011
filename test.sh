#!/usr/bin/env bash
# Install what is missing, build, run every test suite, print "N passed, N failed".
#   ./test.sh                 everything (what CI runs)
#   ./test.sh --no-sanitize   skip the ASan/UBSan build and the fuzzers
set -uo pipefail
ADBSCOPE_SRC=$(cd "$(dirname "$0")" && pwd)
. "$ADBSCOPE_SRC/build-aux/setup.sh"
cd "$ADBSCOPE_SRC"

sanitize=1
for a in "$@"; do
  case "$a" in
    --no-sanitize) sanitize=0 ;;
    *) echo "usage: ./test.sh [--no-sanitize]" >&2; exit 2 ;;
  esac
done

adbscope_install_deps || { echo "0 passed, 1 failed"; exit 1; }

logs=()
status=0

# Main build: every suite but the benchmarks.
if adbscope_build _build; then
  meson test -C _build --no-rebuild --print-errorlogs --num-processes 2 \
    --no-suite benchmark --no-suite sanitize
  logs+=(_build/meson-logs/testlog.json)
else
  echo "error: the build failed" >&2
  status=1
fi

# The agent engine cross-built for the phones' CPUs (64- and 32-bit ARM) and
# two big-endian ones, its tests that need no TUN run under qemu-user
# (agent/cross; docs/agent.md).
for target in aarch64 armhf s390x mips; do
  if adbscope_build_cross "_build-cross-$target" "$target"; then
    meson test -C "_build-cross-$target" --no-rebuild --print-errorlogs --num-processes 2
    logs+=("_build-cross-$target/meson-logs/testlog.json")
  else
    echo "error: the $target cross build failed" >&2
    status=1
  fi
done

# Sanitizer build (clang, ASan+UBSan, libFuzzer targets run for a bounded time).
if [ "$sanitize" = 1 ]; then
  # No agent APK here (it is not code the sanitizers see, and its tests run
  # in the main build): test-capture then covers the build without one.
  if CC=clang adbscope_build _build-sanitize -Db_sanitize=address,undefined \
      -Db_lundef=false -Dgui=disabled -Dfuzzing=true -Dagent_apk_build=disabled; then
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      meson test -C _build-sanitize --no-rebuild --print-errorlogs --num-processes 2 \
      --suite sanitize
    logs+=(_build-sanitize/meson-logs/testlog.json)
  else
    echo "error: the sanitizer build failed" >&2
    status=1
  fi
fi

python3 "$ADBSCOPE_SRC/build-aux/test-summary.py" "$status" "${logs[@]}"
