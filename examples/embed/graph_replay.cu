// graph_replay.cu - kjit launches captured into the program's CUDA graph
// beside one of its own kernels, replayed 1000 times.  kjit_kernel_prepare
// compiles and loads beforehand: under capture a kjit launch records only
// the kernel node.
//   nvcc -Iinclude examples/embed/graph_replay.cu -Lbuild -lkjit -lcuda -o build/graph_replay && build/graph_replay
#include <cstdio>
#include <cuda_runtime.h>

#include "kjit.h"

__global__ void double_it(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 0.5f;                            // halves; kjit adds 1 twice
}

int main() {
  const int n = 1 << 16, replays = 1000;
  float *v;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMalloc(&v, n * sizeof(float));
  cudaMemsetAsync(v, 0, n * sizeof(float), s);

  kjit_context *ctx = nullptr;
  kjit_program *prog = nullptr;
  kjit_kernel *incr = nullptr;
  kjit_array *a = nullptr;
  kjit_context_options opts;
  kjit_context_options_init(&opts);
  opts.target = KJIT_TARGET_CUDA;
  kjit_context_create(&opts, &ctx);
  int64_t shape = n;
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = n / 256;
  cfg.block[0] = 256;
  cfg.stream = s;
  if (kjit_program_load_file(ctx, "examples/embed/kernels.py", &prog) != KJIT_OK ||
      kjit_program_kernel(prog, "incr", &incr) != KJIT_OK ||
      kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &shape, nullptr, (uint64_t)(uintptr_t)v, &a) != KJIT_OK) {
    std::fprintf(stderr, "graph_replay: %s\n", kjit_last_error(ctx));
    return 1;
  }
  kjit_arg arg = kjit_arg_array(a);
  kjit_kernel_prepare(incr, &cfg, &arg, 1);           // compile + load now

  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kjit_status st = kjit_launch(incr, &cfg, &arg, 1);  // v + 1
  double_it<<<n / 256, 256, 0, s>>>(v, n);            // (v + 1) / 2
  if (st == KJIT_OK) st = kjit_launch(incr, &cfg, &arg, 1); // + 1
  cudaStreamEndCapture(s, &graph);
  if (st != KJIT_OK) {
    std::fprintf(stderr, "graph_replay: %s\n", kjit_last_error(ctx));
    return 1;
  }
  cudaGraphInstantiate(&exec, graph, 0);
  for (int r = 0; r < replays; r++)                   // v -> (v + 1) / 2 + 1: 0 -> 1.5 -> ... -> 3
    cudaGraphLaunch(exec, s);
  float h[4];
  cudaMemcpyAsync(h, v, sizeof h, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  std::printf("graph_replay: %d replays of kjit + own kernel + kjit: v[0] = %g (expected 3)\n", replays, h[0]);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  kjit_array_destroy(a);
  kjit_context_destroy(ctx);
  cudaFree(v);
  cudaStreamDestroy(s);
  return h[0] == 3.0f ? 0 : 1;
}
