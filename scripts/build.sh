#!/usr/bin/env bash
# build.sh [CMAKE_ARGS...] - set up, configure and build kjit into ./build
# (BUILD_DIR overrides the folder; extra arguments go to cmake configure).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh

build_dir=${BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)
extra=()
if [ -n "${CUDAToolkit_ROOT:-}" ]; then
  extra+=("-DCUDAToolkit_ROOT=$CUDAToolkit_ROOT")
fi
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" \
  "${extra[@]}" "$@"
cmake --build "$build_dir" -j"$jobs"
