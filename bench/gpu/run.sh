#!/usr/bin/env bash
# run.sh BUILD_DIR - the GPU benchmarks: each kernel of bench/gpu/kernels/ as
# CUDA C (nvcc -O3 -arch=sm_90), under Numba and under kjit (C API), plus
# launch overhead (kjit C API vs raw cuLaunchKernel vs Numba) and compile
# latency, then the @vectorize row (elementwise.sh); prints one markdown report (and writes it to $OUT/benchmarks.md
# when OUT is set, with the raw log next to it).
#
# BUILD_DIR holds `kjit` and `libkjit.so` (its include/ is used if present,
# else the repository's include/).  Needs nvcc, python3 with numba and numpy,
# a C compiler and an NVIDIA GPU.  A part that cannot run is reported and
# the rest goes on.
# Environment: N (timed launches per kernel, default 50), WARMUP (default 5),
# LAUNCHES (launch-overhead loop, default 10000), ARCH (default sm_90),
# NVCC, PYTHON, CC.
# KERNELS: shell patterns over the kernel file names, comma-separated
# (KERNELS='pattern_*,histogram'; '*' is every kernel without the extras):
# only those run (a file with "# BENCH" rows runs all its rows), and the
# launch overhead, compile latency, @vectorize and @cuda.reduce parts are
# skipped unless EXTRAS=1.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd) || exit 2
n=${N:-50}
warm=${WARMUP:-5}
launches=${LAUNCHES:-10000}
arch=${ARCH:-sm_90}
nvcc=${NVCC:-nvcc}
py=${PYTHON:-python3}
cc=${CC:-cc}
kjit="$build/kjit"
inc="$build/include"
[ -f "$inc/kjit.h" ] || inc="$root/include"

work=$(mktemp -d "${TMPDIR:-/tmp}/kjit-gpu-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$work/log.txt"
: >"$log"
export KJIT_CACHE_DIR="$work/kjit-cache"   # never the user's cache

say() { echo "== $*" >&2; }
note() { echo "ERROR impl=run.sh $*" >>"$log"; echo "run.sh: $*" >&2; }

# ---------------------------------------------------------------- checks --
if ! command -v "$nvcc" >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=/usr/local/cuda/bin/nvcc
fi
have_nvcc=1; command -v "$nvcc" >/dev/null 2>&1 || { have_nvcc=0; note "nvcc not found: no CUDA C column"; }
have_numba=1; "$py" -c 'import numpy; numpy.row_stack = numpy.vstack; from numba import cuda; assert cuda.is_available()' \
  >/dev/null 2>&1 || { have_numba=0; note "python3 with numba (and a GPU it can see) not found: no Numba column"; }
have_kjit=1
if [ ! -x "$kjit" ] || [ ! -e "$build/libkjit.so" ]; then
  have_kjit=0; note "$kjit or $build/libkjit.so missing: no kjit column"
fi
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  note "nvidia-smi finds no GPU"
fi
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
cudaver=$("$nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p' | head -1)

# ------------------------------------------------------------- selection --
# the built-in kernels (set up in kjit_bench.c and numba_bench.py), then the
# files with "# BENCH" rows
kernels="vector_add saxpy matmul reduce stencil histogram mandelbrot black_scholes transpose
  nbody conv2d softmax scan monte_carlo"
kernels="$kernels $(grep -l '^# BENCH ' "$here"/kernels/*.py 2>/dev/null | xargs -r -n1 basename | sed 's/\.py$//' | sort | tr '\n' ' ')"
pattern=${KERNELS:-}
extras=1
all_kernels=$(echo $kernels)
if [ -n "$pattern" ]; then
  sel=""
  IFS=, read -r -a pats <<<"$pattern"
  for b in $kernels; do
    for p in "${pats[@]}"; do
      # shellcheck disable=SC2254
      case "$b" in $p) sel="$sel $b"; break ;; esac
    done
  done
  kernels=$sel
  extras=${EXTRAS:-0}
  [ -n "$kernels" ] || { echo "run.sh: KERNELS='$pattern' selects no kernel" >&2; exit 2; }
fi
only=$(echo $kernels | tr ' ' ',')
[ "$(echo $kernels)" = "$all_kernels" ] && whole=1 || whole=0

# ----------------------------------------------------------------- build --
if [ "$have_nvcc" = 1 ]; then
  for f in "$here"/cuda/*.cu; do
    b=$(basename "$f" .cu)
    if [ "$extras" = 0 ] && ! echo " $kernels " | grep -q " $b "; then continue; fi
    say "nvcc -O3 -arch=$arch $b.cu"
    # -lcuda: cuda_reduce.cu also times kjit's PTX through the driver API
    "$nvcc" -O3 -arch="$arch" -o "$work/nvcc_$b" "$f" -lcuda 2>"$work/nvcc_$b.err" ||
      note "nvcc failed on $b.cu: $(head -c 300 "$work/nvcc_$b.err" | tr '\n' ' ')"
  done
fi
if [ "$have_kjit" = 1 ]; then
  say "cc kjit_bench.c"
  "$cc" -std=c11 -O2 -I"$inc" "$here/kjit_bench.c" -L"$build" -lkjit \
    -Wl,-rpath,"$build" -lm -o "$work/kjit_bench" 2>"$work/kjit_bench.err" ||
    { note "kjit_bench.c does not build: $(head -c 400 "$work/kjit_bench.err" | tr '\n' ' ')"; have_kjit=0; }
fi
"$cc" -std=c11 -O2 "$here/raw_launch.c" -ldl -o "$work/raw_launch" 2>"$work/raw.err" ||
  note "raw_launch.c does not build: $(head -c 300 "$work/raw.err" | tr '\n' ' ')"

# ------------------------------------------------------------------- run --
if [ "$have_nvcc" = 1 ]; then
  for b in $kernels; do
    [ -x "$work/nvcc_$b" ] || continue
    say "nvcc $b"
    timeout 600 "$work/nvcc_$b" -n "$n" -w "$warm" >>"$log" 2>"$work/run_nvcc_$b.err" ||
      note "nvcc_$b failed: $(tail -c 300 "$work/run_nvcc_$b.err" | tr '\n' ' ')"
  done
fi
if [ "$have_numba" = 1 ]; then
  say "numba_bench.py"
  sel_only=()
  [ -n "$pattern" ] && sel_only=(--only "$only")
  timeout 1800 "$py" "$here/numba_bench.py" -n "$n" -w "$warm" --launches "$launches" "${sel_only[@]}" \
    >>"$log" 2>"$work/numba.err" || note "numba_bench.py failed: $(tail -c 400 "$work/numba.err" | tr '\n' ' ')"
fi
if [ "$have_kjit" = 1 ]; then
  # compile latency first, in a fresh process, then each kernel in its own
  # process (a crash loses one row), then the launch overhead
  if [ "$extras" = 1 ]; then
    say "kjit_bench: compile latency"
    timeout 300 "$work/kjit_bench" --kernels "$here/kernels" --no-kernels --no-overhead \
      >>"$log" 2>"$work/kjit_compile.err" || note "kjit_bench (compile) failed: $(tail -c 400 "$work/kjit_compile.err" | tr '\n' ' ')"
  fi
  for b in $kernels; do
    say "kjit_bench $b"
    timeout 600 "$work/kjit_bench" --kernels "$here/kernels" --only "$b" -n "$n" -w "$warm" \
      --no-overhead --no-compile >>"$log" 2>"$work/kjit_$b.err" ||
      note "kjit_bench $b failed (rc $?): $(tail -c 400 "$work/kjit_$b.err" | tr '\n' ' ')"
  done
  if [ "$extras" = 1 ]; then
    say "kjit_bench: launch overhead"
    timeout 600 "$work/kjit_bench" --kernels "$here/kernels" --no-kernels --no-compile \
      --launches "$launches" >>"$log" 2>"$work/kjit_ov.err" ||
      note "kjit_bench (overhead) failed: $(tail -c 400 "$work/kjit_ov.err" | tr '\n' ' ')"
  fi
  echo "INFO impl=kjit-cli version=$("$kjit" version 2>/dev/null | awk '{print $2}')" >>"$log"
  say "kjit ptx launch_overhead.py + raw_launch"
  if [ "$extras" = 0 ]; then
    :
  elif "$kjit" ptx "$here/kernels/launch_overhead.py" --arch "$arch" -o "$work/lo.ptx" 2>"$work/ptx.err"; then
    [ -x "$work/raw_launch" ] && { timeout 300 "$work/raw_launch" "$work/lo.ptx" "$launches" \
      >>"$log" 2>"$work/raw_run.err" || note "raw_launch failed: $(tail -c 300 "$work/raw_run.err" | tr '\n' ' ')"; }
  else
    note "kjit ptx launch_overhead.py failed: $(head -c 300 "$work/ptx.err" | tr '\n' ' ')"
  fi
fi

# ---------------------------------------------------------------- report --
{
  echo "# GPU benchmarks: kjit vs nvcc vs Numba"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- device: ${gpu:-unknown}; driver ${driver:-unknown}; CUDA ${cudaver:-unknown} (nvcc -O3 -arch=$arch)"
  echo "- host: $(uname -n), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
  echo "- method: same kernel source (bench/gpu/kernels) for Numba and kjit, same algorithm in CUDA C; same sizes, inputs and"
  echo "  launch geometry; $warm warm-up launches, then the median of $n timed launches (CUDA events; nvcc and Numba queue the"
  echo "  timed launches behind a ~30 ms gate kernel so host launch cost is not counted)."
} >"$work/header.md"
"$py" "$here/report.py" "$log" "$work/header.md" >"$work/benchmarks.md" || {
  echo "run.sh: report.py failed; raw log follows" >&2
  cat "$log"
  exit 1
}
# the current table alone, in the file that holds only the latest figures
# (history stays in docs/benchmarks.md): a run of every kernel (KERNELS
# unset or '*') writes docs/benchmarks-gpu.md, a subset only
# $OUT/benchmarks-gpu.md
{
  echo "# GPU benchmarks: the latest run"
  echo
  echo "Written by \`bench/gpu/run.sh\`; earlier runs and their analysis are in docs/benchmarks.md."
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- device: ${gpu:-unknown}; driver ${driver:-unknown}; CUDA ${cudaver:-unknown}"
  echo "- kernels: ${pattern:-all}"
  echo
} >"$work/gpu-header.md"
"$py" "$here/report.py" "$log" "$work/gpu-header.md" --table-only >"$work/benchmarks-gpu.md" &&
  { [ "$whole" = 0 ] || cp "$work/benchmarks-gpu.md" "$root/docs/benchmarks-gpu.md"; }
# the @vectorize row: its own script and table (bench/gpu/elementwise.sh)
if [ "$extras" = 1 ]; then
  say "elementwise.sh"
  { echo; VEC_ADD4="$work/nvcc_vec_add4" LOG="$log" N="$n" WARMUP="$warm" ARCH="$arch" \
      bash "$here/elementwise.sh" "$build"; } >>"$work/benchmarks.md" 2>>"$work/elementwise.err"
fi
cat "$work/benchmarks.md"
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT"
  cp "$work/benchmarks.md" "$OUT/benchmarks.md"
  cp "$log" "$OUT/benchmarks-log.txt"
  [ -s "$work/benchmarks-gpu.md" ] && cp "$work/benchmarks-gpu.md" "$OUT/benchmarks-gpu.md"
  for e in "$work"/*.err; do [ -s "$e" ] && cp "$e" "$OUT/"; done
fi
# @cuda.reduce: its own script (whole reductions, not single kernels); it
# appends its section to $OUT/benchmarks.md
if [ "$extras" = 1 ]; then
  N=$n WARMUP=$warm ARCH=$arch NVCC=$nvcc PYTHON=$py CC=$cc bash "$here/run_reduce.sh" "$build" ||
    echo "run.sh: run_reduce.sh failed" >&2
fi
exit 0
