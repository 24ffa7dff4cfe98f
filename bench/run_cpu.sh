#!/usr/bin/env bash
# run_cpu.sh [BUILD_DIR] - the CPU target against C loops built with
# `gcc -O3 -fopenmp` on the same cores (bench/cpu_bench.c: vector add 2^24
# float32 and the tiled 512^2 matmul).  Builds cpu_bench against the build
# directory's libkjit_static.a and libLLVM, runs it and prints the ratios.
# Environment: RUNS (default 10), KJIT_CPU_THREADS / OMP_NUM_THREADS (both
# default to every online core; set them together to compare on fewer).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
runs=${RUNS:-10}
lib="$build/libkjit_static.a"
if [ ! -f "$lib" ]; then
  echo "run_cpu.sh: $lib not found; build first (cmake --build $build)" >&2
  exit 1
fi
llvm_config=$(command -v llvm-config-19 || echo /usr/lib/llvm-19/bin/llvm-config)
llvm_libdir=$("$llvm_config" --libdir)

bin=$(mktemp -d "${TMPDIR:-/tmp}/kjit-cpubench.XXXXXX")
trap 'rm -rf "$bin"' EXIT
gcc -std=gnu11 -O3 -march=native -fopenmp -D_GNU_SOURCE -I"$root" -I"$root/include" \
  "$here/cpu_bench.c" "$lib" -L"$llvm_libdir" -lLLVM-19 -Wl,-rpath,"$llvm_libdir" \
  $(pkg-config --libs libffi) -lm -ldl -lpthread -o "$bin/cpu_bench"

ncores=$(nproc)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-${KJIT_CPU_THREADS:-$ncores}}
export KJIT_CPU_THREADS=${KJIT_CPU_THREADS:-$OMP_NUM_THREADS}
export OMP_WAIT_POLICY=passive   # idle OpenMP threads must not spin while kjit runs
echo "== machine: $(uname -m), $ncores cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
echo "== gcc $(gcc -dumpfullversion), LLVM $("$llvm_config" --version), $runs runs (median)"
"$bin/cpu_bench" "$here" "$runs"
