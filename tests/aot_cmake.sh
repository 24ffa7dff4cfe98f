#!/usr/bin/env bash
# aot_cmake.sh BUILD_DIR SOURCE_DIR - kjit_add_kernels() from a fresh install
# prefix: `cmake --install` kjit into an empty folder, configure
# tests/aot/cmake_project against it (find_package(kjit)), build it, run the
# program on the CPU fallback; then check the build's dependencies: a second
# build regenerates nothing, touching the kernel file or a module beside it
# (an import) regenerates the library.  Exits 77 without a C compiler.
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: aot_cmake.sh BUILD_DIR SOURCE_DIR" >&2; exit 2
fi
build=$1 src=$2
command -v cc >/dev/null || { echo "no C compiler: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; fail=1; }

if cmake --install "$build" --prefix "$work/prefix" >"$work/log" 2>&1 &&
   ls "$work"/prefix/lib*/cmake/kjit/kjitAot.cmake >/dev/null 2>&1; then
  ok "installed into a fresh prefix, kjitAot.cmake among the package's files"
else bad "install"; cat "$work/log"; exit 1; fi
mkdir -p "$work/proj"
cp "$src/tests/aot/cmake_project/CMakeLists.txt" "$work/proj/"
cp "$src/examples/vector_add.py" "$work/proj/kernels.py"
cp "$src/examples/aot/vector_add_main.c" "$work/proj/main.c"
echo "SCALE = 1" >"$work/proj/helper.py"
if cmake -S "$work/proj" -B "$work/pb" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >"$work/log" 2>&1 &&
   cmake --build "$work/pb" >"$work/log" 2>&1; then ok "the project configures and builds against the prefix"
else bad "the project does not build"; cat "$work/log"; exit 1; fi
out=$("$work/pb/vadd" cpu 2>&1)
if grep -q "on cpu: 1000000 elements, 0 wrong" <<<"$out"; then ok "its program runs: $out"
else bad "its program: $out"; fi
if ldd "$work/pb/vadd" | grep -qiE "kjit|llvm|libcuda"; then bad "the program links kjit, LLVM or libcuda"
else ok "the program links neither kjit, LLVM nor libcuda"; fi
regen() { cmake --build "$work/pb" 2>&1 | grep -c "kjit aot"; }
[ "$(regen)" = 0 ] && ok "a second build regenerates nothing" || bad "a second build regenerated"
sleep 1; touch "$work/proj/kernels.py"
[ "$(regen)" != 0 ] && ok "an edited kernel file regenerates" || bad "an edited kernel file did not regenerate"
sleep 1; touch "$work/proj/helper.py"
[ "$(regen)" != 0 ] && ok "an edited module beside it regenerates" || bad "an edited module did not regenerate"
exit $fail
