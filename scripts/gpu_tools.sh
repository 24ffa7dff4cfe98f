#!/usr/bin/env bash
# gpu_tools.sh BUILD_DIR [LOG_DIR] [MODE] - the GPU checks of the launch
# tools, for a machine with a GPU.  MODE picks what runs (default all):
#   tools      checks 1, 1b and 2 below;
#   tune       3: tests/tune.sh with TUNE_TARGET=cuda (the CPU suite's
#              kjit tune checks on the GPU), then bench/gpu/run_tune.sh, the
#              default vs auto vs tuned table of the bench kernels (tuned
#              never slower than default beyond noise);
#   occupancy  4: scripts/gpu_occupancy_record.sh, the driver's occupancy
#              for 24 (kernel, block, shared) combinations, written to
#              tests/data/occupancy_<arch>.txt (commit it), then
#              unit/test_occupancy against it;
#   all        every one of them.
#   1. resources: `kjit run --time` prints the driver's view of each launched
#      kernel (cuFuncGetAttribute); its registers, stack and static shared
#      bytes must equal what `kjit ptx --stats` computed without the GPU for
#      the device's architecture (the cubin is the same nvJitLink link);
#   1b. --block auto with --grid cover:x on the bench kernels gives the same
#      results as their default block of 256 (both times printed);
#   2. source lines in NVIDIA's tools: compute-sanitizer's memcheck on an
#      out-of-bounds kernel compiled with lineinfo=True names its .py file
#      and line (tests/gpu/tools/oob.py:10), and so does `kjit run
#      --lineinfo` on one without it (oob_plain.py:9).
# Prints one line per check (PASS/FAIL/SKIP) and the date, device and
# counts; logs go to LOG_DIR (default: a temporary folder).  Exit 0 when
# every check that ran passed, 77 when there is no GPU.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: gpu_tools.sh BUILD_DIR [LOG_DIR] [all|tools|tune|occupancy]" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "$1" && pwd) || exit 2
logs=${2:-$(mktemp -d "${TMPDIR:-/tmp}/kjit-gpu-tools.XXXXXX")}
mode=${3:-all}
case $mode in
  all | tools | tune | occupancy) ;;
  *) echo "gpu_tools.sh: unknown mode '$mode' (all, tools, tune or occupancy)" >&2; exit 2 ;;
esac
mkdir -p "$logs"
kjit=$build/kjit
export KJIT_CACHE_DIR=$logs/cache
pass=0 fail=0 skip=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
skipped() { echo "SKIP: $*"; skip=$((skip + 1)); }

device=$("$kjit" info 2>/dev/null | grep -m1 '^  device 0:' | sed 's/^  device 0: //')
if [ -z "$device" ]; then
  echo "gpu_tools: no GPU (kjit info lists no device): skipped"; exit 77
fi
arch=sm_$("$kjit" info | grep -m1 -o 'compute capability [0-9]*\.[0-9]*' | awk '{split($3, v, "."); print v[1] v[2]}')
echo "gpu_tools: $(date -u +%Y-%m-%dT%H:%MZ) on $device ($arch)"

if [ "$mode" = all ] || [ "$mode" = tools ]; then
# --- 1. resources: the driver's view against kjit ptx --stats ------------
# "NAME regs stack smem" from a line of either.
fields() {
  awk '{ r = st = sm = "";
    for (i = 1; i <= NF; i++) {
      if ($i == "registers") r = $(i+1) + 0
      if ($i == "stack") st = $(i+1) + 0
      if ($i == "shared") sm = $(i+1) + 0
    }
    print $1, r, st, sm }'
}
while IFS='|' read -r target sig run; do
  [ -n "$target" ] || continue
  name=${target##*:}
  # shellcheck disable=SC2086
  if ! (cd "$root" && "$kjit" run "$target" --target cuda --time $run) >"$logs/run_$name.log" 2>&1; then
    bad "kjit run $target --time"; continue
  fi
  got=$(grep ' registers ' "$logs/run_$name.log" | grep -v '^time' | fields)
  want=$(cd "$root" && "$kjit" ptx "$target" --sig "$sig" --arch "$arch" --fits32 --grid32 --stats | grep -v '^ ' | fields)
  if [ -n "$got" ] && [ "$got" = "$want" ]; then
    ok "resources of $name: driver '$got' = kjit ptx --stats"
  else
    bad "resources of $name: driver '$got', kjit ptx --stats '$want'"
  fi
done <<'LIST'
examples/vector_add.py:add_kernel|void(float32[::1], float32[::1], float32[::1])|--grid 4 --block 256 x=arange:float32:1024 y=full:float32:1024:2 out=zeros:float32:1024
examples/matmul_shared.py:matmul_shared|void(float32[:, ::1], float32[:, ::1], float32[:, ::1])|--grid 2,2 --block 16,16 A=arange:float32:20x30 B=arange:float32:30x25 C=zeros:float32:20x25
examples/double_matrix.py:double_matrix|void(float32[:, ::1])|--grid 2,2 --block 16,16 a=arange:float32:20x30
LIST

# --- 1b. --block auto on the GPU: the run's result equals the default's --
# (a kernel written for any block size; the chosen block is in the note)
while IFS='|' read -r target block run; do
  [ -n "$target" ] || continue
  name=${target##*:}
  # shellcheck disable=SC2086
  (cd "$root" && "$kjit" run "$target" --target cuda --block "$block" --grid cover:x --repeat 20 --time $run) \
    >"$logs/default_$name.log" 2>&1
  # shellcheck disable=SC2086
  (cd "$root" && "$kjit" run "$target" --target cuda --block auto --grid cover:x --repeat 20 --time --profile $run) \
    >"$logs/auto_$name.log" 2>&1
  # the arrays' summaries only ("out: float32[...] ... crc=..."): the runs'
  # notes, resources and profile lines differ by design
  if diff <(grep -E '^[A-Za-z_][A-Za-z0-9_]*: [a-z0-9]+\[' "$logs/default_$name.log") \
          <(grep -E '^[A-Za-z_][A-Za-z0-9_]*: [a-z0-9]+\[' "$logs/auto_$name.log") >/dev/null &&
     grep -qE '^[A-Za-z_][A-Za-z0-9_]*: [a-z0-9]+\[' "$logs/auto_$name.log"; then
    ok "--block auto on $name: $(grep -o 'auto: [0-9]* threads' "$logs/auto_$name.log"), same results; kernel $(grep -m1 -o 'kernel [0-9.]* ms' "$logs/default_$name.log") at $block vs $(grep -m1 -o 'kernel [0-9.]* ms' "$logs/auto_$name.log"); $(grep '^profile:' "$logs/auto_$name.log")"
  else
    bad "--block auto on $name: results differ from --block $block (logs in $logs)"
  fi
done <<'LIST'
bench/kernels/vector_add.py:add_kernel|256|x=rand:float32:16777216 y=rand:float32:16777216 out=zeros:float32:16777216
bench/kernels/exp_sqrt.py:exp_sqrt|256|x=rand:float32:16777216 out=zeros:float32:16777216
LIST

# --- 2. compute-sanitizer names the line ---------------------------------
# FILE:KERNEL LINE [kjit run options]: lineinfo=True in the decorator, and
# kjit run --lineinfo on a kernel without it.
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
while read -r target line opts; do
  [ -n "$target" ] || continue
  file=$(basename "${target%%:*}")
  if [ -z "$sanitizer" ]; then
    skipped "compute-sanitizer on $target (compute-sanitizer not installed)"; continue
  fi
  log=$logs/sanitizer_${file%.py}.log
  # shellcheck disable=SC2086
  (cd "$root" && "$sanitizer" --tool memcheck "$kjit" run "$target" --target cuda $opts \
     --grid 1 --block 32 a=zeros:float32:32) >"$log" 2>&1
  errors=$(grep -c 'Invalid __global__ write' "$log")
  if grep -q "in .*$file:$line" "$log"; then
    ok "compute-sanitizer $opts: $errors invalid writes, $(grep -m1 -o "at [^ ]* in [^ ]*$file:$line" "$log")"
  else
    bad "compute-sanitizer $opts did not name $file:$line ($errors invalid writes; $log)"
  fi
done <<'LIST'
tests/gpu/tools/oob.py:oob 10
tests/gpu/tools/oob_plain.py:oob_plain 9 --lineinfo
LIST

fi

# --- 3. default vs auto vs tuned on the bench kernels ---------------------
if [ "$mode" = all ] || [ "$mode" = tune ]; then
  # the CPU suite's kjit tune checks, on the GPU (CUDA-event timing)
  if (cd "$root/tests" && TUNE_TARGET=cuda bash tune.sh "$kjit") >"$logs/tune_checks.log" 2>&1; then
    ok "tests/tune.sh on the GPU: $(tail -1 "$logs/tune_checks.log")"
  else
    bad "tests/tune.sh on the GPU ($logs/tune_checks.log)"
  fi
  bash "$root/bench/gpu/run_tune.sh" "$build" "$logs/tune" | tee "$logs/tune.md"
  case ${PIPESTATUS[0]} in
    0) ok "kjit tune on the bench kernels: tuned never slower than default beyond noise, same arrays (table in $logs/tune.md)" ;;
    77) skipped "run_tune.sh (no GPU)" ;;
    *) bad "kjit tune on the bench kernels: see the FAIL rows of $logs/tune.md" ;;
  esac
fi

# --- 4. the driver's occupancy, recorded for unit/test_occupancy ----------
if [ "$mode" = all ] || [ "$mode" = occupancy ]; then
  if bash "$root/scripts/gpu_occupancy_record.sh" "$build" >"$logs/occupancy.log" 2>&1 &&
     "$build/tests/unit/test_occupancy" "$root"/tests/data/occupancy_*.txt >>"$logs/occupancy.log" 2>&1; then
    ok "occupancy: $(grep -o '[0-9]* rows for [a-z_0-9]* in [^;]*' "$logs/occupancy.log"), kjit_occupancy_compute agrees"
  else
    bad "occupancy: the driver's table and kjit_occupancy_compute differ, or recording failed ($logs/occupancy.log)"
  fi
fi

echo "gpu_tools: $pass passed, $fail failed, $skip skipped; logs in $logs"
[ $fail -eq 0 ]
