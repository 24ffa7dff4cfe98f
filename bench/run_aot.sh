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
#   - the example's binary size (stripped, and the generated .c);
#   - last, the markdown table of docs/benchmarks.md ("Ahead of time") with
#     each figure against its target.  One command, well under 3 minutes:
#       bash bench/run_aot.sh build
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
  med=$(sed -n "$(( (runs + 1) / 2 ))p" "$work/sorted") min=$(head -1 "$work/sorted")
  printf '%-52s %9.4f %9.4f\n' "$name" "$med" "$min"
}
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $arch, $runs runs"
printf '%-52s %9s %9s\n' "fresh process" "median s" "min s"
measure "driver floor (init, context, 3 x 4 MiB copies)" "$work/driver_floor"
floor_med=$med floor_min=$min
measure "AOT vector add 1 Mi (cubin load, launch, check)" "$work/aot_vadd" cuda 1048576
aot_med=$med aot_min=$min
measure "AOT vector add 1 Mi on the CPU fallback" "$work/aot_vadd" cpu 1048576
cpu_med=$med
echo "== launch overhead (us per launch, best of 3 x 10000)"
"$work/raw_launch" "$work/lo.ptx" 10000 | grep OVERHEAD | tee "$work/raw.txt"
"$work/aot_launch" 10000 | tee "$work/aot.txt"
us() { sed -n "s/.*args=$2 us_per_launch=\([0-9.]*\).*/\1/p" "$1"; }
echo "== size"
strip -o "$work/aot_vadd.stripped" "$work/aot_vadd"
printf 'AOT vector add program: %d bytes (%d stripped); vector_add.c %d bytes; needs: %s\n' \
  "$(stat -c %s "$work/aot_vadd")" "$(stat -c %s "$work/aot_vadd.stripped")" "$(stat -c %s "$work/vector_add.c")" \
  "$(readelf -d "$work/aot_vadd" | grep NEEDED | sed -E 's/.*\[(.*)\]/\1/' | tr '\n' ' ')"

# ---- the table for docs/benchmarks.md
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t + 1e-9) ? "met" : "**missed**" }'; }
ms() { awk -v a="$1" 'BEGIN { printf "%.1f", a * 1000 }'; }
dms=$(awk -v a="$aot_med" -v f="$floor_med" 'BEGIN { printf "%.2f", (a - f) * 1000 }')
echo
echo "== for docs/benchmarks.md (\"Ahead of time\"): $(date -u '+%Y-%m-%d'), $(nvidia-smi --query-gpu=name,driver_version \
  --format=csv,noheader 2>/dev/null | head -1), $arch cubin, median of $runs fresh processes"
echo
echo "| what | kjit aot | reference | difference | target |"
echo "| --- | --- | --- | --- | --- |"
echo "| first result, fresh process (1 Mi float32 vector add) | $(ms "$aot_med") ms (min $(ms "$aot_min")) | driver floor $(ms "$floor_med") ms (min $(ms "$floor_min")) | +$dms ms | ≤ +5 ms: $(verdict "$dms" 5) |"
for k in 1 4; do
  r=$(us "$work/raw.txt" $k) a=$(us "$work/aot.txt" $k)
  d=$(awk -v a="$a" -v r="$r" 'BEGIN { printf "%.3f", a - r }')
  echo "| launch overhead, $k array argument$([ $k = 1 ] || echo s) | $a µs | raw cuLaunchKernel $r µs | +$d µs | ≤ +0.3 µs: $(verdict "$d" 0.3) |"
done
echo "| the same program on the CPU fallback (1 Mi) | $(ms "$cpu_med") ms | — | — | — |"
echo "| example program size | $(stat -c %s "$work/aot_vadd.stripped") bytes stripped | vector_add.c $(stat -c %s "$work/vector_add.c") bytes | — | — |"
