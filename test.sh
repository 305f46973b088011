#!/usr/bin/env bash
# Install what is missing, build, run every test suite, print "N passed, N failed".
#   ./test.sh                 everything (what CI runs)
#   ./test.sh --no-sanitize   skip the ASan/UBSan build and the fuzzers
#   ./test.sh --quick         the edit loop: the main build's unit and parser
#                             tests only (suite 'unit'; seconds, no device)
set -uo pipefail
ADBSCOPE_SRC=$(cd "$(dirname "$0")" && pwd)
. "$ADBSCOPE_SRC/build-aux/setup.sh"
cd "$ADBSCOPE_SRC"

sanitize=1
quick=0
for a in "$@"; do
  case "$a" in
    --no-sanitize) sanitize=0 ;;
    --quick) quick=1 ;;
    *) echo "usage: ./test.sh [--no-sanitize | --quick]" >&2; exit 2 ;;
  esac
done

adbscope_install_deps || { echo "0 passed, 1 failed"; exit 1; }

logs=()
status=0

# Main build: every suite but the benchmarks (--quick: suite 'unit' only).
if adbscope_build _build; then
  if [ "$quick" = 1 ]; then
    meson test -C _build --no-rebuild --print-errorlogs --num-processes 2 --suite unit
    python3 "$ADBSCOPE_SRC/build-aux/test-summary.py" 0 _build/meson-logs/testlog.json
    exit $?
  fi
  meson test -C _build --no-rebuild --print-errorlogs --num-processes 2 \
    --no-suite benchmark --no-suite sanitize
  logs+=(_build/meson-logs/testlog.json)
else
  echo "error: the build failed" >&2
  status=1
  if [ "$quick" = 1 ]; then
    python3 "$ADBSCOPE_SRC/build-aux/test-summary.py" "$status"
    exit $?
  fi
fi

# The agent engine cross-built for a 32-bit and a big-endian CPU, its tests
# that need no TUN run under qemu-user (agent/cross; docs/agent.md).  armhf
# is the 32-bit phones' ABI and faults on misaligned wide loads; s390x
# checks the byte order of the whole engine (mips only has the parsers, and
# its test-parse ran slower under qemu: 0.32 s against 0.15 s); armhf has
# ARM's compiler, libc and unsigned char as aarch64 does.  The other two
# cross files stay for running by hand.
for target in armhf s390x; do
  if adbscope_build_cross "_build-cross-$target" "$target"; then
    meson test -C "_build-cross-$target" --no-rebuild --print-errorlogs --num-processes 2
    logs+=("_build-cross-$target/meson-logs/testlog.json")
  else
    echo "error: the $target cross build failed" >&2
    status=1
  fi
done

# Sanitizer build (clang, ASan+UBSan): the unit, parser and memory tests
# (suite 'sanitize', see meson.build) and the libFuzzer targets, bounded.
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
