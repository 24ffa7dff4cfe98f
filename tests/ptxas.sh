#!/usr/bin/env bash
# ptxas.sh KJIT_BIN FILE ARCH [PTXAS] - the PTX kjit emits must assemble.
#
# Without "# ARGS:" lines: kjit ptx FILE --arch ARCH -o T.ptx (every kernel
# with an eager signature, one module).  With "# ARGS:" lines: one compile
# per line, kjit <ARGS> --arch ARCH -o T.ptx (%s = FILE).  Each PTX module is
# then assembled by ptxas -arch=ARCH; any error fails the test.
# Exits 77 (skipped) when ptxas is not installed.
set -uo pipefail
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
  echo "usage: ptxas.sh KJIT_BIN FILE ARCH [PTXAS]" >&2; exit 2
fi
kjit=$1 file=$2 arch=$3
ptxas=${4:-${KJIT_CUDA_HOME:-${CUDAToolkit_ROOT:-/usr/local/cuda}}/bin/ptxas}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/testlib.sh"

if [ ! -x "$ptxas" ]; then
  echo "ptxas.sh: $ptxas not found (CUDA toolkit missing): skipped" >&2
  exit 77
fi
make_tmp

mapfile -t lines < <(args_lines "$file")
if [ ${#lines[@]} -eq 0 ]; then
  lines=("ptx %s")
fi
status=0 n=0
for line in "${lines[@]}"; do
  split_args "$line" "$file" || exit 2
  n=$((n + 1))
  ptx="$TMP/m$n.ptx"
  if ! "$kjit" "${ARGV[@]}" --arch "$arch" -o "$ptx" </dev/null; then
    echo "ptxas.sh: FAILED: kjit ${ARGV[*]} --arch $arch" >&2
    status=1; continue
  fi
  if [ ! -s "$ptx" ]; then
    echo "ptxas.sh: FAILED: kjit ${ARGV[*]} wrote no PTX" >&2
    status=1; continue
  fi
  if ! "$ptxas" -arch="$arch" "$ptx" -o /dev/null; then
    echo "ptxas.sh: FAILED: ptxas -arch=$arch on PTX of: kjit ${ARGV[*]}" >&2
    echo "---- PTX ----" >&2; cat "$ptx" >&2
    status=1; continue
  fi
  echo "ptxas.sh: ok: kjit ${ARGV[*]} --arch $arch"
done
exit $status
