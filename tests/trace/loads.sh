#!/usr/bin/env bash
# loads.sh KJIT [cuda] - what a fresh process loads, read from KJIT_TRACE=1.
#
# Without a second argument (CPU suite): `kjit ptx` of a plain kernel and of
# a libdevice kernel, each cold then warm in a fresh cache.  Cold: codegen,
# and libdevice read only for the math kernel; warm: the PTX from the
# cache, nothing else - no libdevice read, no NVRTC, no nvJitLink.
# With `cuda` (GPU suite): `kjit run --target cuda` of the vector add, cold
# then warm; the warm run must take the cubin from the cache and load
# neither NVRTC nor nvJitLink nor libdevice.  Exits 77 without a device.
set -uo pipefail
kjit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mode=${2:-cpu}
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2     # tests/
work=$(mktemp -d "${TMPDIR:-/tmp}/kjit-trace.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache" KJIT_TRACE=1
unset KJIT_CACHE KJIT_CACHE_DIR
fails=0

# expect LOG REGEX / refuse LOG REGEX
expect() { grep -Eq "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; sed 's/^/  /' "$1"; fails=$((fails + 1)); }; }
refuse() { ! grep -Eq "$2" "$1" || { echo "FAIL: $1 has /$2/"; sed 's/^/  /' "$1"; fails=$((fails + 1)); }; }

cat >"$work/math.py" <<'PY'
from numba import cuda
import math

@cuda.jit("void(float32[::1])")
def expsqrt(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = math.exp(a[i]) + math.sqrt(a[i])
PY

if [ "$mode" = cpu ]; then
  for run in cold warm; do
    "$kjit" ptx kernels/vector_add.py --arch sm_80 -o "$work/v.ptx" 2>"$work/plain.$run" || fails=$((fails + 1))
    "$kjit" ptx "$work/math.py" --arch sm_80 -o "$work/m.ptx" 2>"$work/math.$run" || fails=$((fails + 1))
  done
  expect "$work/plain.cold" "ptx of 'add_kernel' for sm_80: codegen"
  # each line is stamped with the milliseconds since libkjit loaded
  expect "$work/plain.cold" "^kjit: trace: +[0-9]+\.[0-9]{3} ms ptx of 'add_kernel'"
  expect "$work/plain.cold" "^kjit: trace: +[0-9]+\.[0-9]{3} ms codegen of 'add_kernel' done$"
  refuse "$work/plain.cold" "libdevice|NVRTC|nvJitLink"
  expect "$work/math.cold" "read libdevice"
  for f in plain math; do
    expect "$work/$f.warm" "from the cache"
    refuse "$work/$f.warm" "codegen|libdevice|NVRTC|nvJitLink|CUDA driver"
  done
else
  info=$("$kjit" info 2>&1)
  grep -q "device 0:" <<<"$info" || { echo "SKIP: no usable CUDA device"; exit 77; }
  args=(run kernels/vector_add.py:add_kernel --target cuda --grid 4096 --block 256
        x=arange:float32:1048576 y=full:float32:1048576:2 out=zeros:float32:1048576)
  for run in cold warm; do
    "$kjit" "${args[@]}" >"$work/out.$run" 2>"$work/cuda.$run" || fails=$((fails + 1))
  done
  expect "$work/cuda.cold" "cubin of 'add_kernel': not cached"
  # the context is made on its own thread beside the compile (cuda/cuda_driver.c)
  expect "$work/cuda.cold" "ms context of device [0-9]+ ready$"
  expect "$work/cuda.cold" "ms module of 'add_kernel' loaded$"
  if grep -q "(nvJitLink)" "$work/cuda.cold"; then
    expect "$work/cuda.warm" "cubin of 'add_kernel': from the cache"
  else                    # the driver's JIT built it: no cubin to cache
    echo "note: no nvJitLink on this machine; the warm run rebuilds through the driver's JIT"
  fi
  refuse "$work/cuda.warm" "codegen|libdevice|NVRTC|nvJitLink"
  cmp -s "$work/out.cold" "$work/out.warm" || { echo "FAIL: warm output differs"; fails=$((fails + 1)); }
fi
[ $fails -eq 0 ] && echo "trace/loads ($mode): ok"
exit $((fails > 0))
