#!/usr/bin/env bash
# processes.sh KJIT_BIN [TARGET] - compile once across processes (docs/cache.md).
#
#   1. 16 concurrent `kjit run` of one kernel on a fresh cache directory:
#      exactly one compiles, the others read its entry; all results equal
#      and right; one entry file is left, no lock or temporary file; a
#      warm run afterwards reads the entry without waiting.
#   2. A lock holder killed (SIGKILL) while it holds the entry's lock does
#      not block the others: they finish long before its hold would end.
#   3. A live holder that outlasts KJIT_CACHE_LOCK_WAIT: the waiter gives
#      up after the bounded wait and compiles itself.
# KJIT_TEST_CACHE_HOLD_MS (a test-only setting) makes a process sleep while
# it holds the lock.  TARGET is cpu (the default; CI) or cuda (GPU suite).
# Run from the repository root or tests/ (examples/vector_add.py is found
# from this script's folder).
set -uo pipefail
if [ $# -lt 1 ]; then
  echo "usage: processes.sh KJIT_BIN [cpu|cuda]" >&2; exit 2
fi
kjit=$1 target=${2:-cpu}
# On the cuda target a compile stores two entries, the PTX and the cubin
# nvJitLink linked from it (docs/cache.md, "Cubins"): a run that compiles
# misses both, a warm one hits both.
n=1
[ "$target" = cuda ] && n=2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/../testlib.sh"
make_tmp
kernel="$here/../../examples/vector_add.py:add_kernel"
# out = x + y with x = 0..1023 and y = 2: sum(i + 2) = 523776 + 2048
want="out: float32[1024] [2, 3, 4, ..., 1025] sum=525824"
failures=0
fail() { echo "processes.sh: $*" >&2; failures=$((failures + 1)); }

# run_one DIR OUT [VAR=VALUE...]: one kjit run into OUT (stdout+stderr).
# It execs, so `(run_one ...) &` leaves $! the pid of kjit itself.
run_one() {
  local dir=$1 out=$2
  shift 2
  exec env KJIT_CACHE_DIR="$dir" "$@" "$kjit" run "$kernel" --target "$target" --grid 4 --block 256 \
      x=arange:f32:1024 y=full:f32:1024:2 out=zeros:f32:1024 --time >"$out" 2>&1
}

now_ms() { date +%s%3N; }

# --------------------------------------------------------- 16 at once ---
many() {
  local dir="$TMP/many" pids=() i
  for i in $(seq 1 16); do
    (run_one "$dir" "$TMP/many.$i" KJIT_CACHE_LOCK_WAIT=120) &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || fail "run $((i + 1)) of 16 failed: $(cat "$TMP/many.$((i + 1))")"
  done
  local compiled read outs
  compiled=$(cat "$TMP"/many.* | grep -c "^cache: compiled (hits 0, misses $n,")
  read=$(cat "$TMP"/many.* | grep -c "^cache: read (hits $n, misses 0,")
  outs=$(cat "$TMP"/many.* | grep '^out: ' | sort -u)
  [ "$compiled" -eq 1 ] || fail "16 runs: $compiled compiled, expected exactly 1"
  [ "$read" -eq 15 ] || fail "16 runs: $read read the cache, expected 15"
  [ "$(printf '%s\n' "$outs" | wc -l)" -eq 1 ] || fail "16 runs: different results: $outs"
  case $outs in "$want"*) ;; *) fail "16 runs: got '$outs', expected '$want ...'" ;; esac
  local left
  left=$(cd "$dir" && find . -type f | sed 's|^\./[0-9a-f][0-9a-f]/||' | sed 's/^[0-9a-f]\{64\}\.kjc$/ENTRY/')
  [ "$left" = "$(printf 'ENTRY\n%.0s' $(seq 1 $n) | head -c -1)" ] ||
    fail "16 runs left in the cache directory: $left"
  echo "16 processes: 1 compiled, 15 read ($(cat "$TMP"/many.* | grep -c 'waits 1)') of them waited)"
  # a warm run afterwards compiles nothing and waits for nothing
  (run_one "$dir" "$TMP/warm") || fail "the warm run failed: $(cat "$TMP/warm")"
  grep -q "^cache: read (hits $n, misses 0, waits 0)" "$TMP/warm" || fail "warm run: $(cat "$TMP/warm")"
  grep -qF "$want" "$TMP/warm" || fail "warm run's result: $(cat "$TMP/warm")"
}

# wait_for_lock DIR: until a .lock file exists under DIR (10 s at most).
wait_for_lock() {
  local i
  for i in $(seq 1 200); do
    [ -n "$(find "$1" -name '*.lock' 2>/dev/null)" ] && return 0
    sleep 0.05
  done
  return 1
}

# ---------------------------------------------- a killed lock holder ---
killed_holder() {
  local dir="$TMP/killed" pids=() i t0 t1
  (run_one "$dir" "$TMP/holder" KJIT_TEST_CACHE_HOLD_MS=60000) &
  local holder=$!
  wait_for_lock "$dir" || { fail "the holder never took the lock: $(cat "$TMP/holder")"; kill -9 $holder; return; }
  for i in 1 2 3 4; do
    (run_one "$dir" "$TMP/killed.$i" KJIT_CACHE_LOCK_WAIT=120) &
    pids+=($!)
  done
  sleep 1.5                            # the waiters are waiting now
  t0=$(now_ms)
  kill -9 $holder
  wait $holder 2>/dev/null
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || fail "waiter $((i + 1)) failed: $(cat "$TMP/killed.$((i + 1))")"
  done
  t1=$(now_ms)
  [ $((t1 - t0)) -lt 20000 ] || fail "waiters took $((t1 - t0)) ms after the holder died"
  local compiled waited
  # (cuda: a waiter that read the PTX may still link its own cubin if it
  # looks before the compiling process has stored it: that is a miss of the
  # cubin entry only, not a compile, so a compile is a miss of all n)
  compiled=$(cat "$TMP"/killed.* | grep -c "^cache: compiled (hits 0, misses $n,")
  waited=$(cat "$TMP"/killed.* | grep -c 'waits 1)')
  [ "$compiled" -eq 1 ] || fail "after the holder died $compiled waiters compiled, expected 1"
  [ "$waited" -ge 1 ] || fail "no waiter waited for the holder"
  [ "$(cat "$TMP"/killed.* | grep -cF "$want")" -eq 4 ] || fail "waiters' results: $(cat "$TMP"/killed.*)"
  echo "killed holder: the 4 waiters finished $((t1 - t0)) ms after SIGKILL (hold was 60 s), $waited waited"
}

# ------------------------------------------------- the bounded wait ---
bounded_wait() {
  local dir="$TMP/bounded" t0 t1
  (run_one "$dir" "$TMP/holder2" KJIT_TEST_CACHE_HOLD_MS=60000) &
  local holder=$!
  wait_for_lock "$dir" || { fail "the holder never took the lock"; kill -9 $holder; return; }
  t0=$(now_ms)
  (run_one "$dir" "$TMP/impatient" KJIT_CACHE_LOCK_WAIT=0.5) || fail "the waiter failed: $(cat "$TMP/impatient")"
  t1=$(now_ms)
  kill -9 $holder
  wait $holder 2>/dev/null
  grep -q "^cache: compiled (hits 0, misses $n, waits 1)" "$TMP/impatient" ||
    fail "the waiter did not wait then compile: $(cat "$TMP/impatient")"
  grep -qF "$want" "$TMP/impatient" || fail "the waiter's result: $(cat "$TMP/impatient")"
  [ $((t1 - t0)) -lt 20000 ] || fail "a 0.5 s bounded wait took $((t1 - t0)) ms"
  echo "bounded wait: KJIT_CACHE_LOCK_WAIT=0.5 gave up on a live holder and compiled, in $((t1 - t0)) ms"
}

many
killed_holder
bounded_wait
[ $failures -eq 0 ] || exit 1
exit 0
