#!/usr/bin/env bash
# gpu_occupancy_record.sh BUILD_DIR [OUT] - on a machine with a GPU, record
# the driver's occupancy calculator for the bench and example kernels, the
# reference unit/test_occupancy checks kjit_occupancy_compute against on
# every machine (no GPU needed there).
#
# For each (kernel, block, dynamic shared) below: the kernel's cubin for the
# device's architecture (`kjit ptx --emit cubin`, the fits32/grid32 variant
# a launch of this size runs), then BUILD_DIR/tests/gpu/occupancy_record
# loads it and asks cuOccupancyMaxActiveBlocksPerMultiprocessor.  Writes
# one row per combination to OUT (default tests/data/occupancy_<arch>.txt):
#   kernel arch regs static_shared barriers max_threads block dyn_shared blocks
# registers, static shared bytes and the largest block as the driver reports
# them (cuFuncGetAttribute), barriers from ptxas's report (`kjit ptx
# --stats`; the driver does not give it).  The test reads the recorded
# resources, so it never depends on recompiling to the same register count.
# KJIT_DEVICE=N records device N.  Exit 0, 77 without a GPU, 1 on errors.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: gpu_occupancy_record.sh BUILD_DIR [OUT]" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "$1" && pwd) || exit 2
kjit=$build/kjit
record=$build/tests/gpu/occupancy_record
[ -x "$record" ] || { echo "gpu_occupancy_record: $record is not built" >&2; exit 1; }
dev=${KJIT_DEVICE:-0}
line=$("$kjit" info 2>/dev/null | grep -m1 "^  device $dev:")
if [ -z "$line" ]; then
  echo "gpu_occupancy_record: no GPU $dev (kjit info lists none): skipped"; exit 77
fi
arch=sm_$(echo "$line" | grep -o 'compute capability [0-9]*\.[0-9]*' | awk '{split($3, v, "."); print v[1] v[2]}')
out=${2:-$root/tests/data/occupancy_$arch.txt}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-occupancy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KJIT_CACHE_DIR=$tmp/cache CUDA_VISIBLE_DEVICES=$dev
{
  echo "# The driver's cuOccupancyMaxActiveBlocksPerMultiprocessor on ${line#*: }"
  echo "# ($arch), $(date -u +%Y-%m-%d), recorded by scripts/gpu_occupancy_record.sh;"
  echo "# registers, static shared and max threads as cuFuncGetAttribute gives them."
  echo "# kernel arch regs static barriers max_threads block dyn_shared blocks"
} >"$tmp/table"
rows=0 status=0
# FILE:KERNEL|SIGNATURE|BLOCK:DYN ...
while IFS='|' read -r target sig combos; do
  [ -n "$target" ] || continue
  name=${target##*:}
  if ! (cd "$root" && "$kjit" ptx "$target" --sig "$sig" --arch "$arch" --fits32 --grid32 \
          --emit cubin -o "$tmp/$name.cubin") 2>"$tmp/err"; then
    echo "gpu_occupancy_record: kjit ptx $target failed: $(cat "$tmp/err")" >&2; status=1; continue
  fi
  stats=$(cd "$root" && "$kjit" ptx "$target" --sig "$sig" --arch "$arch" --fits32 --grid32 --stats | head -1)
  entry=${stats%% *}
  barriers=$(echo "$stats" | grep -o 'barriers [0-9]*' | awk '{print $2}')
  # shellcheck disable=SC2086
  if ! "$record" "$tmp/$name.cubin" "$entry" $combos >"$tmp/rows" 2>"$tmp/err"; then
    echo "gpu_occupancy_record: $name: $(cat "$tmp/err")" >&2; status=1
  fi
  while read -r regs shared maxt block dyn blocks; do
    printf '%-16s %s %3d %6d %d %4d %4d %6d %2d\n' "$name" "$arch" "$regs" "$shared" "${barriers:-0}" \
      "$maxt" "$block" "$dyn" "$blocks" >>"$tmp/table"
    rows=$((rows + 1))
  done <"$tmp/rows"
done <<'LIST'
examples/vector_add.py:add_kernel|void(float32[::1], float32[::1], float32[::1])|64:0 128:0 256:0 1024:0
examples/matmul_shared.py:matmul_shared|void(float32[:, ::1], float32[:, ::1], float32[:, ::1])|256:0 256:16384 256:65536
bench/gpu/kernels/black_scholes.py:black_scholes|void(float32[::1], float32[::1], float32[::1], float32[::1], float32[::1], float32, float32)|128:0 256:0 512:0 1024:0
bench/gpu/kernels/nbody.py:nbody|void(float32[:, ::1], float32[:, ::1], float32[:, ::1], float32[:, ::1], float32, float32)|96:0 256:0 640:0
bench/gpu/kernels/histogram.py:histogram|void(uint8[::1], uint32[::1])|256:0 1024:0
bench/gpu/kernels/softmax.py:softmax|void(float32[:, ::1], float32[:, ::1])|128:0 256:0
tests/tune/dyn_shared.py:stage|void(float32[::1], float32[::1])|256:1024 256:49152 256:100000 1024:4096 1024:120000 32:232448
LIST
if [ $rows -lt 20 ]; then
  echo "gpu_occupancy_record: only $rows rows (at least 20 wanted); $out not written" >&2; exit 1
fi
cp "$tmp/table" "$out"
echo "gpu_occupancy_record: $rows rows for $arch in $out; check them with: $build/tests/unit/test_occupancy $root/tests/data/occupancy_*.txt"
exit $status
