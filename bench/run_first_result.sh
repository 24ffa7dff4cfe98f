#!/usr/bin/env bash
# run_first_result.sh [BUILD_DIR] - time to first result of whole `kjit run`
# processes (fresh process each run, so start-up, generation, compile or
# cache, the kernel, the summaries and -o writing are all in).
#
# CPU target: the vector add on 1 Ki and on 16 Mi float32 elements
# (generated arange/full/zeros), then 16 Mi read from .npy files with -o
# writing the result.  With a CUDA device also: `kjit info` (the driver's
# start-up alone), a C program doing only what any such program must
# (bench/gpu/driver_floor.c: cuInit, the context, the three copies), then the 1 Mi vector add on the cuda target cold (empty
# cache, NVIDIA's JIT cache off; then on) and warm (fresh process, warm disk cache).
# Prints the median and min wall time and the median CPU time (user+sys)
# of RUNS runs (default 7).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
runs=${RUNS:-7}
kjit="$build/kjit"
[ -x "$kjit" ] || { echo "run_first_result.sh: $kjit not found; build first" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kjit-first.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"
vadd="$root/examples/vector_add.py:add_kernel"

# measure NAME CMD... : RUNS runs, one line of medians
measure() {
  local name=$1; shift
  : >"$work/times"
  for ((i = 0; i < runs; i++)); do
    local t0=$EPOCHREALTIME   # wall to the microsecond (time's %e has 10 ms steps)
    /usr/bin/time -f "%e %U %S" -o "$work/one" "$@" >/dev/null 2>"$work/err" ||
      { echo "$name: failed"; cat "$work/err"; return 1; }
    local t1=$EPOCHREALTIME
    echo "$(cat "$work/one") $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')" >>"$work/times"
  done
  local wall cpu
  wall=$(awk '{ print $4 }' "$work/times" | sort -n)
  cpu=$(awk '{ print $2 + $3 }' "$work/times" | sort -n)
  printf '%-44s %9.3f %9.3f %9.3f\n' "$name" "$(sed -n "$(( (runs + 1) / 2 ))p" <<<"$wall")" \
    "$(head -1 <<<"$wall")" "$(sed -n "$(( (runs + 1) / 2 ))p" <<<"$cpu")"
}

# paired NAME FLOOR_CMD -- CMD... : PAIRS runs of each, alternating (floor,
# then the case), so the machine's drift over the call hits both alike; one
# line with the case's median, the floor's median, and the median and min of
# the per-pair difference (case - floor) in ms.
paired() {
  local name=$1; shift
  local floor=()
  while [ "$1" != "--" ]; do floor+=("$1"); shift; done
  shift
  local pairs=${PAIRS:-21}
  : >"$work/pairs"
  for ((i = 0; i < pairs; i++)); do
    local t0=$EPOCHREALTIME
    "${floor[@]}" >/dev/null 2>"$work/err" || { echo "$name: floor failed"; cat "$work/err"; return 1; }
    local t1=$EPOCHREALTIME
    "$@" >/dev/null 2>"$work/err" || { echo "$name: failed"; cat "$work/err"; return 1; }
    local t2=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.6f %.6f %.6f\n", b - a, c - b, (c - b) - (b - a) }' >>"$work/pairs"
  done
  local mid=$(( (pairs + 1) / 2 ))
  printf '%-44s %9.3f %9.3f %+9.1f %+9.1f\n' "$name" \
    "$(awk '{ print $2 }' "$work/pairs" | sort -n | sed -n "${mid}p")" \
    "$(awk '{ print $1 }' "$work/pairs" | sort -n | sed -n "${mid}p")" \
    "$(awk '{ print $3 * 1000 }' "$work/pairs" | sort -n | sed -n "${mid}p")" \
    "$(awk '{ print $3 * 1000 }' "$work/pairs" | sort -n | head -1)"
}

grid() { echo "--grid $(( ($1 + 255) / 256 )) --block 256"; }
gen() { echo "x=arange:float32:$1 y=full:float32:$1:2 out=zeros:float32:$1"; }

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $runs runs"
printf '%-44s %9s %9s %9s\n' "case" "median s" "min s" "cpu s"
n1=1024 n16=16777216
# shellcheck disable=SC2046
"$kjit" run "$vadd" --target cpu $(grid $n1) $(gen $n1) >/dev/null   # warm the disk cache
measure "cpu: vector add 3 x 1 Ki (generated)" "$kjit" run "$vadd" --target cpu $(grid $n1) $(gen $n1)
measure "cpu: vector add 3 x 16 Mi (generated)" "$kjit" run "$vadd" --target cpu $(grid $n16) $(gen $n16)
"$kjit" run "$vadd" --target cpu $(grid $n16) $(gen $n16) -o x="$work/x.npy" -o y="$work/y.npy" >/dev/null
measure "cpu: 16 Mi from .npy, -o out.npy" "$kjit" run "$vadd" --target cpu $(grid $n16) \
  x="$work/x.npy" y="$work/y.npy" out=zeros:float32:$n16 -o out="$work/out.npy"

if "$kjit" info 2>/dev/null | grep -q "device 0:"; then
  n=1048576
  measure "cuda: kjit info (driver start-up)" "$kjit" info
  if "${CC:-cc}" -O2 -o "$work/driver_floor" "$here/gpu/driver_floor.c" -ldl 2>"$work/cc.err"; then
    measure "cuda: floor (init, context, 3 x 4 MiB copies)" "$work/driver_floor"
  else
    echo "(driver_floor.c does not build: $(head -c 200 "$work/cc.err"))"
  fi
  # Cold: kjit's cache emptied and NVIDIA's own JIT cache off, so ptxas
  # (through nvJitLink) runs as it does for a kernel never built before;
  # with that cache on, the second and later "cold" runs get the cubin of
  # the same PTX from it.
  measure "cuda: vector add 1 Mi, cold cache" env CUDA_CACHE_DISABLE=1 bash -c \
    'rm -rf "$XDG_CACHE_HOME"; exec "$@"' cold "$kjit" run "$vadd" --target cuda $(grid $n) $(gen $n)
  measure "cuda: vector add 1 Mi, cold, NVIDIA JIT cache on" bash -c \
    'rm -rf "$XDG_CACHE_HOME/kjit"; exec "$@"' cold "$kjit" run "$vadd" --target cuda $(grid $n) $(gen $n)
  "$kjit" run "$vadd" --target cuda $(grid $n) $(gen $n) >/dev/null
  measure "cuda: vector add 1 Mi, warm cache" "$kjit" run "$vadd" --target cuda $(grid $n) $(gen $n)
  if [ -x "$work/driver_floor" ]; then
    # The targets are differences from the floor, so measure them as such:
    # each case alternates with the floor program, PAIRS times.
    echo
    printf '%-44s %9s %9s %9s %9s\n' "paired with the floor (PAIRS=${PAIRS:-21})" "case s" "floor s" "+med ms" "+min ms"
    "${CC:-cc}" -O2 -o "$work/empty" -x c - <<<'int main(void) { return 0; }'
    paired "process start: kjit --version vs empty C" "$work/empty" -- "$kjit" --version
    paired "cuda: vector add 1 Mi, warm cache" "$work/driver_floor" -- \
      "$kjit" run "$vadd" --target cuda $(grid $n) $(gen $n)
    paired "cuda: vector add 1 Mi, cold cache" "$work/driver_floor" -- env CUDA_CACHE_DISABLE=1 bash -c \
      'rm -rf "$XDG_CACHE_HOME"; exec "$@"' cold "$kjit" run "$vadd" --target cuda $(grid $n) $(gen $n)
    # When the result exists: the floor's "copies done" and kjit's "kernel
    # and copies out done" (the result in host memory) and "closing the CUDA
    # context" (the summaries printed), in ms since each program was loaded
    # (add the process-start row above for the time since exec); a whole
    # process's wall time also holds the driver's teardown at exit.
    echo
    printf '%-44s %9s %9s %9s %9s\n' "result ready, ms since loaded (PAIRS=${PAIRS:-21})" "case ms" "floor ms" \
      "+med ms" "+min ms"
    ready() {   # ready NAME ENV... : PAIRS pairs of (floor -t, kjit run with KJIT_TRACE=1)
      local name=$1; shift
      : >"$work/ready"
      for ((i = 0; i < ${PAIRS:-21}; i++)); do
        "$work/driver_floor" -t 2>"$work/ft" >/dev/null || return 1
        env KJIT_TRACE=1 "$@" "$kjit" run "$vadd" --target cuda $(grid $n) $(gen $n) 2>"$work/kt" >/dev/null ||
          { cat "$work/kt"; return 1; }
        local f k p
        f=$(awk '/copies done/ { print $3 }' "$work/ft")
        k=$(awk '/kernel and copies out done/ { print $3 }' "$work/kt")
        p=$(awk '/closing the CUDA context/ { print $3 }' "$work/kt")
        echo "$f $k $p" >>"$work/ready"
      done
      local mid=$(( (${PAIRS:-21} + 1) / 2 ))
      for c in 2 3; do
        printf '%-44s %9.1f %9.1f %+9.1f %+9.1f\n' "$name: $([ $c = 2 ] && echo 'in host memory' || echo 'printed')" \
          "$(awk -v c=$c '{ print $c }' "$work/ready" | sort -n | sed -n "${mid}p")" \
          "$(awk '{ print $1 }' "$work/ready" | sort -n | sed -n "${mid}p")" \
          "$(awk -v c=$c '{ print $c - $1 }' "$work/ready" | sort -n | sed -n "${mid}p")" \
          "$(awk -v c=$c '{ print $c - $1 }' "$work/ready" | sort -n | head -1)"
      done
    }
    ready "warm"
    ready "cold" CUDA_CACHE_DISABLE=1 bash -c 'rm -rf "$XDG_CACHE_HOME"; exec "$@"' cold
    # Where a warm run's time goes: the trace's stamps (ms since libkjit loaded).
    echo
    echo "warm run, KJIT_TRACE=1 (then the floor's, -t):"
    KJIT_TRACE=1 "$kjit" run "$vadd" --target cuda $(grid $n) $(gen $n) 2>&1 >/dev/null | sed 's/^/  /'
    "$work/driver_floor" -t 2>&1 >/dev/null | sed 's/^/  /'
  fi
else
  echo "(no CUDA device: cuda rows skipped)"
fi
