#!/usr/bin/env bash
# run.sh KJIT_BIN [N] [SEED] [--target cpu|cuda] [more difftest.py options]
#
# Differential testing: N random well-typed kernels from SEED (gen.py) run
# by kjit and by the CPython reference (shim.py), outputs compared
# (difftest.py).  Failures are kept under $DIFFTEST_KEEP (default
# ./difftest-failures) with the seed to replay them.
# Exit: 0 all passed, 1 a failure, 77 skipped (no python3).
set -uo pipefail
if [ $# -lt 1 ]; then
  echo "usage: run.sh KJIT_BIN [N] [SEED] [--target cpu|cuda]" >&2; exit 2
fi
kjit=$1; shift
n=50 seed=1
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then n=$1; shift; fi
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then seed=$1; shift; fi
py=$(command -v python3) || { echo "SKIP: python3 not found"; exit 77; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$py" "$here/difftest.py" "$kjit" -n "$n" --seed "$seed" \
  --keep "${DIFFTEST_KEEP:-difftest-failures}" "$@"
