#!/usr/bin/env bash
# device_alone/run.sh KJIT_BIN [--gpu] - a device function compiled alone
# (kjit ptx FILE:FUNC, docs/cli.md "Device functions alone"):
#   - its PTX has a .visible .func of the Python name with C's parameter and
#     return types (bool as a byte, promoted to .b32 as nvcc does), and
#     ptxas assembles it as relocatable code;
#   - without a signature, or with an array in it, it is refused by name;
#   - CUDA C (caller.cu) links against it (nvcc -dc, -dlink -cubin), where
#     nvcc is installed;
#   - --gpu: the linked cubin runs (run_caller.c) and the values agree with
#     C's math (scripts/gpu_check.sh runs this; 77 without a GPU).
# Run from tests/, as ctest does.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: device_alone/run.sh KJIT_BIN [--gpu]" >&2; exit 2; }
kjit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/../testlib.sh"
make_tmp
cuda=${CUDA_HOME:-/usr/local/cuda}
failures=0
fail() { echo "device_alone/run.sh: $*" >&2; failures=$((failures + 1)); }
f=$here/funcs.py

"$kjit" ptx "$f:wave" --arch sm_90 -o "$TMP/wave.ptx" 2>"$TMP/err" || { fail "wave"; cat "$TMP/err" >&2; }
"$kjit" ptx "$f:axpy" --sig "float32(float32, float32, float32)" --arch sm_90 -o "$TMP/axpy.ptx" \
  2>"$TMP/err" || { fail "axpy"; cat "$TMP/err" >&2; }
tr -s ' \t\n' ' ' <"$TMP/wave.ptx" >"$TMP/wave.flat"
grep -qF '.visible .func (.param .b64 func_retval0) wave( .param .b64 wave_param_0, .param .b32 wave_param_1 )' \
  "$TMP/wave.flat" || fail "wave: no C-ABI entry double wave(double, bool)"
tr -s ' \t\n' ' ' <"$TMP/axpy.ptx" >"$TMP/axpy.flat"
grep -qF '.visible .func (.param .b32 func_retval0) axpy( .param .b32 axpy_param_0, .param .b32 axpy_param_1, .param .b32 axpy_param_2 )' \
  "$TMP/axpy.flat" || fail "axpy: no C-ABI entry float axpy(float, float, float)"
grep -q '\.entry' "$TMP/wave.ptx" && fail "wave: a device function became a kernel"

"$kjit" ptx "$f:sq" --arch sm_90 >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] || fail "sq without a signature: not exit 1"
grep -q "error\[E491\]: device function 'sq' has no signature to compile it alone for" "$TMP/err" ||
  { fail "sq without a signature: message"; cat "$TMP/err" >&2; }
"$kjit" ptx "$f:first" --sig "float32(float32[:])" --arch sm_90 >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] || fail "first (an array): not exit 1"
grep -q "device function 'first' cannot be compiled alone with array(float32, 1d, A) in its C ABI" "$TMP/err" ||
  { fail "first (an array): message"; cat "$TMP/err" >&2; }

if [ -x "$cuda/bin/ptxas" ]; then
  for n in wave axpy; do
    "$cuda/bin/ptxas" -arch=sm_90 -c "$TMP/$n.ptx" -o "$TMP/$n.o" 2>"$TMP/err" ||
      { fail "ptxas -c $n.ptx"; cat "$TMP/err" >&2; }
  done
else
  echo "device_alone/run.sh: no ptxas: assembling skipped"
fi
if [ -x "$cuda/bin/nvcc" ]; then
  "$cuda/bin/nvcc" -arch=sm_90 -dc "$here/caller.cu" -o "$TMP/caller.o" 2>"$TMP/err" &&
  "$cuda/bin/nvcc" -arch=sm_90 -dlink -cubin "$TMP/caller.o" "$TMP/wave.ptx" "$TMP/axpy.ptx" \
    -o "$TMP/linked.cubin" 2>>"$TMP/err" || { fail "caller.cu does not link with the PTX"; cat "$TMP/err" >&2; }
else
  echo "device_alone/run.sh: no nvcc: the CUDA C link skipped"
fi

if [ "${2:-}" = --gpu ] && [ $failures -eq 0 ]; then
  [ -f "$TMP/linked.cubin" ] || { echo "device_alone/run.sh: no linked cubin (nvcc)"; exit 77; }
  cc "$here/run_caller.c" -I"$cuda/include" -L"$cuda/lib64/stubs" -lcuda -lm -o "$TMP/run_caller" ||
    { fail "run_caller.c does not build"; exit 1; }
  "$TMP/run_caller" "$TMP/linked.cubin"
  rc=$?
  [ $rc -eq 127 ] && { echo "device_alone/run.sh: SKIP: no CUDA driver (libcuda.so.1)"; exit 77; }
  [ $rc -eq 77 ] && exit 77
  [ $rc -eq 0 ] || fail "the linked cubin's values on the GPU"
fi
[ $failures -eq 0 ] && echo "device_alone/run.sh: ok"
[ $failures -eq 0 ]
