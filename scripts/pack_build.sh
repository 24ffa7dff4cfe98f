#!/usr/bin/env bash
# pack_build.sh [BUILD_DIR] [OUT_TGZ] - pack what the GPU checks need from a
# build (the kjit CLI, libkjit, the test and example programs) into one
# gzipped tarball, to be unpacked on a GPU machine that has no LLVM (libkjit
# links LLVM statically).  Defaults: build, out/kjit-build.tgz.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build}
out=${2:-out/kjit-build.tgz}
mkdir -p "$(dirname "$out")"
# Executables and shared objects only: objects, CMake state and logs stay.
find "$build" -path "$build/CMakeFiles" -prune -o \( -type f -perm -u+x -o -name '*.so*' \) -print \
  | grep -v '/CMakeFiles/' | tar -czf "$out" -T -
echo "pack_build: $out ($(du -h "$out" | cut -f1))"
