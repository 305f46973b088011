# tests/common/wait.sh: wait for a condition, never for a fixed time (the
# shell tests' twin of adbscope-test-wait.h).  Source it, then:
#   wait_until SECONDS WHAT COMMAND [ARG…]
# runs COMMAND until it succeeds (first at once, then after 10 ms doubling up
# to 200 ms) and returns 0; after SECONDS it prints "timed out after SECONDS s
# waiting until WHAT" to stderr and returns 1.
wait_until ()
{
  local seconds="$1" what="$2" delay=0.01 start now
  shift 2
  start=$(date +%s%N)
  while ! "$@"; do
    now=$(date +%s%N)
    if [ $(( (now - start) / 1000000 )) -ge $(( seconds * 1000 )) ]; then
      echo "timed out after $seconds s waiting until $what" >&2
      return 1
    fi
    sleep "$delay"
    case "$delay" in
      0.01) delay=0.02 ;; 0.02) delay=0.05 ;; 0.05) delay=0.1 ;; *) delay=0.2 ;;
    esac
  done
}
