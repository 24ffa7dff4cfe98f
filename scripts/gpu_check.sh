#!/usr/bin/env bash
# gpu_check.sh BUILD_DIR [LOG_DIR] - every GPU check in one command, for a
# machine with a GPU (and, where installed, Numba):
#   1. tests/gpu/run_gpu_suite.sh BUILD_DIR (exec kernels on the cuda target,
#      CUDA C kernels, timeouts, differential tests, the driver layer);
#   2. tests/numba/check_exec.py: the exec tests' expectations replayed under
#      Numba (skipped, never passed, where Numba is missing); Numba's verdict
#      on the public-code kernels (scripts/compat_public_numba.py over
#      BUILD_DIR/compat_public_bundle.tar.gz, where that bundle was carried);
#   3. the example programs (on the GPU; examples/*.py also under Numba,
#      their host code checking the results), the GPU-only tests of
#      the build (devices, CUDA C, warm loads, compile once across
#      processes), and on a machine of several GPUs the suite on each
#      further device and MPI with one rank per GPU (where mpirun exists);
#   4. kjit inside CUDA programs: scripts/gpu_embed.sh (memory, streams,
#      graphs, contexts, faults, examples/embed, their bench);
#   5. kjit aot on the GPU (scripts/gpu_aot.sh, without its bench): the AOT
#      examples and tests/exec kernels through their launchers against the JIT;
#   6. the launch tools: scripts/gpu_tools.sh (resources from the driver
#      against kjit ptx --stats, compute-sanitizer naming source lines).
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
  # (examples/print_indices.py expects printed lines, not array summaries:
  # its script runs under Numba with the other examples below)
  (cd "$root/tests" && python3 numba/check_exec.py exec/*.py \
     $(ls ../examples/*.py | grep -v print_indices)) >"$logs/numba_replay.log" 2>&1
  rc=$?
  grep -E 'MISMATCH|FAIL|passed' "$logs/numba_replay.log" | tail -40
  [ $rc -eq 0 ] || status=1
else
  echo "SKIP: Numba is not installed"
fi

echo "== Numba's choice among eager signatures beside kjit's (tests/numba/dispatch_probe.py)"
if python3 -c 'import numpy; numpy.row_stack = numpy.vstack; from numba import cuda' 2>/dev/null; then
  (cd "$root" && python3 tests/numba/dispatch_probe.py) >"$logs/dispatch_probe.log" 2>&1
  rc=$?
  grep -v '"agree": true' "$logs/dispatch_probe.log" | tail -20
  [ $rc -eq 0 ] || status=1
else
  echo "SKIP: Numba is not installed"
fi

echo "== Numba over the public-code kernels (scripts/compat_public_numba.py)"
# The bundle is written by `compat_public.py bundle SNAPSHOTS BUILD_DIR/compat_public_bundle.tar.gz`
# where the snapshots are; LOG_DIR/numba.tsv becomes tests/compat_public/numba.tsv.
bundle="$build/compat_public_bundle.tar.gz"
if [ ! -f "$bundle" ]; then
  echo "SKIP: no $bundle"
elif python3 -c 'import numpy; numpy.row_stack = numpy.vstack; from numba import cuda' 2>/dev/null; then
  python3 "$root/scripts/compat_public_numba.py" "$bundle" -o "$logs/numba.tsv" \
    >"$logs/compat_public_numba.log" 2>&1
  rc=$?
  tail -1 "$logs/compat_public_numba.log"
  [ $rc -eq 0 ] && echo "verdicts: $logs/numba.tsv (copy to tests/compat_public/numba.tsv)"
  [ $rc -eq 0 ] || status=1
else
  echo "SKIP: Numba is not installed"
fi

echo "== example programs (the GPU; examples/README.md's kjit commands ran in the gpu suite)"
for ex in "vector_add --target cuda" vadd_multi "dlpack_roundtrip --target cuda"; do
  read -r -a cmd <<<"$ex"
  [ -x "$build/tests/examples/${cmd[0]}" ] || continue
  (cd "$root" && "$build/tests/examples/${cmd[0]}" "${cmd[@]:1}") >"$logs/example_${cmd[0]}.log" 2>&1
  rc=$?
  echo "example $ex: exit $rc"; tail -12 "$logs/example_${cmd[0]}.log"
  [ $rc -eq 0 ] || status=1
done
# The example scripts under Numba itself: their host code checks the
# result against NumPy (an assert), so the exit status is the verdict.
if python3 -c 'import numpy; numpy.row_stack = numpy.vstack; from numba import cuda' 2>/dev/null; then
  for py in "$root"/examples/*.py; do
    name=$(basename "$py" .py)
    (cd "$root" && python3 -c 'import numpy, runpy, sys; numpy.row_stack = numpy.vstack
runpy.run_path(sys.argv[1], run_name="__main__")' "examples/$name.py") >"$logs/numba_$name.log" 2>&1
    rc=$?
    echo "numba examples/$name.py: exit $rc"; tail -8 "$logs/numba_$name.log"
    [ $rc -eq 0 ] || status=1
  done
else
  echo "SKIP: the example scripts under Numba (Numba is not installed)"
fi

echo "== GPU-only tests of the build (devices, the C API's device launches, DLPack CUDA tensors, warm loads, compile once; the suite ran test_cuda_c)"
run_step() { # NAME CMD...: runs CMD from the root, logs it, counts it
  local name=$1; shift
  (cd "$root" && "$@") >"$logs/$name.log" 2>&1
  local rc=$?
  echo "$name: exit $rc"; tail -3 "$logs/$name.log"
  [ $rc -eq 0 ] || status=1
}
[ -x "$build/tests/unit/test_devices" ] && run_step test_devices "$build/tests/unit/test_devices"
[ -x "$build/tests/unit/test_api_launch" ] && run_step test_api_launch "$build/tests/unit/test_api_launch"
[ -x "$build/tests/unit/test_dlpack" ] && run_step test_dlpack_gpu "$build/tests/unit/test_dlpack" --gpu
[ -f "$root/tests/trace/loads.sh" ] && run_step warm_loads bash tests/trace/loads.sh "$build/kjit" cuda
[ -f "$root/tests/cache/processes.sh" ] && run_step cache_processes bash tests/cache/processes.sh "$build/kjit" cuda
[ -f "$root/tests/device_alone/run.sh" ] && run_step device_alone bash tests/device_alone/run.sh "$build/kjit" --gpu

echo "== embedding in CUDA programs (scripts/gpu_embed.sh)"
bash "$root/scripts/gpu_embed.sh" "$build" "$logs/embed" >"$logs/embed.log" 2>&1
rc=$?
cat "$logs/embed.log" | grep -v '^|' | tail -60
[ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1

echo "== launch tools (scripts/gpu_tools.sh: resources, compute-sanitizer lines)"
bash "$root/scripts/gpu_tools.sh" "$build" "$logs/tools" >"$logs/tools.log" 2>&1
rc=$?
grep -E '^(gpu_tools|PASS|FAIL|SKIP)' "$logs/tools.log"
[ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1

# Every further device: the exec kernels on it (KJIT_GPU_SUITE_FILTER and
# KJIT_DIFFTEST_N apply), and MPI with one rank per device where mpirun is.
ndev=$("$build/kjit" info 2>/dev/null | grep -c '^  device [0-9]*:')
for ((d = 1; d < ndev; d++)); do
  echo "== gpu suite on device $d"
  KJIT_DIFFTEST_N=${KJIT_DIFFTEST_N:-60} bash "$root/tests/gpu/run_gpu_suite.sh" --device "$d" "$build" \
    >"$logs/gpu_suite_$d.log" 2>&1 || status=1
  grep -E '^(gpu suite|FAIL)' "$logs/gpu_suite_$d.log"
done
if [ "$ndev" -gt 1 ] && command -v mpirun >/dev/null 2>&1; then
  run_step mpi_gpu bash examples/mpi/run.sh -n "$ndev" --target cuda "$build"
elif [ "$ndev" -gt 1 ]; then
  echo "mpi_gpu: SKIP (no mpirun on this machine)"
fi
echo "== kjit aot on the GPU (scripts/gpu_aot.sh; AOT_BENCH=0)"
AOT_BENCH=0 bash "$root/scripts/gpu_aot.sh" "$build" "$logs/aot" >"$logs/gpu_aot.log" 2>&1
rc=$?
grep -E '^(FAIL|fail|tests/aot.sh|aot exec)' "$logs/gpu_aot.log" | tail -30
[ $rc -eq 0 ] || status=1
echo "gpu_check: logs in $logs; exit $status"
exit $status
