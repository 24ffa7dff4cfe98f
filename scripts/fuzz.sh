#!/usr/bin/env bash
# fuzz.sh [SECONDS_PER_TARGET] - build the libFuzzer targets (tests/fuzz/
# fuzz_*.c) with clang-14, ASan and UBSan into build-fuzz (BUILD_DIR
# overrides) and run each for SECONDS (default 60) on its corpus
# tests/fuzz/corpus/NAME.  New interesting inputs go to a scratch folder;
# KJIT_FUZZ_MERGE=1 rewrites the committed corpus as the -merge=1
# minimization of old corpus + new inputs (one input per new edge).  Crashes, leaks, timeouts (> 1 s) and
# sanitizer reports are saved in tests/fuzz/crashes/ and fail the script.
# FUZZ_TARGETS="parse sig" limits the run to those targets.
# KJIT_FUZZ_RUNS=N runs N inputs per target with a fixed seed instead of a
# time budget, and allows 10 s per input: a deterministic run for CI, where
# a random new finding or a slow machine must not decide a submission.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

secs=${1:-60}
build_dir=${BUILD_DIR:-build-fuzz}
targets=${FUZZ_TARGETS:-"parse sig npy lower compile cuc cache_entry npy_write"}
jobs=$(nproc 2>/dev/null || echo 2)

bash scripts/setup.sh
if ! command -v clang-14 >/dev/null 2>&1; then
  echo "fuzz: clang-14 not found (bash scripts/setup.sh installs it)" >&2
  exit 1
fi

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CC=clang-14 cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug \
  -DKJIT_LLVM_SHARED=ON -DKJIT_FUZZ=ON -DKJIT_BUILD_ID=fuzz \
  -DCMAKE_C_FLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $san" \
  -DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_SHARED_LINKER_FLAGS="$san" >/dev/null
build_targets=()
for t in $targets; do build_targets+=(--target "fuzz_$t"); done
cmake --build "$build_dir" -j"$jobs" "${build_targets[@]}"

export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp"
mkdir -p tests/fuzz/crashes "$build_dir/fuzz-logs"
failed=()
for t in $targets; do
  corpus=tests/fuzz/corpus/$t
  scratch=$build_dir/fuzz-new/$t
  log=$build_dir/fuzz-logs/$t.log
  mkdir -p "$corpus" "$scratch"
  bin=$(find "$build_dir" -name "fuzz_$t" -type f -perm -u+x | head -n1)
  extra=()
  [ "$t" = compile ] && extra+=(-max_len=4096)
  budget=(-max_total_time="$secs" -timeout=1)
  [ -n "${KJIT_FUZZ_RUNS:-}" ] && budget=(-runs="$KJIT_FUZZ_RUNS" -seed=1 -timeout=10)
  echo "fuzz: $t: ${budget[*]} (log $log)"
  if "$bin" "${budget[@]}" -rss_limit_mb=2048 \
       -print_final_stats=1 -artifact_prefix="tests/fuzz/crashes/$t-" \
       "${extra[@]}" "$scratch" "$corpus" >"$log" 2>&1; then
    :
  else
    failed+=("$t")
    tail -n 40 "$log" >&2
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  echo "fuzz: $t: $execs executions"
  if [ "${KJIT_FUZZ_MERGE:-0}" = 1 ]; then
    # minimize: the fewest inputs of old corpus + new ones that cover every
    # edge reached (hit counts ignored, so the committed corpora stay small)
    merged=$build_dir/fuzz-merged/$t
    rm -rf "$merged" && mkdir -p "$merged"
    if "$bin" -merge=1 -use_counters=0 -timeout=1 -rss_limit_mb=2048 "${extra[@]}" \
         "$merged" "$corpus" "$scratch" >>"$log" 2>&1; then
      rm -rf "$corpus" && cp -r "$merged" "$corpus"
      rm -rf "$scratch" && mkdir -p "$scratch"
      echo "fuzz: $t: corpus merged to $(ls "$corpus" | wc -l) inputs"
    fi
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs in tests/fuzz/crashes/)" >&2
  exit 1
fi
echo "fuzz: no crashes"
