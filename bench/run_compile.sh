#!/usr/bin/env bash
# run_compile.sh [BUILD_DIR] - compile-time benchmark of kjit.
#
# 1. In process: bench/compile_time.c (load + compile to PTX through the C
#    API; median of N runs after one warm-up) for each bench/kernels/*.py.
# 2. Whole process: `kjit ptx FILE --arch sm_80 -o /dev/null`, median of N
#    runs (fresh process each time: LLVM init + libdevice load included).
# Environment: RUNS (default 20), ARCH (default sm_80).
set -euo pipefail
# Measure compiles, not disk-cache hits (the cache serves kjit ptx too).
export KJIT_CACHE=0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
runs=${RUNS:-20}
arch=${ARCH:-sm_80}
kjit="$build/kjit"
if [ ! -x "$kjit" ]; then
  echo "run_compile.sh: $kjit not found; build first (bash scripts/build.sh)" >&2
  exit 1
fi
files=("$here"/kernels/vector_add.py "$here"/kernels/matmul.py "$here"/kernels/exp_sqrt.py)

bin=$(mktemp -d "${TMPDIR:-/tmp}/kjit-bench.XXXXXX")
trap 'rm -rf "$bin"' EXIT
"${CC:-cc}" -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -I"$root/include" \
  "$here/compile_time.c" -L"$build" -lkjit -Wl,-rpath,"$build" -o "$bin/compile_time"

echo "== machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
"$bin/compile_time" -n "$runs" --arch "$arch" "${files[@]}"

echo
echo "whole process: kjit ptx FILE --arch $arch -o /dev/null ($runs runs)"
printf '%-28s %10s %10s\n' "kernel file" "median ms" "min ms"
for f in "${files[@]}"; do
  "$kjit" ptx "$f" --arch "$arch" -o /dev/null   # warm the page cache
  times=()
  for ((i = 0; i < runs; i++)); do
    t0=$(date +%s%N)
    "$kjit" ptx "$f" --arch "$arch" -o /dev/null
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  n=${#sorted[@]}
  if (( n % 2 )); then med=${sorted[n / 2]}; else med=$(( (sorted[n / 2 - 1] + sorted[n / 2]) / 2 )); fi
  awk -v n="$(basename "$f")" -v med="$med" -v min="${sorted[0]}" \
    'BEGIN { printf "%-28s %10.3f %10.3f\n", n, med / 1000, min / 1000 }'
done
