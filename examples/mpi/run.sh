#!/usr/bin/env bash
# run.sh [-n RANKS] [--target cpu|auto|cuda] [BUILD_DIR] - runs
# examples/mpi/mpi_collatz under Open MPI: RANKS ranks (default 4) sharing
# one fresh cache directory, on the cpu target by default (auto: GPU
# `rank % device_count` where there are GPUs).  Prints the program's report
# (each rank's target, whether it compiled or read the cache, the check).
#
# Run from anywhere; BUILD_DIR defaults to build/ at the repository root.
# Exit: the program's status; 77 (skipped, never passed) when mpirun or the
# program is missing (CMake builds it only where it finds MPI).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
np=4 target=cpu build=$root/build
while [ $# -gt 0 ]; do
  case $1 in
    -n) np=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    -*) echo "usage: run.sh [-n RANKS] [--target cpu|auto|cuda] [BUILD_DIR]" >&2; exit 2 ;;
    *) build=$1; shift ;;
  esac
done
build=$(cd "$build" 2>/dev/null && pwd) || { echo "run.sh: no build directory" >&2; exit 2; }
prog=$build/tests/examples/mpi_collatz
if ! command -v mpirun >/dev/null 2>&1; then
  echo "SKIP: mpirun not found (scripts/setup.sh installs Open MPI)"; exit 77
fi
if [ ! -x "$prog" ]; then
  echo "SKIP: $prog was not built (CMake did not find MPI)"; exit 77
fi
export LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cache=$(mktemp -d "${TMPDIR:-/tmp}/kjit-mpi-cache.XXXXXX")
trap 'rm -rf "$cache"' EXIT
export KJIT_CACHE_DIR=$cache

# --oversubscribe: more ranks than cores (CI machines have 2); root needs
# --allow-run-as-root.  Only ones and twos of Open MPI's options are
# needed; the shared-memory transport is enough on one host.
opts=(-np "$np" --oversubscribe --bind-to none)
[ "$(id -u)" -eq 0 ] && opts+=(--allow-run-as-root)
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_plm_rsh_agent=false   # one host: never look for ssh
# Under the sanitizer build (scripts/test_sanitize.sh) Open MPI's own
# allocations, in components it has unloaded by exit, are reported as
# leaks that no suppression can name; kjit's leaks are covered by the other
# tests, so leak checking is off for this one program.
if [ -n "${ASAN_OPTIONS:-}" ]; then export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"; fi
cd "$root" || exit 2
echo "run.sh: mpirun ${opts[*]} mpi_collatz --target $target (cache $cache, empty)"
mpirun "${opts[@]}" "$prog" --target "$target" examples/mpi/collatz.py
rc=$?
echo "run.sh: cache now holds $(find "$cache" -name '*.kjc' | wc -l) entr(y/ies); exit $rc"
exit $rc
