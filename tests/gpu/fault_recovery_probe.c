/* fault_recovery_probe.c - can this driver give a process a working CUDA
 * context back after a kernel fault?
 *
 * kjit's recovery (cuda/cuda_launch.c, rt_cuda_recover) resets the
 * primary context after a fault; some drivers keep an illegal address
 * sticky for the whole process, and then no sequence of driver calls
 * helps.  This program measures that with the plain driver API, one way
 * per process (the argument): it makes a kernel store to address 16, then
 * tries to get a context back and run a kernel that stores 42.
 *   0  release the primary context, reset it, retain it again
 *   1  a context made by cuCtxCreate: destroy it, create another
 *   2  reset the primary context without releasing it, retain it
 *   3  reset the primary context, then cuCtxCreate a new one
 * Prints each step's result and "recovered: yes|no"; exit 0 if recovered,
 * 1 if not, 2 if the setup itself failed.  The GPU suite builds it with the
 * toolkit's cuda.h and reports the outcome (it is a fact about the driver,
 * not a kjit test).
 *   cc -I/usr/local/cuda/include fault_recovery_probe.c -L/usr/local/cuda/lib64/stubs -lcuda */
#include <cuda.h>
#include <stdio.h>

static const char ptx[] =
    ".version 8.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry bad(.param .u64 p) {\n"
    "  .reg .b64 %a; .reg .b32 %v;\n"
    "  mov.u64 %a, 16; mov.u32 %v, 7; st.global.u32 [%a], %v; ret; }\n"
    ".visible .entry good(.param .u64 p) {\n"
    "  .reg .b64 %a; .reg .b32 %v;\n"
    "  ld.param.u64 %a, [p]; cvta.to.global.u64 %a, %a;\n"
    "  mov.u32 %v, 42; st.global.u32 [%a], %v; ret; }\n";

static const char *name_of(CUresult r) {
  const char *s = NULL;
  return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "?";
}

/* Reports a step; returns r. */
static CUresult step(const char *what, CUresult r) {
  printf("  %-40s %s\n", what, name_of(r));
  return r;
}

/* Loads the module and runs kernel `name` on a fresh 4-byte buffer; the
 * value it stored in *val.  Returns the first failure. */
static CUresult run(const char *name, int *val) {
  CUmodule m;
  CUfunction f;
  CUdeviceptr d;
  CUresult r = cuModuleLoadData(&m, ptx);
  if (r == CUDA_SUCCESS) r = cuModuleGetFunction(&f, m, name);
  if (r == CUDA_SUCCESS) r = cuMemAlloc(&d, 4);
  if (r == CUDA_SUCCESS) {
    void *args[] = {&d};
    r = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL);
  }
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  if (r == CUDA_SUCCESS) r = cuMemcpyDtoH(val, d, 4);
  return r;
}

/* Makes a new context the way `mode` says, after the fault. */
static CUresult reopen(int mode, CUdevice dev, CUcontext *ctx) {
  switch (mode) {
  case 0:
    step("cuCtxSetCurrent(NULL)", cuCtxSetCurrent(NULL));
    step("cuDevicePrimaryCtxRelease", cuDevicePrimaryCtxRelease(dev));
    step("cuDevicePrimaryCtxReset", cuDevicePrimaryCtxReset(dev));
    break;
  case 1:
    step("cuCtxDestroy", cuCtxDestroy(*ctx));
    return step("cuCtxCreate", cuCtxCreate(ctx, NULL, 0, dev));
  case 2:
    step("cuDevicePrimaryCtxReset", cuDevicePrimaryCtxReset(dev));
    break;
  default:
    step("cuCtxSetCurrent(NULL)", cuCtxSetCurrent(NULL));
    step("cuDevicePrimaryCtxRelease", cuDevicePrimaryCtxRelease(dev));
    step("cuDevicePrimaryCtxReset", cuDevicePrimaryCtxReset(dev));
    return step("cuCtxCreate", cuCtxCreate(ctx, NULL, 0, dev));
  }
  CUresult r = step("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(ctx, dev));
  return r == CUDA_SUCCESS ? step("cuCtxSetCurrent", cuCtxSetCurrent(*ctx)) : r;
}

int main(int argc, char **argv) {
  int mode = argc > 1 ? argv[1][0] - '0' : 0, val = 0;
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS)
    return puts("  no CUDA device"), 2;
  CUresult r = mode == 1 ? cuCtxCreate(&ctx, NULL, 0, dev) : cuDevicePrimaryCtxRetain(&ctx, dev);
  if (r == CUDA_SUCCESS && mode != 1)
    r = cuCtxSetCurrent(ctx);
  if (r != CUDA_SUCCESS)
    return printf("  setup: %s\n", name_of(r)), 2;
  printf("way %d\n", mode);
  step("kernel storing to address 16", run("bad", &val));
  r = reopen(mode, dev, &ctx);
  if (r == CUDA_SUCCESS)
    r = step("kernel storing 42 afterwards", run("good", &val));
  int ok = r == CUDA_SUCCESS && val == 42;
  printf("  recovered: %s\n", ok ? "yes" : "no");
  return ok ? 0 : 1;
}
