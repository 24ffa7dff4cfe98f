#!/usr/bin/env bash
# elementwise.sh BUILD_DIR - the @vectorize benchmark: float32 a + b on 2^26
# elements under kjit (kjit_vectorize.c, C API on device arrays), Numba's
# @vectorize on device arrays (elementwise.py) and CUDA C
# (cuda/vec_add4.cu, nvcc -O3), against cudaMemcpy device to device of the
# same bytes; prints a markdown section (GB/s and % of the copy).
#
# BUILD_DIR holds libkjit.so (its include/ is used if present, else the
# repository's).  Parts that cannot run are left out of the table with a
# note.  Environment: N (timed calls, default 50), WARMUP (default 5), ARCH
# (default sm_90), NVCC, PYTHON, CC; VEC_ADD4 (a vec_add4 binary built
# already: run.sh passes its own) and LOG (a file to append the raw lines to).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
n=${N:-50}; warm=${WARMUP:-5}; arch=${ARCH:-sm_90}
nvcc=${NVCC:-nvcc}; py=${PYTHON:-python3}; cc=${CC:-cc}
command -v "$nvcc" >/dev/null 2>&1 || nvcc=/usr/local/cuda/bin/nvcc
inc="$build/include"; [ -f "$inc/kjit.h" ] || inc="$root/include"
work=$(mktemp -d "${TMPDIR:-/tmp}/kjit-ew-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$work/log.txt"; : >"$log"
export KJIT_CACHE_DIR="$work/kjit-cache"
note() { echo "- $*" >>"$work/notes"; echo "elementwise.sh: $*" >&2; }

va4=${VEC_ADD4:-}
if [ -z "$va4" ] || [ ! -x "$va4" ]; then
  va4="$work/vec_add4"
  "$nvcc" -O3 -arch="$arch" -o "$va4" "$here/cuda/vec_add4.cu" 2>"$work/nvcc.err" ||
    note "nvcc failed on vec_add4.cu: $(head -c 300 "$work/nvcc.err" | tr '\n' ' ')"
fi
[ -x "$va4" ] && { timeout 300 "$va4" -n "$n" -w "$warm" >>"$log" 2>"$work/va4.err" ||
  note "vec_add4 failed: $(tail -c 300 "$work/va4.err" | tr '\n' ' ')"; }
if "$cc" -std=c11 -O2 -I"$inc" "$here/kjit_vectorize.c" -L"$build" -lkjit \
     -Wl,-rpath,"$build" -o "$work/kjit_vectorize" 2>"$work/cc.err"; then
  timeout 300 "$work/kjit_vectorize" "$here/kernels/vectorize_add.py" -n "$n" -w "$warm" \
    >>"$log" 2>"$work/kjit.err" || note "kjit_vectorize failed: $(tail -c 300 "$work/kjit.err" | tr '\n' ' ')"
else
  note "kjit_vectorize.c does not build: $(head -c 300 "$work/cc.err" | tr '\n' ' ')"
fi
timeout 600 "$py" "$here/elementwise.py" numba -n "$n" -w "$warm" >>"$log" 2>"$work/numba.err" ||
  note "Numba part failed: $(tail -c 300 "$work/numba.err" | tr '\n' ' ')"

[ -n "${LOG:-}" ] && cat "$log" >>"$LOG"
"$py" "$here/elementwise.py" report "$log"
[ -s "$work/notes" ] && { echo; cat "$work/notes"; }
exit 0
