#!/usr/bin/env bash
# pack_build.sh [BUILD_DIR] [OUT_TAR] - pack what the GPU checks need from a
# build (the kjit CLI, libkjit, the test and example programs) into one
# xz-compressed tarball, to be unpacked on a GPU machine that has no LLVM
# (libkjit links LLVM statically): `tar -xJf OUT_TAR`.  The programs are
# stripped of symbols on the way (the build itself is left as it is).
# Defaults: build, out/kjit-build.tar.xz.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build}
out=${2:-out/kjit-build.tar.xz}
mkdir -p "$(dirname "$out")"
stage=$(mktemp -d "${TMPDIR:-/tmp}/kjit-pack.XXXXXX")
trap 'rm -rf "$stage"' EXIT
# Executables and shared objects only: objects, CMake state and logs stay.
find "$build" -path "$build/CMakeFiles" -prune -o \( -type f -perm -u+x -o -name '*.so*' \) -print |
  grep -v '/CMakeFiles/' | while read -r f; do
    mkdir -p "$stage/$(dirname "$f")"
    if [ -L "$f" ]; then cp -P "$f" "$stage/$f"; else cp "$f" "$stage/$f"; fi
    if [ -f "$stage/$f" ] && [ ! -L "$stage/$f" ] && head -c 4 "$f" | grep -q ELF; then
      strip --strip-unneeded "$stage/$f" 2>/dev/null || true
    fi
  done
tar -C "$stage" -cf - "$build" | xz -T0 -6 >"$out"
echo "pack_build: $out ($(du -h "$out" | cut -f1))"
