#!/usr/bin/env bash
# run_gpu_suite.sh [--device N] BUILD_DIR - every CPU-target execution test,
# on the GPU (device N: --device N, else $KJIT_DEVICE, else 0).
#
# Runs tests/exec/*.py through tests/exec.sh exactly as the CPU suite does
# (same "# RUN:" lines, same "# EXPECT:" comparisons), with `--target cpu`
# turned into `--target cuda`, and the examples' examples/*.py the same
# way (their "# RUN:" lines are examples/README.md's commands), then
# tests/gpu/link/*.py (kernels calling
# CUDA C through cuda.declare_device + link=, same format; GPU only, since
# the cpu target has no CUDA C), then the CUDA C kernels of examples/*.cu
# and tests/gpu/cuda_c/*.cu (whole __global__ kernels compiled by NVRTC; the
# same "# RUN:"/"# EXPECT:" lines, inside a C comment), then --timeout and a failing --debug
# assert, then the fp8 conversions of tests/fp8/fp8_cases.py against Numba's
# values, then the differential test of tests/difftest on the cuda target,
# then the driver-layer test (BUILD_DIR/tests/gpu/test_cuda --gpu), then
# CUDA C through the C API (BUILD_DIR/tests/unit/test_cuda_c --gpu), then raw
# pointers through the C API (BUILD_DIR/tests/unit/test_pointer_args --gpu).  Prints
# the date, the device and the counts.
#
# Exit: 0 all passed, 1 a failure, 77 skipped (libcuda.so.1 cannot be loaded
# or no device) - never "passed" without a GPU.  Needs nothing from the
# build machine but BUILD_DIR itself (libkjit.so is found through
# LD_LIBRARY_PATH, so a build carried to another path or machine works; a
# static-LLVM build needs no LLVM there).  KJIT_GPU_SUITE_FILTER=REGEX runs
# only matching test files.  The device is passed to every kjit run, the
# difftest and the driver-layer test through KJIT_DEVICE (docs/scale.md).
set -uo pipefail
if [ $# -ge 2 ] && [ "$1" = --device ]; then
  export KJIT_DEVICE=$2
  shift 2
fi
if [ $# -ne 1 ]; then
  echo "usage: run_gpu_suite.sh [--device N] BUILD_DIR" >&2; exit 2
fi
dev=${KJIT_DEVICE:-0}
case $dev in
  '' | *[!0-9]*) echo "run_gpu_suite.sh: --device/KJIT_DEVICE must be a number, not '$dev'" >&2
       exit 2 ;;
esac
export KJIT_DEVICE=$dev
build=$(cd "$1" && pwd) || exit 2
tests=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kjit="$build/kjit"
[ -x "$kjit" ] || { echo "run_gpu_suite.sh: no kjit in $build" >&2; exit 2; }
export LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
work=$(mktemp -d "${TMPDIR:-/tmp}/kjit-gpu.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache" NO_COLOR=1 LC_ALL=C

# ---- is there a GPU? -------------------------------------------------------
info=$("$kjit" info 2>&1)
if ! grep -q "device 0:" <<<"$info"; then
  echo "SKIP: no usable CUDA device"
  sed 's/^/  /' <<<"$info"
  exit 77
fi
if ! grep -q "device $dev:" <<<"$info"; then   # a wrong number is an error, not a skip
  echo "run_gpu_suite.sh: there is no CUDA device $dev on this machine:" >&2
  sed 's/^/  /' <<<"$info" >&2
  exit 1
fi
device=$(sed -n "s/^  device $dev: //p" <<<"$info")
echo "gpu suite: $(date -u '+%Y-%m-%d %H:%M UTC') on device $dev: $device"
grep '^CUDA driver' <<<"$info"

# ---- kjit wrapper: --target cpu -> --target cuda ---------------------------
cat >"$work/kjit" <<WRAP
#!/usr/bin/env bash
args=() prev=""
for a in "\$@"; do
  if [ "\$prev" = --target ] && [ "\$a" = cpu ]; then a=cuda; fi
  args+=("\$a"); prev=\$a
done
exec "$kjit" "\${args[@]}"
WRAP
chmod +x "$work/kjit"

passed=0 failed=0 skipped=0 failed_names=()
cd "$tests" || exit 2
for f in exec/*.py ../examples/*.py gpu/link/*.py ../examples/*.cu gpu/cuda_c/*.cu; do
  [ -e "$f" ] || continue
  if [ -n "${KJIT_GPU_SUITE_FILTER:-}" ] && ! [[ $f =~ $KJIT_GPU_SUITE_FILTER ]]; then
    continue
  fi
  if grep -q '^# CPU-ONLY:' "$f"; then   # a feature the cuda target refuses by name
    skipped=$((skipped + 1)); echo "SKIP $f ($(sed -n 's/^# CPU-ONLY: //p' "$f" | head -1))"
    continue
  fi
  if bash "$tests/exec.sh" "$work/kjit" "$f" >"$work/log" 2>&1; then
    passed=$((passed + 1)); echo "PASS $f"
  else
    failed=$((failed + 1)); failed_names+=("$f"); echo "FAIL $f"
    sed 's/^/    /' "$work/log"
  fi
done

# ---- --timeout: a hung kernel is stopped, then the device still works ------
hang="$tests/errors/run_timeout_hang.py"
start=$(date +%s)
"$kjit" run "$hang:spin" --target cuda --grid 2 --block 32 --timeout 1 \
  flag=zeros:int32:1 out=zeros:int64:64 >"$work/log" 2>&1
rc=$? took=$(( $(date +%s) - start ))
if [ $rc -eq 3 ] && [ $took -le 20 ] && grep -q "kernel 'spin' did not finish within 1 s" "$work/log" &&
   "$kjit" run "$hang:spin" --target cuda --grid 2 --block 32 --timeout 20 \
     flag=full:int32:1:1 out=zeros:int64:64 >>"$work/log" 2>&1; then
  passed=$((passed + 1)); echo "PASS kjit run --timeout (hung kernel stopped in ${took} s, next process ran)"
else
  failed=$((failed + 1)); failed_names+=("kjit run --timeout (exit $rc, ${took} s)")
  echo "FAIL kjit run --timeout (exit $rc, ${took} s)"
fi
sed 's/^/    /' "$work/log"

# ---- --debug: a failing assert prints its line, traps, and kjit exits 1 ----
# In its own process: the trap is a fault, sticky for the process.
"$kjit" run errors/assert_nomsg.py:k --target cuda --debug --grid 2 --block 4 \
  arange:i32:8 6 >"$work/log" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "errors/assert_nomsg.py:12: error: AssertionError: assert i < n" "$work/log" &&
   grep -q "kernel 'k'" "$work/log"; then
  passed=$((passed + 1)); echo "PASS kjit run --debug, failing assert (message printed, exit 1)"
else
  failed=$((failed + 1)); failed_names+=("kjit run --debug, failing assert (exit $rc)")
  echo "FAIL kjit run --debug, failing assert (exit $rc)"
fi
sed 's/^/    /' "$work/log"

# ---- fp8: the conversions of numba.cuda._internal.cuda_fp8 -------------------
# Every case of tests/fp8/fp8_cases.py on the cuda target, against the values
# recorded from Numba (on sm_89+ the satfinite float32 roundings are PTX's
# cvt.rn.satfinite, elsewhere the software conversions).  One item.
if [ -z "${KJIT_GPU_SUITE_FILTER:-}" ] || [[ fp8 =~ $KJIT_GPU_SUITE_FILTER ]]; then
  if command -v python3 >/dev/null 2>&1; then
    python3 "$tests/fp8/fp8_cases.py" --kjit "$kjit" --expect "$tests/fp8/fp8_expected.json" \
      --target cuda >"$work/log" 2>&1
    rc=$?
    counts=$(grep -E '^fp8 on the' "$work/log" | tail -1)
    if [ $rc -eq 0 ]; then
      passed=$((passed + 1)); echo "PASS tests/fp8 ($counts)"
    else
      failed=$((failed + 1)); failed_names+=("tests/fp8 ($counts)")
      echo "FAIL tests/fp8 ($counts)"
    fi
    sed 's/^/    /' "$work/log"
  else
    skipped=$((skipped + 1)); echo "SKIP tests/fp8 (python3 not found)"
  fi
fi

# ---- differential testing ---------------------------------------------------
# The random well-typed kernels of tests/difftest on the cuda target,
# compared with the CPython reference: seed 1 as ctest difftest/cpu, 300
# kernels (its 60 and more; KJIT_DIFFTEST_N changes the count).  One item;
# skipped (never passed) without python3.  Failures are kept in
# BUILD_DIR/difftest-failures-cuda/seed-S/ for replay.
if [ -z "${KJIT_GPU_SUITE_FILTER:-}" ] || [[ difftest =~ $KJIT_GPU_SUITE_FILTER ]]; then
  if command -v python3 >/dev/null 2>&1; then
    python3 "$tests/difftest/difftest.py" "$kjit" -n "${KJIT_DIFFTEST_N:-300}" --seed 1 \
      -j 4 --target cuda --keep "$build/difftest-failures-cuda" >"$work/log" 2>&1
    rc=$?
    counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/log" | tail -1)
    if [ $rc -eq 0 ]; then
      passed=$((passed + 1)); echo "PASS tests/difftest ($counts)"
    else
      failed=$((failed + 1)); failed_names+=("tests/difftest ($counts)")
      echo "FAIL tests/difftest ($counts)"
    fi
    sed 's/^/    /' "$work/log"
  else
    skipped=$((skipped + 1)); echo "SKIP tests/difftest (python3 not found)"
  fi
fi

# ---- the driver layer -------------------------------------------------------
# Each fault test runs in its own process: a fault can leave the device
# unusable for the rest of the process (a sticky CUDA error).
drv="$build/tests/gpu/test_cuda"
if [ -x "$drv" ]; then
  for mode in "--gpu" "--gpu-fault 1" "--gpu-fault 2"; do
    # shellcheck disable=SC2086
    "$drv" $mode >"$work/log" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
      passed=$((passed + 1)); echo "PASS tests/gpu/test_cuda $mode"
    else
      failed=$((failed + 1)); failed_names+=("test_cuda $mode (exit $rc)")
      echo "FAIL tests/gpu/test_cuda $mode (exit $rc)"
    fi
    sed 's/^/    /' "$work/log"
  done
fi

# ---- CUDA C through the C API -------------------------------------------------
# tests/unit/test_cuda_c --gpu: a .cu string compiled by NVRTC, its kernels
# (extern "C", a template instantiation, one overload) launched on the GPU.
capi="$build/tests/unit/test_cuda_c"
if [ -x "$capi" ] && { [ -z "${KJIT_GPU_SUITE_FILTER:-}" ] || [[ cuda_c =~ $KJIT_GPU_SUITE_FILTER ]]; }; then
  "$capi" --gpu >"$work/log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then
    passed=$((passed + 1)); echo "PASS tests/unit/test_cuda_c --gpu"
  else
    failed=$((failed + 1)); failed_names+=("test_cuda_c --gpu (exit $rc)")
    echo "FAIL tests/unit/test_cuda_c --gpu (exit $rc)"
  fi
  sed 's/^/    /' "$work/log"
fi

# ---- raw pointers through the C API ----------------------------------------
# tests/unit/test_pointer_args --gpu: types.CPointer kernels given device
# pointers (kjit_arg_pointer), a negative index before the pointer, and
# repeated launches through the fast path with different addresses.  It
# uses only kjit.h, so it is built here against the build's libkjit (the
# build tree's own binary may link a shared LLVM this machine lacks).
ptrs="$work/test_pointer_args"
if { [ -z "${KJIT_GPU_SUITE_FILTER:-}" ] || [[ pointer_args =~ $KJIT_GPU_SUITE_FILTER ]]; }; then
  inc="$build/include"; [ -f "$inc/kjit.h" ] || inc="$tests/../include"
  if cc -std=c11 -O1 -I"$inc" -I"$tests/unit" "$tests/unit/test_pointer_args.c" -L"$build" -lkjit \
       -Wl,-rpath,"$build" -o "$ptrs" >"$work/log" 2>&1; then
    "$ptrs" --gpu >>"$work/log" 2>&1
    rc=$?
  else
    rc=126
  fi
  if [ $rc -eq 0 ]; then
    passed=$((passed + 1)); echo "PASS tests/unit/test_pointer_args --gpu"
  else
    failed=$((failed + 1)); failed_names+=("test_pointer_args --gpu (exit $rc)")
    echo "FAIL tests/unit/test_pointer_args --gpu (exit $rc)"
  fi
  sed 's/^/    /' "$work/log"
fi

# ---- a fact about the driver, reported, not counted -------------------------
# Can a process get a working context back after an illegal address?  (kjit
# tries; docs/cuda.md, "Faults".)  Needs the toolkit's cuda.h to build.
cuda_inc=${CUDA_HOME:-/usr/local/cuda}/include
if [ -f "$cuda_inc/cuda.h" ] && cc -I"$cuda_inc" "$tests/gpu/fault_recovery_probe.c" \
     -L"${CUDA_HOME:-/usr/local/cuda}/lib64/stubs" -lcuda -o "$work/probe" 2>"$work/log"; then
  for way in 0 1 2 3; do
    "$work/probe" $way | sed 's/^/  probe: /'
  done
else
  echo "  probe: fault recovery probe not built (no cuda.h)"
fi

echo "gpu suite: $passed passed, $failed failed, $skipped skipped"
for n in "${failed_names[@]}"; do echo "  failed: $n"; done
[ $failed -eq 0 ] || exit 1
exit 0
