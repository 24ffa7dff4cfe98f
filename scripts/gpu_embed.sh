#!/usr/bin/env bash
# gpu_embed.sh BUILD_DIR [LOG_DIR] - kjit inside CUDA programs, on a machine
# with a GPU and the CUDA toolkit (nvcc, cuda.h): builds and runs
#   tests/gpu/embed/embed_gpu.c   (wrapped memory, streams, graphs,
#       contexts; a destroyed stream; a fault in kjit's own context and in
#       the primary one - each in its own process),
#   examples/embed/*              (the programs docs/api.md shows),
#   bench/gpu/embed_bench.c       (launch overhead on the caller's stream,
#       graph replay, against the raw driver)
# from the repository root.  Exit 0 only when every check passed; 77 when
# there is no GPU or no toolkit.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: gpu_embed.sh BUILD_DIR [LOG_DIR]" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "$1" && pwd) || exit 2
logs=${2:-$(mktemp -d "${TMPDIR:-/tmp}/kjit-embed.XXXXXX")}
mkdir -p "$logs"
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$cuda/bin/nvcc
[ -x "$nvcc" ] || { echo "SKIP: no nvcc at $nvcc"; exit 77; }
"$build/kjit" info 2>&1 | grep -q "device 0:" || { echo "SKIP: no usable CUDA device"; exit 77; }
export LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export XDG_CACHE_HOME="$logs/cache"
bin=$logs/bin
mkdir -p "$bin"
cd "$root"
status=0
inc=(-Iinclude "-I$cuda/include")
lib=("-L$build" -lkjit "-L$cuda/lib64" "-L$cuda/lib64/stubs" -lcuda)

build_one() {  # NAME COMMAND...
  local name=$1; shift
  if ! "$@" >"$logs/build_$name.log" 2>&1; then
    echo "FAIL build $name:"; tail -20 "$logs/build_$name.log"; status=1; return 1
  fi
}
build_one embed_gpu cc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall "${inc[@]}" \
  tests/gpu/embed/embed_gpu.c "${lib[@]}" -o "$bin/embed_gpu"
build_one runtime_stream "$nvcc" "${inc[@]}" examples/embed/runtime_stream.cu "${lib[@]}" -o "$bin/runtime_stream"
build_one graph_replay "$nvcc" "${inc[@]}" examples/embed/graph_replay.cu "${lib[@]}" -o "$bin/graph_replay"
build_one driver_context g++ -Wall "${inc[@]}" examples/embed/driver_context.cpp "${lib[@]}" -o "$bin/driver_context"
build_one embed_bench cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 "${inc[@]}" \
  bench/gpu/embed_bench.c "${lib[@]}" -o "$bin/embed_bench"
for f in examples/embed/*.c; do
  [ -e "$f" ] || continue
  n=$(basename "$f" .c)
  build_one "$n" cc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall "${inc[@]}" "$f" "${lib[@]}" -o "$bin/$n"
done

run() {  # NAME COMMAND...: runs, shows the tail, counts a failure
  local name=$1; shift
  [ -x "$1" ] || return 0
  timeout 300 "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  echo "$name: exit $rc"
  grep -E '^(FAIL|  )|embed_gpu:|wrong|replays|roundtrip|round trip' "$logs/$name.log" | head -30
  if [ $rc -ne 0 ]; then
    status=1
    tail -15 "$logs/$name.log" | sed 's/^/    | /'
    if command -v gdb >/dev/null 2>&1 && [ $rc -ge 128 ]; then
      gdb -batch -ex run -ex bt --args "$@" 2>&1 | tail -25 | sed 's/^/    gdb| /'
    fi
  fi
}
echo "== embedding tests (tests/gpu/embed)"
run embed_all "$bin/embed_gpu" tests/gpu/embed/kernels.py all
run embed_dead_stream "$bin/embed_gpu" tests/gpu/embed/kernels.py dead-stream
run embed_fault_own "$bin/embed_gpu" tests/gpu/embed/kernels.py fault-own
# the primary context after a fault: what the driver leaves is reported, not
# asserted beyond kjit's own behaviour (it resets nothing)
run embed_fault_primary "$bin/embed_gpu" tests/gpu/embed/kernels.py fault-primary
echo "== examples/embed"
for ex in runtime_stream driver_context graph_replay $(for f in examples/embed/*.c; do [ -e "$f" ] && basename "$f" .c; done); do
  run "example_$ex" "$bin/$ex"
done
echo "== bench: kjit in a CUDA program vs the raw driver"
if [ -x "$bin/embed_bench" ]; then
  timeout 300 "$bin/embed_bench" bench/gpu/kernels/launch_overhead.py "${LAUNCHES:-10000}" \
    >"$logs/embed_bench.log" 2>&1 || { echo "FAIL embed_bench"; status=1; }
  cat "$logs/embed_bench.log"
fi
echo "gpu_embed: $( [ $status -eq 0 ] && echo passed || echo FAILED )"
exit $status
