// runtime_stream.cu - a CUDA runtime program (its own cudaMalloc, its own
// stream, its own nvcc kernel) hands its memory and stream to a kjit kernel:
// produce<<<>>> fills x, kjit's saxpy computes y = 2x + y on the same stream,
// check<<<>>> counts wrong values; nothing is copied through the host.
//   nvcc -Iinclude examples/embed/runtime_stream.cu -Lbuild -lkjit -lcuda -o build/runtime_stream && build/runtime_stream
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

#include "kjit.h"

__global__ void produce(float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { x[i] = (float)i; y[i] = 1.0f; }
}

__global__ void check(const float *y, int n, int *bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && y[i] != 2.0f * i + 1.0f) atomicAdd(bad, 1);
}

#define TRY(x) do { kjit_status s_ = (x); if (s_ != KJIT_OK) { \
  std::fprintf(stderr, "%s: %s\n", #x, kjit_last_error(ctx)); return 1; } } while (0)

int main() {
  const int n = 1 << 20;
  float *x, *y;
  int *bad;
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaMalloc(&x, n * sizeof(float));
  cudaMallocAsync(&y, n * sizeof(float), stream);     // a stream-ordered pool
  cudaMallocManaged(&bad, sizeof(int));
  *bad = 0;

  kjit_context *ctx = nullptr;                        // the primary context:
  kjit_context_options opts;                          // the runtime's own
  kjit_context_options_init(&opts);
  opts.target = KJIT_TARGET_CUDA;
  kjit_context_create(&opts, &ctx);
  kjit_program *prog = nullptr;
  kjit_kernel *saxpy = nullptr;
  TRY(kjit_program_load_file(ctx, "examples/embed/kernels.py", &prog));
  TRY(kjit_program_kernel(prog, "saxpy", &saxpy));
  int64_t shape = n;
  kjit_array *ax = nullptr, *ay = nullptr;
  TRY(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &shape, nullptr, (uint64_t)(uintptr_t)x, &ax));
  TRY(kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &shape, nullptr, (uint64_t)(uintptr_t)y, &ay));

  produce<<<(n + 255) / 256, 256, 0, stream>>>(x, y, n);
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = (n + 255) / 256;
  cfg.block[0] = 256;
  cfg.stream = stream;                                // after produce, before check
  kjit_arg args[] = {kjit_arg_f64(2.0), kjit_arg_array(ax), kjit_arg_array(ay)};
  TRY(kjit_launch(saxpy, &cfg, args, 3));
  check<<<(n + 255) / 256, 256, 0, stream>>>(y, n, bad);
  cudaStreamSynchronize(stream);
  int wrong = *bad;
  std::printf("runtime_stream: %d of %d values wrong\n", wrong, n);

  kjit_array_destroy(ax);                             // the memory stays ours
  kjit_array_destroy(ay);
  kjit_context_destroy(ctx);
  cudaFreeAsync(y, stream);
  cudaFree(x);
  cudaFree(bad);
  cudaStreamDestroy(stream);
  return wrong == 0 && cudaGetLastError() == cudaSuccess ? 0 : 1;
}
