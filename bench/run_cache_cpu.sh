#!/usr/bin/env bash
# run_cache_cpu.sh [BUILD_DIR] - the CPU target's disk cache: a fresh
# `kjit run --target cpu` of examples/vector_add.py (1 Ki float32) cold
# (empty cache directory each run), warm (the entry present) and with the
# cache off, and 16 processes started at once on an empty directory.
# Prints the median and minimum of the whole process's wall time and of
# the compile time `--time` reports.  Environment: RUNS (default 20).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
runs=${RUNS:-20}
kjit="$build/kjit"
if [ ! -x "$kjit" ]; then
  echo "run_cache_cpu.sh: $kjit not found; build first (bash scripts/build.sh)" >&2
  exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
args=(run "$root/examples/vector_add.py:add_kernel" --target cpu --grid 4 --block 256
      x=arange:f32:1024 y=full:f32:1024:2 out=zeros:f32:1024 --time)

# one MODE: prints "wall_ms compile_ms" of one process.
one() {
  local mode=$1 t0 t1 out
  case $mode in
    cold) rm -rf "$tmp/cold"; export KJIT_CACHE_DIR="$tmp/cold" KJIT_CACHE=1 ;;
    warm) export KJIT_CACHE_DIR="$tmp/warm" KJIT_CACHE=1 ;;
    off) export KJIT_CACHE=0 ;;
  esac
  t0=$(date +%s%N)
  out=$("$kjit" "${args[@]}")
  t1=$(date +%s%N)
  echo "$(( (t1 - t0) / 1000 )) $(printf '%s\n' "$out" | sed -n 's/^time: compile \([0-9.]*\) ms.*/\1/p')"
}

# median FILE: the median of a file of numbers.
median() { sort -g "$1" | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
minimum() { sort -g "$1" | head -1; }

echo "== machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1 /proc/loadavg)"
one warm >/dev/null # fill the warm directory
for mode in cold warm off; do
  printf '%-5s ' "$mode"
  for _ in $(seq 1 "$runs"); do one "$mode"; done >"$tmp/runs"
  awk '{print $1/1000}' "$tmp/runs" >"$tmp/wall"
  awk '{print $2}' "$tmp/runs" >"$tmp/compile"
  printf 'wall median %.1f ms (min %.1f); compile median %.2f ms (min %.2f); %s runs\n' \
    "$(median "$tmp/wall")" "$(minimum "$tmp/wall")" "$(median "$tmp/compile")" \
    "$(minimum "$tmp/compile")" "$runs"
done
# 16 at once on an empty directory: how many compiled, and the wall time.
rm -rf "$tmp/many"
t0=$(date +%s%N)
for i in $(seq 1 16); do
  KJIT_CACHE=1 KJIT_CACHE_DIR="$tmp/many" "$kjit" "${args[@]}" >"$tmp/many.$i" &
done
wait
t1=$(date +%s%N)
echo "16 at once: $(cat "$tmp"/many.* | grep -c '^cache: compiled') compiled," \
     "$(cat "$tmp"/many.* | grep -c '^cache: read') read," \
     "$(cat "$tmp"/many.* | grep -c 'waits 1)') waited; all done in $(( (t1 - t0) / 1000000 )) ms"
