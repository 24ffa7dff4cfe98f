#!/usr/bin/env bash
# install_check.sh BUILD_DIR - the installed kjit works from a prefix the
# loader does not search, with no LD_LIBRARY_PATH (README, "Installing"):
#   - `cmake --install BUILD_DIR --prefix TMP --strip` (the build is reused,
#     nothing is compiled again but the example);
#   - the installed shared library and tool are stripped, the static archive
#     keeps its symbol index; the tool starts (a RUNPATH relative to $ORIGIN
#     where it loads libkjit.so);
#   - docs/api.md's example program built against the prefix with
#     pkg-config (PKG_CONFIG_PATH) and with CMake's find_package
#     (CMAKE_PREFIX_PATH), and linked with kjit-static.pc, each runs and
#     prints the PTX of examples/vector_add.py.
# Run from tests/, as ctest does.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: install_check.sh BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tests/testlib.sh
. "$root/tests/testlib.sh"
make_tmp
unset LD_LIBRARY_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH
failures=0
fail() { echo "install_check.sh: $*" >&2; failures=$((failures + 1)); }
for t in pkg-config cc readelf nm; do
  command -v $t >/dev/null || { echo "install_check.sh: skipped: no $t"; exit 77; }
done

# A sanitizer build (scripts/test_sanitize.sh) installs instrumented
# libraries: the example is built with the same -fsanitize flags.
san=$(sed -n 's/^CMAKE_C_FLAGS:STRING=.*\(-fsanitize=[^ ]*\).*/\1/p' "$build/CMakeCache.txt")
prefix=$TMP/prefix
cmake --install "$build" --prefix "$prefix" --strip >"$TMP/install.log" 2>&1 ||
  { cat "$TMP/install.log" >&2; echo "install_check.sh: cmake --install failed" >&2; exit 1; }
lib=$(dirname "$(find "$prefix" -name 'libkjit.so.*.*' | head -n 1)")
[ -d "$lib" ] || { echo "install_check.sh: no libkjit.so installed" >&2; exit 1; }
for f in "$lib"/libkjit.a "$lib"/pkgconfig/kjit.pc "$lib"/pkgconfig/kjit-static.pc \
         "$lib"/cmake/kjit/kjitConfig.cmake "$prefix"/include/kjit.h "$prefix"/bin/kjit \
         "$prefix"/share/man/man1/kjit.1 "$prefix"/share/bash-completion/completions/kjit; do
  [ -e "$f" ] || fail "not installed: ${f#"$prefix"/}"
done

# --strip: no symbol table left in the shared library and the tool; the
# archive is left whole (a stripped archive cannot be linked).
for f in "$lib"/libkjit.so.*.* "$prefix"/bin/kjit; do
  readelf -S "$f" >"$TMP/sections" 2>&1
  grep -q '\.symtab' "$TMP/sections" && fail "not stripped: ${f#"$prefix"/}"
done
nm "$lib"/libkjit.a >"$TMP/nm" 2>&1
grep -q ' T kjit_context_create$' "$TMP/nm" ||
  fail "libkjit.a has no kjit_context_create"

# The tool: starts from the prefix; if it loads libkjit.so it finds it
# through a RUNPATH relative to itself.
"$prefix"/bin/kjit --version >"$TMP/version" 2>&1 || { fail "installed kjit does not start"; cat "$TMP/version" >&2; }
readelf -d "$prefix"/bin/kjit >"$TMP/dynamic" 2>&1
if grep -q 'NEEDED.*libkjit' "$TMP/dynamic"; then
  grep -q 'R.*PATH.*\$ORIGIN' "$TMP/dynamic" || fail "kjit loads libkjit.so without an \$ORIGIN RUNPATH"
fi

# docs/api.md's example, as the page gives it.
sed -n '/^## Example/,/^```$/p' "$root/docs/api.md" | sed -n '/^```c$/,/^```$/p' | sed '1d;$d' >"$TMP/ptx_of.c"
grep -q 'kjit_program_emit' "$TMP/ptx_of.c" || { echo "install_check.sh: no example in docs/api.md" >&2; exit 1; }
check_run() {   # check_run WHAT BINARY: the example prints the kernel's PTX
  if ! (cd "$root/examples" && "$2" vector_add.py add_kernel sm_90) >"$TMP/out" 2>"$TMP/err"; then
    fail "$1: the example failed"; cat "$TMP/err" >&2; return
  fi
  grep -q '\.entry' "$TMP/out" || fail "$1: no PTX entry printed"
}

export PKG_CONFIG_PATH=$lib/pkgconfig
# shellcheck disable=SC2046
cc $san "$TMP/ptx_of.c" $(pkg-config --cflags --libs kjit) -o "$TMP/ptx_of" ||
  fail "pkg-config kjit: the example does not build"
[ -x "$TMP/ptx_of" ] && check_run "pkg-config kjit" "$TMP/ptx_of"
# shellcheck disable=SC2046
cc $san "$TMP/ptx_of.c" $(pkg-config --cflags --libs kjit-static) -o "$TMP/ptx_of_static" ||
  fail "pkg-config kjit-static: the example does not link"
if [ -x "$TMP/ptx_of_static" ]; then
  readelf -d "$TMP/ptx_of_static" >"$TMP/dynamic" 2>&1
  grep -q 'NEEDED.*libkjit' "$TMP/dynamic" && fail "kjit-static: still loads libkjit.so"
  check_run "pkg-config kjit-static" "$TMP/ptx_of_static"
fi
unset PKG_CONFIG_PATH

mkdir -p "$TMP/app"
cp "$TMP/ptx_of.c" "$TMP/app/"
cat >"$TMP/app/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(ptx_of LANGUAGES C)
find_package(kjit 0.1 REQUIRED)
add_executable(ptx_of ptx_of.c)
target_link_libraries(ptx_of PRIVATE kjit::kjit)
install(TARGETS ptx_of)
CMAKE
if cmake -S "$TMP/app" -B "$TMP/app/build" -DCMAKE_PREFIX_PATH="$prefix" \
     -DCMAKE_C_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" \
     -DCMAKE_INSTALL_PREFIX="$TMP/app/inst" >"$TMP/cmake.log" 2>&1 &&
   cmake --build "$TMP/app/build" >>"$TMP/cmake.log" 2>&1 &&
   cmake --install "$TMP/app/build" >>"$TMP/cmake.log" 2>&1; then
  check_run "find_package (build tree)" "$TMP/app/build/ptx_of"
  check_run "find_package (installed)" "$TMP/app/inst/bin/ptx_of"
else
  fail "find_package: the example does not build"; cat "$TMP/cmake.log" >&2
fi

[ $failures -eq 0 ] && echo "install_check.sh: ok"
[ $failures -eq 0 ]
