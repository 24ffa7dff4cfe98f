#!/usr/bin/env bash
# test.sh [CTEST_ARGS...] - set up, build, and run every test with ctest.
# Tests needing a GPU report SKIPPED (not passed) on machines without one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/build.sh

build_dir=${BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)
ctest --test-dir "$build_dir" --output-on-failure -j"$jobs" "$@"
