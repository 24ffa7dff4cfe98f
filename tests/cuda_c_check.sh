#!/usr/bin/env bash
# cuda_c_check.sh KJIT_BIN FILE.cu - `kjit check` compiles a CUDA C file
# with NVRTC and reports "FILE.cu: ok".  Exits 77 (skipped) when NVRTC
# cannot be loaded on this machine.
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: cuda_c_check.sh KJIT_BIN FILE.cu" >&2; exit 2
fi
out=$("$1" check "$2" 2>&1)
rc=$?
echo "$out"
if grep -q "NVRTC was not found" <<<"$out"; then
  exit 77
fi
[ $rc -eq 0 ] && grep -qx "$2: ok" <<<"$out"
