#!/usr/bin/env bash
# aot_launch_instructions.sh [BUILD_DIR] - instructions per launch of kjit
# aot's generated launchers, counted without a GPU: bench/gpu/aot_launch.c
# against tests/aot/stub_cuda.c (a stand-in libcuda.so.1 that counts
# launches and runs nothing) under valgrind's callgrind.  Each launcher is
# counted inclusively (its driver calls included) at two launch counts; the
# difference divided by the extra launches leaves out the one-time module
# load.  The stand-in's own share (cuCtxGetCurrent and cuLaunchKernel,
# counted the same way) is printed beside it, so "launcher" is what the
# generated code adds to the driver's two calls.  docs/benchmarks.md
# ("Ahead of time") records the figures.
#   bash bench/aot_launch_instructions.sh build
# CC (default cc) and CFLAGS (default -O2) build the program.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
command -v valgrind >/dev/null || { echo "aot_launch_instructions: valgrind is not installed"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kjit-aot-instr.XXXXXX")
trap 'rm -rf "$work"' EXIT
cc=${CC:-cc}
mkdir -p "$work/stub"
"$build/kjit" aot "$root/bench/gpu/kernels/launch_overhead.py" --arch sm_90 --target cuda -o "$work"
$cc -O2 -fPIC -shared "$root/tests/aot/stub_cuda.c" -o "$work/stub/libcuda.so.1"
# shellcheck disable=SC2086
$cc -std=c11 ${CFLAGS:--O2} -I"$work" "$here/gpu/aot_launch.c" -ldl -lpthread -o "$work/aot_launch"

# inclusive instructions of FUNCTION in callgrind output FILE
incl() { callgrind_annotate --inclusive=yes "$1" 2>/dev/null | awk -v f="$2" '$0 ~ ":" f " " { gsub(",", "", $1); print $1; exit }'; }
count() { # LAUNCHES: callgrind output of 2 rounds
  LD_LIBRARY_PATH="$work/stub" valgrind --tool=callgrind --callgrind-out-file="$work/cg.$1" \
    --toggle-collect=launch_overhead_tiny1 --toggle-collect=launch_overhead_tiny4 \
    "$work/aot_launch" "$1" 2 >/dev/null 2>&1
}
count 1000
count 3000
extra=$(( 2 * (3000 - 1000) ))
per() { awk -v a="$1" -v b="$2" -v n="$extra" 'BEGIN { printf "%.1f", (b - a) / n }'; }
echo "instructions per launch ($cc ${CFLAGS:--O2}, stand-in driver):"
for k in 1 4; do
  total=$(per "$(incl "$work/cg.1000" "launch_overhead_tiny$k")" "$(incl "$work/cg.3000" "launch_overhead_tiny$k")")
  drv=0
  for f in cuLaunchKernel cuCtxGetCurrent; do
    # the stand-in's calls are shared by both kernels: split by the launches
    a=$(incl "$work/cg.1000" $f) b=$(incl "$work/cg.3000" $f)
    drv=$(awk -v d="$drv" -v a="${a:-0}" -v b="${b:-0}" -v n="$extra" 'BEGIN { printf "%.1f", d + (b - a) / (2 * n) }')
  done
  launcher=$(awk -v t="$total" -v d="$drv" 'BEGIN { printf "%.1f", t - d }')
  echo "INSTR args=$k total=$total driver_stub=$drv launcher=$launcher"
done
