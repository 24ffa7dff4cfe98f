#!/usr/bin/env bash
# test_valgrind.sh - the embed API under valgrind's memcheck: a leak or a
# memory error in a host program using libkjit fails the run.
#
# Runs, each under `valgrind --leak-check=full --error-exitcode=1` with
# tests/valgrind.supp:
#   examples/vector_add.c       load a file, wrap arrays, launch, check
#   tests/stress/embed_cycles   a few create/compile/launch/destroy cycles,
#                               half of them a kernel with syncthreads (the
#                               executor's fibers), PTX through the disk cache
#   tests/stress/embed_threads  two threads sharing one context
#   tests/unit/test_embed       views, streams, events, prepare, stream calls
# on the cpu target.  Reuses BUILD_DIR (default build) when it holds the
# programs, else builds it with scripts/build.sh.  Logs go to
# BUILD_DIR/valgrind-logs/.  Extra arguments go to valgrind.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_dir=${BUILD_DIR:-build}
programs=("$build_dir/tests/examples/vector_add" "$build_dir/tests/stress/embed_cycles"
          "$build_dir/tests/stress/embed_threads" "$build_dir/tests/unit/test_embed")
need_build=0
for p in "${programs[@]}"; do
  [ -x "$p" ] || need_build=1
done
if [ "$need_build" = 1 ] || ! command -v valgrind >/dev/null 2>&1; then
  bash scripts/build.sh   # installs valgrind too (scripts/setup.sh)
else
  cmake --build "$build_dir" -j"$(nproc 2>/dev/null || echo 2)"
fi

logs="$build_dir/valgrind-logs"
mkdir -p "$logs"
export XDG_CACHE_HOME="$PWD/$build_dir/tests/cache"   # never the user's cache
vg=(valgrind --leak-check=full --error-exitcode=1 --num-callers=40
    --suppressions="$PWD/tests/valgrind.supp" "$@")

failed=0
run() {
  local name=$1; shift
  local start=$SECONDS
  if "${vg[@]}" --log-file="$logs/$name.log" "$@" > "$logs/$name.out" 2>&1; then
    echo "valgrind: $name: ok ($((SECONDS - start)) s)"
  else
    echo "valgrind: $name: FAILED ($((SECONDS - start)) s); see $logs/$name.log" >&2
    tail -n 40 "$logs/$name.log" >&2 || true
    failed=1
  fi
}

run vector_add "$build_dir/tests/examples/vector_add" examples/vector_add.py
run embed_cycles "$build_dir/tests/stress/embed_cycles" 4 --new-every 2 --bound-mib 1024
run embed_threads "$build_dir/tests/stress/embed_threads" --threads 2 --iterations 1
run test_embed "$build_dir/tests/unit/test_embed"
exit "$failed"
