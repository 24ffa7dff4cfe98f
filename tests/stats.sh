#!/usr/bin/env bash
# stats.sh KJIT_BIN FILE [PTXAS] - `kjit ptx --stats` agrees with ptxas.
#
# For each compile of FILE (its "# ARGS:" lines, else `ptx FILE`) and for
# sm_80 and sm_90: kjit writes the PTX and prints --stats; `ptxas -v -c`
# assembles the same PTX (-c: relocatable, as nvJitLink compiles each
# input before linking; without it ptxas may allocate fewer registers).
# Every entry's registers, stack frame, spill stores and loads, static
# shared bytes and barriers must be equal; max threads/block must follow
# from the registers (64 K registers per block, 256 per warp allocation);
# PTX and SASS sizes must be positive.  Exits 77 (skipped) without ptxas.
set -uo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: stats.sh KJIT_BIN FILE [PTXAS]" >&2; exit 2
fi
kjit=$1 file=$2
ptxas=${3:-${KJIT_CUDA_HOME:-${CUDAToolkit_ROOT:-/usr/local/cuda}}/bin/ptxas}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/testlib.sh"
if [ ! -x "$ptxas" ]; then
  echo "stats.sh: $ptxas not found (CUDA toolkit missing): skipped" >&2
  exit 77
fi
make_tmp

# ptxas -v's report as "NAME regs stack spill_st spill_ld smem barriers".
from_ptxas() {
  awk '
    /Compiling entry function/ { split($0, q, "'"'"'"); name = q[2]; next }
    name != "" && /bytes stack frame/ {
      for (i = 1; i <= NF; i++) {
        if ($(i+1) == "bytes" && $(i+2) == "stack") st = $i
        if ($(i+1) == "bytes" && $(i+2) == "spill" && $(i+3) ~ /^stores/) ss = $i
        if ($(i+1) == "bytes" && $(i+2) == "spill" && $(i+3) ~ /^loads/) sl = $i
      }
      next
    }
    name != "" && /: Used / {
      r = 0; sm = 0; b = 0
      for (i = 1; i <= NF; i++) {
        if ($(i+1) ~ /^registers/) r = $i
        if ($(i+1) ~ /^barriers/) b = $i
        if ($(i+1) == "bytes" && $(i+2) ~ /^smem/) sm = $i
      }
      print name, r, st + 0, ss + 0, sl + 0, sm, b; name = ""; st = ss = sl = 0
    }' "$1" | sort
}

# kjit ptx --stats's kernel lines (not the indented occupancy), the same fields.
from_kjit() {
  awk '/^ / { next } {
    name = $1
    for (i = 1; i <= NF; i++) {
      if ($i == "registers") r = $(i+1) + 0
      if ($i == "stack") st = $(i+1) + 0
      if ($i == "stores") ss = $(i+1) + 0
      if ($i == "loads") sl = $(i+1) + 0
      if ($i == "shared") sm = $(i+1) + 0
      if ($i == "barriers") b = $(i+1) + 0
    }
    print name, r, st, ss, sl, sm, b }' "$1" | sort
}

# Each line's max threads/block from its registers, and positive sizes.
check_derived() {
  awk '/^ / { next } {
    for (i = 1; i <= NF; i++) {
      if ($i == "registers") r = $(i+1) + 0
      if ($i == "threads/block") m = $(i+1) + 0
      if ($i == "PTX") p = $(i+1) + 0
      if ($i == "SASS") s = $(i+1) + 0
    }
    w = int((r * 32 + 255) / 256) * 256; want = int(65536 / w) * 32
    if (want > 1024) want = 1024
    if (m != want) { print "max threads/block " m ", expected " want " for " r " registers: " $1; bad = 1 }
    if (p <= 0 || s <= 0) { print "PTX " p " B, SASS " s " B: " $1; bad = 1 }
  } END { exit bad }' "$1"
}

mapfile -t lines < <(args_lines "$file")
[ ${#lines[@]} -eq 0 ] && lines=("ptx %s")
status=0 n=0 entries=0
for line in "${lines[@]}"; do
  split_args "$line" "$file" || exit 2
  for arch in sm_80 sm_90; do
    n=$((n + 1))
    if ! "$kjit" "${ARGV[@]}" --arch "$arch" -o "$TMP/m$n.ptx" </dev/null ||
       ! "$kjit" "${ARGV[@]}" --arch "$arch" --stats -o "$TMP/m$n.stats" </dev/null; then
      echo "stats.sh: FAILED: kjit ${ARGV[*]} --arch $arch [--stats]" >&2
      status=1; continue
    fi
    if ! "$ptxas" -v -c -arch="$arch" "$TMP/m$n.ptx" -o /dev/null 2>"$TMP/m$n.log"; then
      echo "stats.sh: FAILED: ptxas -v -c -arch=$arch on kjit ${ARGV[*]}" >&2
      status=1; continue
    fi
    from_ptxas "$TMP/m$n.log" >"$TMP/want$n"
    from_kjit "$TMP/m$n.stats" >"$TMP/got$n"
    if [ ! -s "$TMP/want$n" ] || ! diff -u "$TMP/want$n" "$TMP/got$n" >&2; then
      echo "stats.sh: FAILED: kjit ${ARGV[*]} --arch $arch: --stats (+) differs from ptxas -v -c (-)" >&2
      status=1; continue
    fi
    check_derived "$TMP/m$n.stats" >&2 || { echo "stats.sh: FAILED: $arch ${ARGV[*]}" >&2; status=1; }
    if [ "$(grep -c '^  occupancy best block' "$TMP/m$n.stats")" != "$(wc -l <"$TMP/got$n")" ]; then
      echo "stats.sh: FAILED: kjit ${ARGV[*]} --arch $arch: not one occupancy line per kernel" >&2
      status=1
    fi
    entries=$((entries + $(wc -l <"$TMP/got$n")))
  done
done
[ $status -eq 0 ] && echo "stats.sh: $file: $entries entries agree with ptxas -v -c (sm_80, sm_90)"
exit $status
