#!/usr/bin/env bash
# run_aot.sh [BUILD_DIR] - kjit aot's numbers (docs/benchmarks.md, "Ahead of
# time"), on a machine with a GPU:
#   - fresh-process time to first result of the AOT vector add (1 Mi float32,
#     examples/aot/vector_add_main.c: driver loaded by dlopen, context,
#     two copies in, the cubin loaded, one launch, the copy out, the check)
#     paired with the driver floor (bench/gpu/driver_floor.c: the same
#     start-up and copies, no module, no launch): PAIRS pairs of fresh
#     processes, the order swapped every pair, the median of the per-pair
#     differences; target: AOT <= floor + 5 ms;
#   - launch overhead of the generated launchers paired with raw
#     cuLaunchKernel of the same CUfunction in one process
#     (bench/gpu/aot_launch.c: ROUNDS rounds alternating blocks of 10000
#     launches, the median of the per-round differences), 1 and 4 array
#     arguments; target: AOT <= raw + 0.3 us;
#   - the example's binary size (stripped, and the generated .c);
#   - last, the markdown table of docs/benchmarks.md ("Ahead of time") with
#     each figure against its target.  One command, well under 3 minutes:
#       bash bench/run_aot.sh build
# ARCH (default sm_90) is the cubin's architecture; PAIRS (default 21) the
# pairs of fresh processes; ROUNDS (default 20) the launch rounds.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
pairs=${PAIRS:-21}
rounds=${ROUNDS:-20}
arch=${ARCH:-sm_90}
kjit="$build/kjit"
work=$(mktemp -d "${TMPDIR:-/tmp}/kjit-aot-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cc=${CC:-cc}

"$kjit" aot "$root/examples/vector_add.py:add_kernel" --arch "$arch" -o "$work"
"$kjit" aot "$root/bench/gpu/kernels/launch_overhead.py" --arch "$arch" --target cuda -o "$work"
$cc -std=c11 -O2 -I"$work" "$root/examples/aot/vector_add_main.c" "$work/vector_add.c" -ldl -lpthread -lm \
  -o "$work/aot_vadd"
$cc -std=c11 -O2 -I"$work" "$here/gpu/aot_launch.c" -ldl -lpthread -o "$work/aot_launch"
$cc -O2 "$here/gpu/driver_floor.c" -ldl -o "$work/driver_floor"

# wall seconds of one fresh process of CMD... (its output dropped)
wall() {
  local t0=$EPOCHREALTIME
  "$@" >/dev/null 2>"$work/err" || { echo "failed: $* : $(cat "$work/err")" >&2; return 1; }
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.6f\n", b - a }'
}
# the median (and the min) of column C of file F
med() { awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '{ v[NR] = $1 } END { printf "%.6f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
low() { awk -v c="$2" '{ print $c }' "$1" | sort -g | head -1; }

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $arch, $pairs pairs of fresh processes, $rounds launch rounds"
: >"$work/pairs"
for ((i = 0; i < pairs; i++)); do   # floor, AOT, difference; the order swapped every pair
  if ((i % 2 == 0)); then f=$(wall "$work/driver_floor") a=$(wall "$work/aot_vadd" cuda 1048576)
  else a=$(wall "$work/aot_vadd" cuda 1048576) f=$(wall "$work/driver_floor"); fi
  echo "$f $a $(awk -v a="$a" -v f="$f" 'BEGIN { printf "%.6f", a - f }')" >>"$work/pairs"
done
floor_med=$(med "$work/pairs" 1) floor_min=$(low "$work/pairs" 1)
aot_med=$(med "$work/pairs" 2) aot_min=$(low "$work/pairs" 2)
diff_med=$(med "$work/pairs" 3) diff_min=$(low "$work/pairs" 3)
: >"$work/cpu"
for ((i = 0; i < 5; i++)); do wall "$work/aot_vadd" cpu 1048576 >>"$work/cpu"; done
cpu_med=$(med "$work/cpu" 1)
printf '%-52s %9s %9s\n' "fresh process" "median s" "min s"
printf '%-52s %9.4f %9.4f\n' "driver floor (init, context, 3 x 4 MiB copies)" "$floor_med" "$floor_min" \
  "AOT vector add 1 Mi (cubin load, launch, check)" "$aot_med" "$aot_min" \
  "difference per pair (AOT - floor)" "$diff_med" "$diff_min" \
  "AOT vector add 1 Mi on the CPU fallback" "$cpu_med" "$cpu_med"
echo "== launch overhead (us per launch, paired in one process: median of $rounds rounds x 10000)"
"$work/aot_launch" 10000 "$rounds" | tee "$work/launch.txt"
field() { sed -n "s/.*args=$1 .*$2=\([-+0-9.]*\).*/\1/p" "$work/launch.txt"; }
echo "== size"
strip -o "$work/aot_vadd.stripped" "$work/aot_vadd"
printf 'AOT vector add program: %d bytes (%d stripped); vector_add.c %d bytes; needs: %s\n' \
  "$(stat -c %s "$work/aot_vadd")" "$(stat -c %s "$work/aot_vadd.stripped")" "$(stat -c %s "$work/vector_add.c")" \
  "$(readelf -d "$work/aot_vadd" | grep NEEDED | sed -E 's/.*\[(.*)\]/\1/' | tr '\n' ' ')"

# ---- the table for docs/benchmarks.md
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t + 1e-9) ? "met" : "**missed**" }'; }
ms() { awk -v a="$1" 'BEGIN { printf "%.1f", a * 1000 }'; }
dms=$(awk -v d="$diff_med" 'BEGIN { printf "%+.2f", d * 1000 }')
echo
echo "== for docs/benchmarks.md (\"Ahead of time\"): $(date -u '+%Y-%m-%d'), $(nvidia-smi --query-gpu=name,driver_version \
  --format=csv,noheader 2>/dev/null | head -1), $arch cubin, $pairs pairs of fresh processes, $rounds launch rounds"
echo
echo "| what | kjit aot | reference | difference (median of pairs) | target |"
echo "| --- | --- | --- | --- | --- |"
echo "| first result, fresh process (1 Mi float32 vector add) | $(ms "$aot_med") ms (min $(ms "$aot_min")) | driver floor $(ms "$floor_med") ms (min $(ms "$floor_min")) | $dms ms (min $(awk -v d="$diff_min" 'BEGIN { printf "%+.2f", d * 1000 }')) | ≤ +5 ms: $(verdict "$dms" 5) |"
for k in 1 4; do
  a=$(field $k aot_us) r=$(field $k raw_us) d=$(field $k diff_us)
  echo "| launch overhead, $k array argument$([ $k = 1 ] || echo s) | $a µs | raw cuLaunchKernel $r µs | $d µs | ≤ +0.3 µs: $(verdict "$d" 0.3) |"
done
echo "| the same program on the CPU fallback (1 Mi) | $(ms "$cpu_med") ms | — | — | — |"
echo "| example program size | $(stat -c %s "$work/aot_vadd.stripped") bytes stripped | vector_add.c $(stat -c %s "$work/vector_add.c") bytes | — | — |"
