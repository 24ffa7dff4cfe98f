// driver_context.cpp - a driver-API program with a context of its own
// (cuCtxCreate, not the primary one): kjit runs in it, on memory allocated
// in it, and leaves it to the program.
//   g++ -Iinclude -I/usr/local/cuda/include examples/embed/driver_context.cpp -Lbuild -lkjit -L/usr/local/cuda/lib64/stubs -lcuda -o build/driver_context && build/driver_context
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda.h>

#include "kjit.h"

int main() {
  const int n = 4096;
  CUdevice dev;
  CUcontext mine;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS) {
    std::fprintf(stderr, "driver_context: no CUDA device\n");
    return 1;
  }
  cuCtxCreate(&mine, nullptr, 0, dev);                // current on this thread
  CUdeviceptr v;
  cuMemAlloc(&v, n * sizeof(float));
  cuMemsetD32(v, 0, n);

  kjit_context_options opts;
  kjit_context_options_init(&opts);
  opts.target = KJIT_TARGET_CUDA;
  opts.cuda_context = mine;                           // or KJIT_CUDA_CONTEXT_CURRENT
  kjit_context *ctx = nullptr;
  kjit_program *prog = nullptr;
  kjit_kernel *incr = nullptr;
  kjit_array *a = nullptr;
  int64_t shape = n;
  kjit_context_create(&opts, &ctx);
  if (kjit_program_load_file(ctx, "examples/embed/kernels.py", &prog) != KJIT_OK ||
      kjit_program_kernel(prog, "incr", &incr) != KJIT_OK ||
      kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &shape, nullptr, v, &a) != KJIT_OK) {
    std::fprintf(stderr, "driver_context: %s\n", kjit_last_error(ctx));
    return 1;
  }
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = n / 128;
  cfg.block[0] = 128;
  kjit_arg arg = kjit_arg_array(a);
  for (int i = 0; i < 3; i++)
    kjit_launch(incr, &cfg, &arg, 1);
  if (kjit_synchronize(ctx) != KJIT_OK) {
    std::fprintf(stderr, "driver_context: %s\n", kjit_last_error(ctx));
    return 1;
  }
  kjit_array_destroy(a);
  kjit_context_destroy(ctx);                          // our context lives on

  std::vector<float> h(n);
  cuMemcpyDtoH(h.data(), v, n * sizeof(float));
  int bad = 0;
  for (float x : h) bad += x != 3.0f;
  std::printf("driver_context: %d of %d values wrong (kjit ran in the program's own context)\n", bad, n);
  cuMemFree(v);
  cuCtxDestroy(mine);
  return bad == 0 ? 0 : 1;
}
