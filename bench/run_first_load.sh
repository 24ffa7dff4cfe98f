#!/usr/bin/env bash
# run_first_load.sh [BUILD_DIR] - in-process time from a kernel file to a
# kernel loaded on the GPU (bench/gpu/first_load.c): cold (source -> PTX ->
# cubin -> module, empty disk cache; with NVIDIA's JIT cache off, then on)
# and warm (a new program, the module
# read from the disk cache), for bench/kernels/*.py.  Needs a CUDA device;
# without one it prints why it skipped.  Then, for the breakdown of the
# warm figure, the host's share of it: bench/compile_time.c on a filled
# disk cache (parse, type, key, the PTX read from the cache; no GPU) - the
# rest of "warm" is the cubin read, the driver's module load and the launch.
# Environment: RUNS (default 20).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
[ -f "$build/libkjit.so" ] || { echo "run_first_load.sh: $build/libkjit.so not found; build first" >&2; exit 1; }
bin=$(mktemp -d "${TMPDIR:-/tmp}/kjit-bench.XXXXXX")
trap 'rm -rf "$bin"' EXIT
"${CC:-cc}" -std=c11 -O2 -I"$root/include" "$here/gpu/first_load.c" -L"$build" -lkjit \
  -Wl,-rpath,"$build" -o "$bin/first_load"
"${CC:-cc}" -std=c11 -O2 -I"$root/include" "$here/compile_time.c" -L"$build" -lkjit \
  -Wl,-rpath,"$build" -o "$bin/compile_time"
unset KJIT_CACHE
kernels=("$here/kernels/vector_add.py:add_kernel" "$here/kernels/exp_sqrt.py:exp_sqrt"
         "$here/kernels/matmul.py:fast_matmul")
# nvJitLink keeps the cubins it builds in NVIDIA's own JIT cache (as the
# driver's PTX JIT does), so with that cache on every cold run after the
# first gets ptxas's work from it.  The cold figure is with it off.
echo "cold = NVIDIA's JIT cache off (CUDA_CACHE_DISABLE=1): ptxas runs in every cold run"
CUDA_CACHE_DISABLE=1 "$bin/first_load" -n "${RUNS:-20}" "${kernels[@]}"
echo
echo "the same with NVIDIA's JIT cache on (cold runs after the first get the cubin from it)"
"$bin/first_load" -n "${RUNS:-20}" "${kernels[@]}"
arch=$("$build/kjit" info 2>/dev/null | sed -n 's/.*\(sm_[0-9][0-9a]*\).*/\1/p' | head -1)
echo
echo "the host's share of warm: source -> PTX from a filled disk cache (${arch:-sm_80})"
KJIT_CACHE_DIR="$bin/cache" "$bin/compile_time" -n 200 --arch "${arch:-sm_80}" \
  "$here/kernels/vector_add.py" "$here/kernels/exp_sqrt.py" "$here/kernels/matmul.py"
