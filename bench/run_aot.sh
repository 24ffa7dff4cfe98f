#!/usr/bin/env bash
# run_aot.sh [BUILD_DIR] - kjit aot's numbers (docs/benchmarks.md, "Ahead of
# time"), on a machine with a GPU:
#   - fresh-process time to first result of the AOT vector add (1 Mi float32,
#     examples/aot/vector_add_main.c: driver loaded by dlopen, context,
#     three copies, the cubin loaded, one launch, the check) beside the
#     driver floor (bench/gpu/driver_floor.c: the same start-up and copies,
#     no module, no launch); target: AOT <= floor + 5 ms;
#   - launch overhead of the generated launchers (bench/gpu/aot_launch.c)
#     beside raw cuLaunchKernel (bench/gpu/raw_launch.c) on the same tiny
#     kernels; target: AOT <= raw + 0.3 us;
#   - the example's binary size (stripped, and the generated .c).
# ARCH (default sm_90) is the cubin's architecture; RUNS (default 11) the
# runs of each fresh-process case (median and min of wall time).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
runs=${RUNS:-11}
arch=${ARCH:-sm_90}
kjit="$build/kjit"
work=$(mktemp -d "${TMPDIR:-/tmp}/kjit-aot-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cc=${CC:-cc}

"$kjit" aot "$root/examples/vector_add.py:add_kernel" --arch "$arch" -o "$work"
"$kjit" aot "$root/bench/gpu/kernels/launch_overhead.py" --arch "$arch" --target cuda -o "$work"
"$kjit" ptx "$root/bench/gpu/kernels/launch_overhead.py" --arch "$arch" -o "$work/lo.ptx"
$cc -std=c11 -O2 -I"$work" "$root/examples/aot/vector_add_main.c" "$work/vector_add.c" -ldl -lpthread -lm \
  -o "$work/aot_vadd"
$cc -std=c11 -O2 -I"$work" "$here/gpu/aot_launch.c" "$work/launch_overhead.c" -ldl -lpthread -o "$work/aot_launch"
$cc -O2 "$here/gpu/driver_floor.c" -ldl -o "$work/driver_floor"
$cc -O2 "$here/gpu/raw_launch.c" -ldl -o "$work/raw_launch"

# median and min wall seconds of RUNS fresh processes
measure() {
  local name=$1; shift
  : >"$work/times"
  for ((i = 0; i < runs; i++)); do
    local t0=$EPOCHREALTIME
    "$@" >/dev/null 2>"$work/err" || { echo "$name: failed: $(cat "$work/err")"; return 1; }
    local t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.5f\n", b - a }' >>"$work/times"
  done
  sort -n "$work/times" >"$work/sorted"
  printf '%-52s %9.4f %9.4f\n' "$name" "$(sed -n "$(( (runs + 1) / 2 ))p" "$work/sorted")" "$(head -1 "$work/sorted")"
}
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $arch, $runs runs"
printf '%-52s %9s %9s\n' "fresh process" "median s" "min s"
measure "driver floor (init, context, 3 x 4 MiB copies)" "$work/driver_floor"
measure "AOT vector add 1 Mi (cubin load, launch, check)" "$work/aot_vadd" cuda 1048576
measure "AOT vector add 1 Mi on the CPU fallback" "$work/aot_vadd" cpu 1048576
echo "== launch overhead (us per launch, best of 3 x 10000)"
"$work/raw_launch" "$work/lo.ptx" 10000 | grep OVERHEAD
"$work/aot_launch" 10000
echo "== size"
strip -o "$work/aot_vadd.stripped" "$work/aot_vadd"
printf 'AOT vector add program: %d bytes (%d stripped); vector_add.c %d bytes; needs: %s\n' \
  "$(stat -c %s "$work/aot_vadd")" "$(stat -c %s "$work/aot_vadd.stripped")" "$(stat -c %s "$work/vector_add.c")" \
  "$(readelf -d "$work/aot_vadd" | grep NEEDED | sed -E 's/.*\[(.*)\]/\1/' | tr '\n' ' ')"
