#!/usr/bin/env bash
# run_reduce.sh BUILD_DIR - the @cuda.reduce benchmark: the float32 sum of
# 2^26 elements as kjit_reduce (C API), as Numba's @cuda.reduce and as the
# same two-pass algorithm in CUDA C (nvcc -O3), plus kjit's generated
# kernels timed alone from their PTX; prints one markdown section (and
# appends it to $OUT/benchmarks.md when OUT is set).  A part that cannot
# run is reported and the rest goes on.
# Environment: N (timed reductions, default 50), WARMUP (default 5), ARCH
# (default sm_90), NVCC, PYTHON, CC.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
n=${N:-50} warm=${WARMUP:-5} arch=${ARCH:-sm_90}
nvcc=${NVCC:-nvcc} py=${PYTHON:-python3} cc=${CC:-cc}
[ -x "$(command -v "$nvcc")" ] || nvcc=/usr/local/cuda/bin/nvcc
inc="$build/include"; [ -f "$inc/kjit.h" ] || inc="$root/include"
work=$(mktemp -d "${TMPDIR:-/tmp}/kjit-reduce-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$work/log.txt"; : >"$log"
export KJIT_CACHE_DIR="$work/kjit-cache"
export LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
note() { echo "ERROR impl=run_reduce.sh $*" >>"$log"; echo "run_reduce.sh: $*" >&2; }

if "$nvcc" -O3 -arch="$arch" -o "$work/cuda_reduce" "$here/cuda/cuda_reduce.cu" -lcuda 2>"$work/nvcc.err"; then
  "$work/cuda_reduce" -n "$n" -w "$warm" >>"$log" 2>>"$work/run.err" || note "cuda_reduce failed"
  if "$build/kjit" ptx "$here/kernels/cuda_reduce.py:sum_reduce" --sig "float32[::1]" --arch "$arch" \
       -o "$work/r.ptx" 2>>"$work/run.err"; then
    entry=$(sed -n 's/^\.visible \.entry \([A-Za-z0-9_]*\)(.*/\1/p' "$work/r.ptx" | head -1)
    "$work/cuda_reduce" -n "$n" -w "$warm" --ptx "$work/r.ptx" --entry "$entry" >>"$log" 2>>"$work/run.err" ||
      note "cuda_reduce --ptx failed"
  else
    note "kjit ptx cuda_reduce.py:sum_reduce failed: $(head -c 300 "$work/run.err" | tr '\n' ' ')"
  fi
else
  note "nvcc failed on cuda_reduce.cu: $(head -c 300 "$work/nvcc.err" | tr '\n' ' ')"
fi
if "$cc" -std=c11 -O2 -I"$inc" "$here/kjit_bench_reduce.c" -L"$build" -lkjit -Wl,-rpath,"$build" \
     -o "$work/kjit_bench_reduce" 2>"$work/cc.err"; then
  "$work/kjit_bench_reduce" --kernels "$here/kernels" -n "$n" -w "$warm" >>"$log" 2>>"$work/run.err" ||
    note "kjit_bench_reduce failed"
else
  note "kjit_bench_reduce.c does not build: $(head -c 300 "$work/cc.err" | tr '\n' ' ')"
fi
timeout 900 "$py" "$here/numba_bench_reduce.py" -n "$n" -w "$warm" >>"$log" 2>"$work/numba.err" ||
  note "numba_bench_reduce.py failed: $(tail -c 300 "$work/numba.err" | tr '\n' ' ')"

"$py" "$here/report_reduce.py" "$log" >"$work/reduce.md" || { cat "$log"; exit 1; }
cat "$work/reduce.md"
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT"
  { echo; cat "$work/reduce.md"; } >>"$OUT/benchmarks.md"
  cp "$log" "$OUT/reduce-log.txt"
fi
exit 0
