#!/usr/bin/env bash
# aot.sh KJIT_BIN SOURCE_DIR [TARGET] - `kjit aot` end to end, no GPU needed:
#   - the examples' libraries (examples/aot: vector add, tiled matmul) and
#     tests/aot/scalars.py's are generated twice and must be byte-identical;
#   - each generated source compiles with -Wall -Wextra -Werror as C11 and
#     as C++ (gcc, g++, and clang/clang++ where installed) and as a shared
#     library;
#   - the example programs link with neither libkjit nor LLVM nor libcuda
#     (readelf -d, ldd) and run on TARGET (cpu by default; cuda on a GPU
#     machine, scripts/gpu_aot.sh) with their results checked;
#   - tests/aot/check_main.c checks every launcher of scalars.py and the
#     launch checks' refusals, and examples/rel_diff.py's @vectorize
#     launcher from a second library linked into the same program;
#   - tests/aot/reduce_main.c checks the @cuda.reduce launchers of
#     tests/aot/reductions.py (dtypes, layouts, sizes on both paths);
#   - the vector add built as a shared library, loaded with dlopen and
#     called from several threads (tests/aot/dlopen_main.c);
#   - the GPU launchers' path against a stand-in libcuda.so.1
#     (tests/aot/stub_cuda.c, tests/aot/stub_main.c);
#   - errors: an unknown kernel, a bad --sig, a kernel the CPU run time
#     cannot run (E505) and a CUDA C file are refused with their messages.
# Exits 77 (skipped) when no C compiler is installed.
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: aot.sh KJIT_BIN SOURCE_DIR [cpu|cuda]" >&2; exit 2
fi
kjit=$1 src=$2 target=${3:-cpu}
srcabs=$(cd "$src" && pwd)
command -v cc >/dev/null && command -v c++ >/dev/null || { echo "no C/C++ compiler: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; fail=1; }

mm_sig="void(float32[:, ::1], float32[:, ::1], float32[:, ::1])"
gen() { # DIR: the three libraries into DIR
  mkdir -p "$1"
  "$kjit" aot "$src/examples/vector_add.py:add_kernel" --arch sm_80,sm_90 -o "$1" &&
    "$kjit" aot "$src/examples/matmul_shared.py:matmul_shared" --sig "$mm_sig" --arch sm_80,sm_90 -o "$1" &&
    "$kjit" aot "$src/tests/aot/scalars.py" --arch sm_80 -o "$1" &&
    "$kjit" aot "$src/examples/rel_diff.py:rel_diff" --arch sm_80 -o "$1" &&
    "$kjit" aot "$src/tests/aot/reductions.py:sum_reduce" --sig "float32[::1]" --sig "float64[:]" --sig "int32[::1]" \
      "$src/tests/aot/reductions.py:max_reduce" --sig "int64[::1]" "$src/tests/aot/reductions.py:fill" --arch sm_80 -o "$1" &&
    "$kjit" aot "$src/tests/aot/devfns.py:axpy" --sig "float32(float32, float32, float32)" "$src/tests/aot/devfns.py:wave" \
      "$src/tests/aot/devfns.py:clamp_index" --sig "int64(int64, int64)" "$src/tests/aot/devfns.py:mix" \
      --emit ptx --arch sm_80 -o "$1"
}

# ---- generation, reproducibility
if gen "$work/a" && gen "$work/b"; then ok "kjit aot generated five libraries and a PTX module"
else bad "kjit aot failed"; exit 1; fi
if diff -r "$work/a" "$work/b" >/dev/null; then ok "two runs give identical bytes"
else bad "two runs differ"; fi
if KJIT_CACHE=0 "$kjit" aot "$src/examples/vector_add.py:add_kernel" --arch sm_90,sm_80 -o "$work/b" &&
   cmp -s "$work/a/vector_add.c" "$work/b/vector_add.c"; then ok "identical without the disk cache, --arch in another order"
else bad "output depends on the cache or the --arch order"; fi
if "$kjit" aot "$src/examples/vector_add.py" --target cpu -o "$work/fresh" 2>/dev/null &&
   [ -f "$work/fresh/vector_add.h" ] && [ -f "$work/fresh/vector_add.c" ] && ! ls "$work/fresh"/*.tmp >/dev/null 2>&1; then
  ok "-o makes a missing folder and leaves no temporary file"
else bad "-o into a missing folder"; fi
if grep -qF -e "$(cd "$src" && pwd)" -e "$work" -e "$(date +%Y-%m-%d)" "$work/a"/*.[ch]; then
  bad "a path or a date in the output"
else ok "no path or date in the output"; fi

# ---- compiles: C11, C++, both compilers, shared
flags="-Wall -Wextra -Werror -O2"
for lib in vector_add matmul_shared scalars rel_diff reductions; do
  for cc in "cc -std=c11" "c++ -x c++ -std=c++11" ${CLANG:+"$CLANG -std=c11"} ${CLANGXX:+"$CLANGXX -x c++ -std=c++17"}; do
    if $cc $flags -I"$work/a" -c "$work/a/$lib.c" -o "$work/$lib.o" 2>"$work/err"; then ok "$lib.c compiles: $cc $flags"
    else bad "$lib.c does not compile with $cc"; cat "$work/err"; fi
  done
  if cc -std=c11 $flags -fPIC -shared "$work/a/$lib.c" -o "$work/lib$lib.so" 2>"$work/err"; then ok "$lib.c builds a shared library"
  else bad "$lib.c as a shared library"; cat "$work/err"; fi
done

# ---- device functions as PTX (--emit ptx): ptxas, and CUDA C linked with them
cuda=${CUDA_HOME:-/usr/local/cuda}
devarch=${AOT_DEV_ARCH:-sm_80}
if grep -qF 'extern "C" __device__ long long clamp_index(long long i, long long n);' "$work/a/devfns.h" &&
   grep -qF 'extern "C" __device__ double wave(double x, bool neg);' "$work/a/devfns.h" &&
   [ "$(grep -c '^\.visible \.func' "$work/a/devfns.ptx")" = 4 ] && ! grep -q '\.entry' "$work/a/devfns.ptx"; then
  ok "devfns.h declares the four functions, devfns.ptx defines them (no kernel)"
else bad "devfns.h / devfns.ptx"; cat "$work/a/devfns.h"; fi
if [ -x "$cuda/bin/ptxas" ]; then
  if "$cuda/bin/ptxas" -arch=sm_80 -c "$work/a/devfns.ptx" -o "$work/devfns.o" 2>"$work/err"; then
    ok "ptxas -c accepts devfns.ptx"
  else bad "ptxas -c devfns.ptx"; cat "$work/err"; fi
else echo "no ptxas: devfns.ptx not assembled"; fi
if [ -x "$cuda/bin/nvcc" ]; then
  nv="$cuda/bin/nvcc -arch=$devarch"
  if (cd "$work" && $nv -dc -I"$work/a" "$srcabs/tests/aot/dev_main.cu" -o dev_main.o && $nv -dc a/devfns.ptx -o devfns_ptx.o &&
      $nv dev_main.o devfns_ptx.o -o dev_main) >"$work/err" 2>&1; then
    ok "CUDA C (tests/aot/dev_main.cu) links with devfns.ptx: nvcc -dc, -dc, link"
    if [ "$target" = cuda ]; then
      run_dev=$("$work/dev_main" 2>&1); rc=$?
      if [ $rc -eq 0 ] && grep -q "^0 failures" <<<"$run_dev"; then ok "device functions from CUDA C on cuda: 0 failures"
      else bad "device functions from CUDA C on cuda (exit $rc)"; echo "$run_dev"; fi
    fi
  else bad "dev_main.cu with devfns.ptx does not build"; cat "$work/err"; fi
else echo "no nvcc: the CUDA C program over devfns.ptx not built"; fi

# ---- the programs: built from the generated files alone
build() { # NAME MAIN LIB...
  local name=$1 main=$2 libs=(); shift 2
  for l in "$@"; do libs+=("$work/a/$l.c"); done
  cc -std=c11 $flags -I"$work/a" "$main" "${libs[@]}" -ldl -lpthread -lm -o "$work/$name" 2>"$work/err" ||
    { bad "$name does not build"; cat "$work/err"; return 1; }
}
build vector_add "$src/examples/aot/vector_add_main.c" vector_add &&
  build matmul "$src/examples/aot/matmul_main.c" matmul_shared &&
  build check "$src/tests/aot/check_main.c" scalars rel_diff &&
  build reduce "$src/tests/aot/reduce_main.c" reductions
for p in vector_add matmul check reduce; do
  [ -x "$work/$p" ] || continue
  needed=$(readelf -d "$work/$p" | grep NEEDED)
  if grep -qiE "kjit|llvm|cuda|nvrtc|nvjitlink|ffi" <<<"$needed"; then bad "$p needs: $needed"
  else ok "$p: readelf -d NEEDED $(sed -E 's/.*\[(.*)\]/\1/' <<<"$needed" | tr '\n' ' ')"; fi
  if ldd "$work/$p" | grep -qiE "kjit|llvm|libcuda|nvrtc|nvjitlink|ffi"; then bad "$p: ldd shows kjit, LLVM or CUDA"
  else ok "$p: ldd shows no kjit, LLVM or CUDA"; fi
done
run() { # WHAT EXPECT-REGEX CMD...
  local what=$1 want=$2; shift 2
  out=$("$@" 2>&1); rc=$?
  if [ $rc -eq 0 ] && grep -qE "$want" <<<"$out"; then ok "$what: $(tail -1 <<<"$out")"
  else bad "$what (exit $rc)"; echo "$out"; fi
}
run "vector add on $target" "on $target: 1000000 elements, 0 wrong" "$work/vector_add" "$target"
run "vector add, a partial block" "on $target: 1001 elements, 0 wrong" "$work/vector_add" "$target" 1001
run "tiled matmul on $target" "on $target: 20x30 @ 30x25, 0 wrong" "$work/matmul" "$target"
run "tiled matmul, 100x70 @ 70x90" "on $target: 100x70 @ 70x90, 0 wrong" "$work/matmul" "$target" 100 70 90
run "launchers of scalars.py on $target" "^0 failures" "$work/check" "$target"
run "@cuda.reduce launchers of reductions.py on $target" "^0 failures" "$work/reduce" "$target"
if [ "$target" = cpu ] && ! [ -e /dev/nvidia0 ]; then
  run "no GPU: AUTO falls back to the CPU" "on cpu: 1000000 elements, 0 wrong" "$work/vector_add"
  out=$("$work/vector_add" cuda 2>&1); rc=$?
  if [ $rc -ne 0 ] && grep -q "no CUDA" <<<"$out"; then ok "no GPU: the CUDA target is refused: $out"
  else bad "no GPU: the CUDA target (exit $rc): $out"; fi
fi

# ---- a shared library loaded with dlopen: thread-local storage of a dynamic
# model (no STATIC_TLS flag, which an initial-exec model would set and which
# can keep dlopen from loading it), the calls through dlsym, per-thread messages
if cc -std=c11 $flags -fPIC -shared "$work/a/vector_add.c" -o "$work/libvector_add.so" -lpthread -lm 2>"$work/err" &&
   cc -std=c11 $flags "$src/tests/aot/dlopen_main.c" -ldl -lpthread -o "$work/dlopen_main" 2>>"$work/err"; then
  if readelf -d "$work/libvector_add.so" | grep -q STATIC_TLS; then bad "libvector_add.so needs static TLS"
  else ok "libvector_add.so: no static TLS (a dynamic TLS model)"; fi
  run "vector_add.so opened with dlopen, on $target, from 5 threads" "^0 failures" "$work/dlopen_main" \
    "$work/libvector_add.so" "$target"
else bad "the dlopen test does not build"; cat "$work/err"; fi

# ---- the GPU path without a GPU: tests/aot/stub_cuda.c stands in for
# libcuda.so.1 and records launches (tests/aot/stub_main.c)
mkdir -p "$work/stub" "$work/lo"
if "$kjit" aot "$src/bench/gpu/kernels/launch_overhead.py" --arch sm_90 --target cuda -o "$work/lo" &&
   cc -std=c11 $flags -fPIC -shared "$src/tests/aot/stub_cuda.c" -o "$work/stub/libcuda.so.1" 2>"$work/err" &&
   cc -std=c11 $flags -I"$work/lo" "$src/tests/aot/stub_main.c" "$work/lo/launch_overhead.c" -ldl -lpthread \
     -o "$work/stub_main" 2>>"$work/err"; then
  run "launchers through a stand-in driver (contexts, variants, checks, unload, threads)" "^0 failures" \
    env LD_LIBRARY_PATH="$work/stub" "$work/stub_main"
else bad "the stand-in driver test does not build"; cat "$work/err"; fi

# ---- errors, as clear as kjit ptx's
err() { # WHAT EXPECT-REGEX EXIT ARGS...
  local what=$1 want=$2 code=$3; shift 3
  out=$("$kjit" aot "$@" -o "$work/b" 2>&1); rc=$?
  if [ $rc -eq "$code" ] && grep -qE "$want" <<<"$out"; then ok "$what: $(head -1 <<<"$out")"
  else bad "$what (exit $rc, want $code)"; echo "$out"; fi
}
err "an unknown kernel" "E490.*no kernel named 'add_kernl'.*|did you mean 'add_kernel'" 1 "$src/examples/vector_add.py:add_kernl"
err "an unknown kernel inside a host function" "E490.*no kernel named 'run.plan'.*|FUNCTION.KERNEL, e.g. .*run.plain" 1 \
  "$src/tests/exec/host_nested.py:run.plan"
err "two kernels with one C name" "E505.*'run\(None, 3\).fill' and 'run\(None,3\).fill' would both be launched by host_nested_run_None_3_fill" 1 \
  "$src/tests/exec/host_nested.py:run(None, 3).fill" --sig "void(float32[:])" "$src/tests/exec/host_nested.py:run(None,3).fill" --sig "void(float32[:])"
err "a bad --sig" "E401.*unknown type 'flot32'" 1 "$src/examples/vector_add.py:add_kernel" --sig "void(flot32[:], float32[:], float32[:])"
err "warp intrinsics on the CPU" "E505.*warp_sum.*one fiber per thread" 1 "$src/tests/aot/warp.py"
err "a reduction without --sig" "E491.*reduction 'sum_reduce' needs the array type" 1 "$src/tests/aot/reductions.py:sum_reduce"
err "a reduction of a 2-d array" "reduces one 1-d array" 1 "$src/tests/aot/reductions.py:sum_reduce" --sig "float32[:, :]"
err "a reduction of complex numbers" "cannot reduce an array of complex64" 1 "$src/tests/aot/reductions.py:sum_reduce" --sig "complex64[:]"
err "--emit ltoir" "cannot write LTO-IR.*--emit ptx" 2 "$src/tests/aot/devfns.py:axpy" --emit ltoir
err "--emit ptx of a kernel" "E407.*'not_a_device_function' is not a device function" 2 "$src/tests/aot/devfns.py:not_a_device_function" --emit ptx
err "--emit ptx of two signatures" "E407.*'axpy' is named with two signatures; C has no overloads" 2 \
  "$src/tests/aot/devfns.py:axpy" --sig "float32(float32, float32, float32)" --sig "float64(float64, float64, float64)" --emit ptx
err "--emit ptx of an array" "cannot be compiled alone with array\(float32, 1d, A\)" 1 "$src/tests/aot/devfns.py:first" \
  --sig "float32(float32[:])" --emit ptx
err "--emit ptx of an unknown function" "no device function named 'axpi'.*|did you mean 'axpy'" 1 "$src/tests/aot/devfns.py:axpi" --emit ptx
err "--emit ptx for two architectures" "one PTX module for one architecture" 2 "$src/tests/aot/devfns.py:wave" --emit ptx --arch sm_80,sm_90
err "a CUDA C file" "CUDA C program" 2 "$src/examples/vector_add.cu"
err "a bad library name" "E407.*C identifier" 2 "$src/examples/vector_add.py" --name 9lives
err "an unknown --target" "cuda, cpu or all" 2 "$src/examples/vector_add.py" --target tpu
if "$kjit" aot "$src/tests/exec/host_nested.py:run.plain" --sig "void(float64[:])" \
     "$src/tests/exec/host_nested.py:run(None, 3).fill" --sig "void(float32[::1])" -o "$work/n" >/dev/null 2>"$work/err" &&
   grep -q "host_nested_status host_nested_run_plain(" "$work/n/host_nested.h" &&
   grep -q "host_nested_status host_nested_run_None_3_fill(" "$work/n/host_nested.h" &&
   cc -std=c11 $flags -c "$work/n/host_nested.c" -o "$work/n.o" 2>>"$work/err" &&
   c++ -x c++ -std=c++11 $flags -c "$work/n/host_nested.c" -o "$work/n.o" 2>>"$work/err"; then
  ok "kernels defined inside a host function (run.plain, 'run(None, 3).fill'): launchers that build as C and C++"
else bad "kernels defined inside a host function"; cat "$work/err"; fi
if "$kjit" aot "$src/tests/aot/warp.py" --target cuda -o "$work/b" >/dev/null 2>&1 &&
   cc -std=c11 $flags -c "$work/b/warp.c" -o "$work/warp.o"; then ok "warp intrinsics: --target cuda builds"
else bad "warp intrinsics with --target cuda"; fi
exit $fail
