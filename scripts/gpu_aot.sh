#!/usr/bin/env bash
# gpu_aot.sh BUILD_DIR [LOG_DIR] - kjit aot on a machine with a GPU (nvcc is
# not needed: the generated files are plain C, built with cc):
#   1. tests/aot.sh with the cuda target: the examples/aot programs (vector
#      add, tiled matmul) and tests/aot/check_main.c (every launcher of
#      tests/aot/scalars.py, the launch checks, a @vectorize launcher from a
#      second library) and tests/aot/reduce_main.c (the @cuda.reduce
#      launchers of tests/aot/reductions.py) built from the generated files
#      and run on the GPU, the vector add built as a shared library and
#      loaded with dlopen (tests/aot/dlopen_main.c), and tests/aot/dev_main.cu (CUDA C calling the
#      device functions of tests/aot/devfns.py that `kjit aot --emit ptx`
#      compiled; needs nvcc, else reported as not built);
#   2. tests/aot/exec_aot.py with the cuda target: every RUN line of
#      tests/exec and examples through its AOT launcher against `kjit run
#      --target cuda`, and the machine-readable list of what could not be
#      compiled ahead of time and why (LOG_DIR/aot_exec_cuda/aot_exec.json,
#      and LOG_DIR/aot_exec_cuda/aot_not_compiled.tsv: file, kernel, kind,
#      reason; ctest aot/exec_cpu writes the CPU's in the build tree,
#      build/tests/aot_exec_cpu/, and the two compare with diff);
#   3. (unless AOT_BENCH=0) bench/run_aot.sh: the AOT vector add's
#      fresh-process time to first result paired with the driver floor
#      (alternating processes, the median of the per-pair differences), and
#      the launchers' overhead paired with raw cuLaunchKernel of the same
#      CUfunction in one process (alternating rounds, the median of the
#      per-round differences), ending with the table for docs/benchmarks.md.
# Exit 0 only when steps 1 and 2 passed (the bench only reports).
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: gpu_aot.sh BUILD_DIR [LOG_DIR]" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "$1" && pwd) || exit 2
logs=${2:-$(mktemp -d "${TMPDIR:-/tmp}/kjit-gpu-aot.XXXXXX")}
mkdir -p "$logs"
status=0
if ! "$build/kjit" info 2>/dev/null | grep -q "device 0:"; then
  echo "gpu_aot: no CUDA device; nothing run (the CPU side is ctest -L aot)"
  exit 77
fi
arch=$("$build/kjit" info 2>/dev/null | grep -o 'sm_[0-9]*a\?' | head -1)
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), device 0: $("$build/kjit" info | grep -m1 'device 0:' | sed 's/^ *//')"

echo "== tests/aot.sh on the GPU"
AOT_DEV_ARCH=$arch bash "$root/tests/aot.sh" "$build/kjit" "$root" cuda >"$logs/aot_sh.log" 2>&1
rc=$?
grep -E '^(FAIL|ok .* on cuda|ok launchers|no nvcc)' "$logs/aot_sh.log"
echo "tests/aot.sh cuda: $(grep -c '^ok' "$logs/aot_sh.log") ok, $(grep -c '^FAIL' "$logs/aot_sh.log") failed (exit $rc)"
[ $rc -eq 0 ] || status=1

echo "== tests/exec and examples through their AOT launchers, against kjit run (cuda)"
(cd "$root/tests" && python3 aot/exec_aot.py "$build/kjit" cuda "$logs/aot_exec_cuda" exec/*.py ../examples/*.py) \
  >"$logs/aot_exec_cuda.log" 2>&1
rc=$?
grep -E '^fail' "$logs/aot_exec_cuda.log" | head -40
tail -1 "$logs/aot_exec_cuda.log"
if [ -f "$logs/aot_exec_cuda/aot_not_compiled.tsv" ]; then
  echo "not run through a launcher (kind: count): $(tail -n +2 "$logs/aot_exec_cuda/aot_not_compiled.tsv" | cut -f3 |
    sort | uniq -c | awk '{printf "%s%s: %s", NR > 1 ? ", " : "", $2, $1}')"
  cpu_tsv=$build/tests/aot_exec_cpu/aot_not_compiled.tsv
  if [ -f "$cpu_tsv" ]; then
    echo "the CPU's list (<) against the GPU's (>):"
    diff "$cpu_tsv" "$logs/aot_exec_cuda/aot_not_compiled.tsv" | grep '^[<>]' | head -40
  fi
fi
[ $rc -eq 0 ] || status=1

if [ "${AOT_BENCH:-1}" != 0 ]; then
  echo "== bench: time to first result and launch overhead (bench/run_aot.sh)"
  ARCH=$arch bash "$root/bench/run_aot.sh" "$build" 2>&1 | tee "$logs/bench_aot.log"
fi
echo "gpu_aot: logs in $logs; exit $status"
exit $status
