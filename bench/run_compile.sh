#!/usr/bin/env bash
# run_compile.sh [BUILD_DIR] - compile-time and start-up benchmark of kjit.
#
# 1. In process: bench/compile_time.c (load + compile to PTX through the C
#    API; median and min of N runs after one warm-up, wall and CPU time)
#    for each bench/kernels/*.py.
# 2. Whole processes (compile_time --spawn: fresh process each run, CPU time
#    from wait4): `kjit ptx FILE --arch ARCH -o /dev/null` (LLVM start-up
#    and libdevice loading included), `kjit --version` (start-up alone) and
#    an empty C program (the floor of any process).
# On a loaded machine read the "CPU min" columns: other work only adds.
# Environment: RUNS (default 30), ARCH (default sm_80).
set -euo pipefail
# Measure compiles, not disk-cache hits (the cache serves kjit ptx too).
export KJIT_CACHE=0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
runs=${RUNS:-30}
arch=${ARCH:-sm_80}
kjit="$build/kjit"
if [ ! -x "$kjit" ]; then
  echo "run_compile.sh: $kjit not found; build first (bash scripts/build.sh)" >&2
  exit 1
fi
files=("$here"/kernels/vector_add.py "$here"/kernels/matmul.py "$here"/kernels/exp_sqrt.py)

bin=$(mktemp -d "${TMPDIR:-/tmp}/kjit-bench.XXXXXX")
trap 'rm -rf "$bin"' EXIT
"${CC:-cc}" -std=c11 -O2 -I"$root/include" \
  "$here/compile_time.c" -L"$build" -lkjit -Wl,-rpath,"$build" -o "$bin/compile_time"
printf 'int main(void) { return 0; }\n' >"$bin/empty.c"
"${CC:-cc}" -O2 "$bin/empty.c" -o "$bin/empty"

echo "== machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
"$bin/compile_time" -n "$runs" --arch "$arch" "${files[@]}"

echo
echo "whole processes ($runs runs after 1 warm-up; ms)"
printf '%-40s %10s %10s %10s %10s\n' "command" "wall med" "wall min" "CPU med" "CPU min"
for f in "${files[@]}"; do
  "$bin/compile_time" -n "$runs" --spawn "kjit ptx $(basename "$f")" \
    "$kjit" ptx "$f" --arch "$arch" -o /dev/null
done
"$bin/compile_time" -n "$runs" --spawn "kjit --version" "$kjit" --version
"$bin/compile_time" -n "$runs" --spawn "empty C program" "$bin/empty"
