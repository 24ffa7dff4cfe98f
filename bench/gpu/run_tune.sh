#!/usr/bin/env bash
# run_tune.sh BUILD_DIR [LOG_DIR] - default vs auto vs tuned launch
# configurations of the bench kernels (bench/gpu/kernels), in one run on one
# GPU: for each kernel
#   default  `kjit run` with the block the kernel was written for,
#   auto     `kjit run --block auto` (best occupancy),
#   tuned    `kjit tune` (--budget TUNE_BUDGET seconds, default 5), then
#            `kjit run --block tuned`,
# each `--repeat N` (default 50) timed with CUDA events (the median), and
# prints a markdown table: kernel, default us, auto us, tuned us, the
# configuration tuning chose, whether the three runs' arrays agree.  The
# default blocks are bench/gpu/kjit_bench.c's.
# Kernels written for one block size (shared tiles of TPB threads) are
# refused by kjit tune, which the table says; their auto column is left
# out (--block auto would change their results too), and so is that of a
# kernel launched with an explicit grid (softmax: one warp per row), which
# --block auto keeps as given (kjit tune scales it to the same threads).
#
# The rule: tuned is never slower than default by more than noise, noise
# being 5% of the default's median plus 1 us (the run-to-run spread of a
# median of 50 CUDA-event timings of one configuration on one GPU; the
# configuration given is itself a candidate of kjit tune, so only noise
# can make tuned slower).  A kernel breaking it, or runs whose arrays
# differ, is a FAIL.  Exit 0 when none failed, 1 otherwise, 77 without a
# GPU.  Run alone or through `scripts/gpu_tools.sh BUILD_DIR LOG_DIR tune`.
# Environment: N, TUNE_BUDGET; TARGET=cpu BIG=100000 SIDE=256 run the same
# flow on the cpu target with small arrays (to check this script without a
# GPU; the numbers then mean nothing).
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: run_tune.sh BUILD_DIR [LOG_DIR]" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "$1" && pwd) || exit 2
logs=${2:-$(mktemp -d "${TMPDIR:-/tmp}/kjit-tune-bench.XXXXXX")}
mkdir -p "$logs"
kjit=$build/kjit
n=${N:-50}
budget=${TUNE_BUDGET:-5}
export KJIT_CACHE_DIR=$logs/cache   # records and kernels of this run only
target_kind=${TARGET:-cuda}
device=$("$kjit" info 2>/dev/null | grep -m1 '^  device 0:' | sed 's/^  device 0: //')
if [ "$target_kind" = cpu ]; then
  device="the cpu target"
elif [ -z "$device" ]; then
  echo "run_tune: no GPU (kjit info lists no device): skipped"; exit 77
fi
k=bench/gpu/kernels
big=${BIG:-16777216}
side=${SIDE:-4096}
dx=$(awk -v s="$side" 'BEGIN { printf "%.9g", 3 / s }')   # mandelbrot: [-2, 1] x [-1.5, 1.5]
fails=0

# "kernel K ms" of a --time log, in microseconds
micros() { grep -m1 -o 'kernel [0-9.]* ms' "$1" | awk '{printf "%.1f", $2 * 1000}'; }
# the arrays' summaries of a run ("out: float32[...] ... crc=...")
summaries() { grep -E '^[A-Za-z_][A-Za-z0-9_]*: [a-z0-9]+\[' "$1"; }

echo "## Launch configuration: default, auto, tuned"
echo
echo "$(date -u +%Y-%m-%d), $device, kjit $("$kjit" version | awk '{print $2}'); median of $n runs"
echo "(CUDA events); kjit tune --budget $budget per kernel.  Rule: tuned <= default x 1.05 + 1 us."
echo
echo "| kernel | default us | auto us | tuned us | tuned configuration | same arrays | rule |"
echo "| --- | ---: | ---: | ---: | --- | --- | --- |"
# FILE:KERNEL|DEFAULT BLOCK|GRID|ARGS
while IFS='|' read -r target block grid args; do
  [ -n "$target" ] || continue
  name=${target##*:}
  run() { # LOG [options]: kjit run of this kernel
    local log=$1; shift
    # shellcheck disable=SC2086
    (cd "$root" && "$kjit" run "$target" --target "$target_kind" --grid "$grid" --repeat "$n" --time "$@" $args) \
      >"$log" 2>&1
  }
  run "$logs/default_$name.log" --block "$block"
  # shellcheck disable=SC2086
  (cd "$root" && "$kjit" tune "$target" --target "$target_kind" --grid "$grid" --block "$block" \
     --budget "$budget" $args) >"$logs/tune_$name.log" 2>&1
  tune_rc=$?
  d=$(micros "$logs/default_$name.log")
  if [ $tune_rc -ne 0 ]; then
    if grep -q 'cannot be tuned' "$logs/tune_$name.log"; then
      why="results depend on the launch geometry ($(grep -m1 -o 'with block [0-9x]*\|faulted with block [0-9,]*' "$logs/tune_$name.log" | head -1))"
    else
      why=$(grep -m1 'error' "$logs/tune_$name.log" | head -c 120)
    fi
    echo "| $name | $d | - | - | refused: $why | - | - |"
    continue
  fi
  run "$logs/tuned_$name.log" --block tuned
  a=n/a                                  # an explicit grid stays as given with --block auto
  : >"$logs/auto_$name.log"
  if [ "${grid#cover:}" != "$grid" ]; then
    run "$logs/auto_$name.log" --block auto
    a=$(micros "$logs/auto_$name.log")
  fi
  t=$(micros "$logs/tuned_$name.log")
  chosen=$(sed -n 's/^tuned: block \([^,]*\), grid \(.*\), shared \([0-9]*\):.*/\1, grid \2, shared \3/p' \
           "$logs/tune_$name.log")
  same=yes
  if { [ "$a" != n/a ] && ! diff <(summaries "$logs/default_$name.log") <(summaries "$logs/auto_$name.log") >/dev/null; } ||
     ! diff <(summaries "$logs/default_$name.log") <(summaries "$logs/tuned_$name.log") >/dev/null ||
     [ -z "$(summaries "$logs/tuned_$name.log")" ]; then
    same=NO
  fi
  rule=PASS
  if [ -z "$d" ] || [ -z "$t" ] || ! awk -v d="$d" -v t="$t" 'BEGIN { exit !(t <= d * 1.05 + 1) }'; then
    rule=FAIL
  fi
  [ "$same" = yes ] && [ "$rule" = PASS ] || fails=$((fails + 1))
  echo "| $name | $d | ${a:--} | ${t:--} | $chosen | $same | $rule |"
done <<LIST
$k/vector_add.py:vector_add|256|cover:x|x=rand:float32:$big y=rand:float32:$big:1 out=zeros:float32:$big
$k/saxpy.py:saxpy|256|cover:x|float32:2.5 x=rand:float32:$big y=rand:float32:$big:1 out=zeros:float32:$big
$k/black_scholes.py:black_scholes|256|cover:call|call=zeros:float32:$big put=zeros:float32:$big S=rand:float32:$big:1 X=rand:float32:$big:2 T=rand:float32:$big:3 R=float32:0.02 V=float32:0.3
$k/monte_carlo.py:monte_carlo|256|cover:out|states=xoroshiro:1048576:7 out=zeros:float32:1048576 s0=float32:100 strike=float32:100 r=float32:0.05 v=float32:0.2 t=float32:1
$k/mandelbrot.py:mandelbrot|32,8|cover:image|min_x=float32:-2 min_y=float32:-1.5 dx=float32:$dx dy=float32:$dx image=zeros:int32:${side}x${side} max_iter=int32:256
$k/stencil.py:stencil5|32,8|cover:out|a=rand:float32:${side}x${side} out=zeros:float32:${side}x${side}
$k/conv2d.py:conv2d|32,8|cover:out|img=rand:float32:${side}x${side} w=rand:float32:5x5:1 out=zeros:float32:${side}x${side}
$k/softmax.py:softmax|256|$((side * 2 * 32 / 256))|x=rand:float32:$((side * 2))x2048 out=zeros:float32:$((side * 2))x2048
$k/histogram.py:histogram|256|1024|data=randint:uint8:$big:0:256 bins=zeros:uint32:256
$k/reduce.py:reduce_sum|256|cover:x|x=rand:float32:$big out=zeros:float32:65536
$k/matmul.py:matmul|16,16|cover:C|A=rand:float32:1024x1024 B=rand:float32:1024x1024:1 C=zeros:float32:1024x1024
LIST
echo
echo "run_tune: $fails kernel(s) failed the rule or the comparison; logs in $logs"
[ $fails -eq 0 ]
