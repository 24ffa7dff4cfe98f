#!/usr/bin/env bash
# bench_report_checksum.sh PYTHON3 SRC - bench/gpu/report.py's checksum rule:
# a difference within two float32 ulps of the mass (the weighted sum over
# |out|) is rounding and agrees, however much the checksum itself cancels
# (the figures are cplx_mul_add_c64's: Numba's NVVM contracts the imaginary
# parts of the complex products into FMA, kjit rounds as CPython does); a
# larger one, or one without a mass (the CUDA C programs), is judged by the
# relative rule alone.
set -euo pipefail
py=$1
src=$2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
row() { echo "RESULT impl=$1 kernel=$2 median_ms=0.027 min_ms=0.027 n=10 checksum=$3${4:+ mass=$4}"; }
{
  row numba rounding -22.2397688 16777032.52
  row kjit rounding -22.299224192112888 16777032.492156412
  row numba nomass -22.2397688
  row kjit nomass -22.299224192112888
  row numba wrong -22.2397688 16777032.52
  row kjit wrong -32.2992 16777036.49
  row nvcc big 1000.0
  row kjit big 1000.5 2000.0
} >"$log"
out=$("$py" "$src/bench/gpu/report.py" "$log" --table-only)
expect() {
  if ! grep -q "^| $1 |.*| $2" <<<"$out"; then
    echo "FAIL: row $1 should end in '$2':"
    grep "^| $1 |" <<<"$out" || echo "(no row)"
    exit 1
  fi
}
expect rounding "agree |"
expect nomass "\*\*MISMATCH\*\* numba≠kjit |"
expect wrong "\*\*MISMATCH\*\* numba≠kjit |"
expect big "agree |"
echo "ok: 4 rows"
