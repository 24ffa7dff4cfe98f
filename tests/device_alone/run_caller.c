/* run_caller.c CUBIN - loads the linked cubin (caller.cu + funcs.py's
 * device functions), runs call_them and checks the values against C's
 * math.  Exit 0 when they agree, 77 without a GPU, 1 otherwise. */
#include <cuda.h>
#include <math.h>
#include <stdio.h>

int main(int argc, char **argv) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CUdeviceptr d, f;
  if (argc != 2) return 2;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS)
    return puts("SKIP: no CUDA device"), 77;
  if (cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx) || cuModuleLoad(&mod, argv[1]) ||
      cuModuleGetFunction(&fn, mod, "call_them") || cuMemAlloc(&d, 16) || cuMemAlloc(&f, 4))
    return puts("FAIL: load"), 1;
  void *args[] = {&d, &f};
  double hd[2];
  float hf;
  if (cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL) || cuCtxSynchronize() ||
      cuMemcpyDtoH(hd, d, 16) || cuMemcpyDtoH(&hf, f, 4))
    return puts("FAIL: launch"), 1;
  double w0 = -(sin(0.5) + 0.25), w1 = sin(2.0) + 4.0;
  int ok = fabs(hd[0] - w0) < 1e-12 && fabs(hd[1] - w1) < 1e-12 && hf == 6.5f;
  printf("%s: wave %.12f %.12f (want %.12f %.12f), axpy %g (want 6.5)\n", ok ? "ok" : "FAIL",
         hd[0], hd[1], w0, w1, (double)hf);
  return ok ? 0 : 1;
}
