#!/usr/bin/env bash
# setup.sh - install what building and testing kjit needs (idempotent).
#
# Debian/Ubuntu packages are installed with apt-get only when missing (and
# apt-get update runs only then).  Works as root, or through sudo.  The CUDA
# toolkit is not installed here: it must exist at $CUDAToolkit_ROOT,
# $CUDA_HOME or /usr/local/cuda (ptxas and nvvm/libdevice/libdevice.10.bc).
# KJIT_SKIP_CUDA_CHECK=1 turns a missing toolkit into a warning.
set -euo pipefail

packages=(
  cmake build-essential pkg-config
  llvm-19-dev llvm-19-tools
  libzstd-dev zlib1g-dev libffi-dev libcmocka-dev
  python3-numpy
  clang-14 libclang-rt-14-dev
  valgrind
  libopenmpi-dev openmpi-bin
  libdlpack-dev   # tests/unit/test_dlpack_abi checks kjit_dlpack.h against its dlpack.h
)

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q ' installed$'
}

missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "setup: missing packages (${missing[*]}) and not root, no sudo" >&2
    exit 1
  fi
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi

cuda=${CUDAToolkit_ROOT:-${CUDA_HOME:-/usr/local/cuda}}
problems=()
[ -x "$cuda/bin/ptxas" ] || problems+=("$cuda/bin/ptxas")
[ -f "$cuda/nvvm/libdevice/libdevice.10.bc" ] || problems+=("$cuda/nvvm/libdevice/libdevice.10.bc")
if [ ${#problems[@]} -gt 0 ]; then
  {
    echo "setup: CUDA toolkit incomplete at $cuda; missing: ${problems[*]}"
    echo "setup: install the CUDA toolkit (ptxas + libdevice; no GPU or driver needed)"
    echo "setup: or point CUDAToolkit_ROOT (or CUDA_HOME) at it."
  } >&2
  if [ "${KJIT_SKIP_CUDA_CHECK:-0}" != 1 ]; then
    exit 1
  fi
  echo "setup: KJIT_SKIP_CUDA_CHECK=1: going on without it" >&2
else
  echo "setup: CUDA toolkit at $cuda"
fi
