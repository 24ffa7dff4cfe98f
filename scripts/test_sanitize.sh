#!/usr/bin/env bash
# test_sanitize.sh - the whole test suite built with AddressSanitizer and
# UndefinedBehaviorSanitizer (leak checking on) and run with ctest.
# A sanitizer report fails its test.  Uses its own build directory
# (BUILD_DIR, default build-asan) and shared LLVM for a quick link.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh

build_dir=${BUILD_DIR:-build-asan}
jobs=$(nproc 2>/dev/null || echo 2)
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug -DKJIT_LLVM_SHARED=ON -DKJIT_BUILD_ID=asan \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined"
cmake --build "$build_dir" -j"$jobs"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# use_tls=0: LeakSanitizer's tracer, stopping the threads to scan them at
# exit, reads the dynamic TLS blocks glibc 2.36 keeps for dlopen'd libraries
# and, in a process that loaded NVIDIA's NVRTC and nvJitLink, crashed on a
# bogus one ("DTLS 8 at 0x16fc..", "Tracer caught signal 11") depending only
# on the size of the environment (a longer XDG_CACHE_HOME path triggered it).
# Not scanning TLS can only report more leaks, never fewer (tests/lsan.supp
# names the glibc blocks that then look unreferenced).  print_suppressions=0
# keeps the golden tests' standard error free of LSan's list of the
# suppressions it used.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:use_tls=0:print_suppressions=0"
# The GPU label needs a device (and the CUDA driver is not built for ASan).
ctest --test-dir "$build_dir" --output-on-failure -j"$jobs" -LE gpu "$@"
