#!/usr/bin/env bash
# gpu_check.sh BUILD_DIR [LOG_DIR] - every GPU check in one command, for a
# machine with a GPU (and, where installed, Numba):
#   1. tests/gpu/run_gpu_suite.sh BUILD_DIR (exec kernels on the cuda target,
#      CUDA C kernels, timeouts, differential tests, the driver layer);
#   2. tests/numba/check_exec.py: the exec tests' expectations replayed under
#      Numba (skipped, never passed, where Numba is missing);
#   3. the example programs (examples/*.c), whose auto target is the GPU.
# Logs go to LOG_DIR (default: a temporary folder, printed).  Exit 0 only
# when every step that ran passed.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: gpu_check.sh BUILD_DIR [LOG_DIR]" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "$1" && pwd) || exit 2
logs=${2:-$(mktemp -d "${TMPDIR:-/tmp}/kjit-gpu-check.XXXXXX")}
mkdir -p "$logs"
export LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
status=0

echo "== gpu suite"
bash "$root/tests/gpu/run_gpu_suite.sh" "$build" >"$logs/gpu_suite.log" 2>&1
rc=$?
grep -E '^(gpu suite|FAIL|SKIP|CUDA driver)' "$logs/gpu_suite.log"
[ $rc -eq 0 ] || status=1

echo "== numba replay of tests/exec"
if python3 -c 'import numpy; numpy.row_stack = numpy.vstack; from numba import cuda' 2>/dev/null; then
  (cd "$root/tests" && python3 numba/check_exec.py exec/*.py) >"$logs/numba_replay.log" 2>&1
  rc=$?
  grep -E 'MISMATCH|FAIL|passed' "$logs/numba_replay.log" | tail -40
  [ $rc -eq 0 ] || status=1
else
  echo "SKIP: Numba is not installed"
fi

echo "== example programs (auto target: the GPU)"
for ex in "$build"/tests/examples/*; do
  [ -x "$ex" ] || continue
  (cd "$root" && "$ex") >"$logs/example_$(basename "$ex").log" 2>&1
  rc=$?
  echo "example $(basename "$ex"): exit $rc"; tail -2 "$logs/example_$(basename "$ex").log"
  [ $rc -eq 0 ] || status=1
done
echo "gpu_check: logs in $logs; exit $status"
exit $status
