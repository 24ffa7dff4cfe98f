/* raw_launch.c - the floor for launch overhead: raw cuLaunchKernel of the
 * kernels kjit compiled from bench/gpu/kernels/launch_overhead.py.
 *
 *   kjit ptx bench/gpu/kernels/launch_overhead.py --arch sm_90 -o lo.ptx
 *   raw_launch lo.ptx [LAUNCHES]
 *
 * Opens libcuda.so.1 with dlopen (no toolkit needed to build), loads the PTX
 * with cuModuleLoadData on device 0's primary context, finds the entries
 * tiny1* and tiny4* (kjit mangles names with the signature), and times
 * LAUNCHES back-to-back cuLaunchKernel calls of 1 block x 32 threads on the
 * default stream, then cuCtxSynchronize: best of 3 batches, microseconds per
 * launch (after 100 warm-up launches) - the same loop as kjit_bench.c and
 * numba_bench.py.  Arguments are passed as kjit lays them out: a 1-D array
 * is a 24-byte struct {data, shape[0], strides[0]} by value.
 *
 * Output:
 *   OVERHEAD impl=raw args=K us_per_launch=U launches=L
 *   COMPILE impl=raw what=driver_ptx_jit_tiny ms=T   (cuModuleLoadData)
 *   INFO impl=raw driver=13000 device=NAME
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream;

static CUresult (*cuInit)(unsigned);
static CUresult (*cuDriverGetVersion)(int *);
static CUresult (*cuDeviceGet)(CUdevice *, int);
static CUresult (*cuDeviceGetName)(char *, int, CUdevice);
static CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
static CUresult (*cuCtxSetCurrent)(CUcontext);
static CUresult (*cuCtxSynchronize)(void);
static CUresult (*cuModuleLoadData)(CUmodule *, const void *);
static CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  unsigned, unsigned, CUstream, void **, void **);
static CUresult (*cuGetErrorName)(CUresult, const char **);

static void check(CUresult r, const char *what) {
  if (r != 0) {
    const char *name = "?";
    if (cuGetErrorName)
      cuGetErrorName(r, &name);
    fprintf(stderr, "raw_launch: %s failed: %s (%d)\n", what, name, r);
    exit(1);
  }
}

static void *sym(void *lib, const char *name) {
  void *p = dlsym(lib, name);
  if (!p) {
    fprintf(stderr, "raw_launch: libcuda.so.1 has no %s\n", name);
    exit(1);
  }
  return p;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "raw_launch: cannot read %s\n", path);
    exit(1);
  }
  buf[n] = 0;
  fclose(f);
  return buf;
}

/* The name of the first `.entry PREFIX...(` in the PTX. */
static int entry_name(const char *ptx, const char *prefix, char *out, size_t cap) {
  for (const char *p = ptx; (p = strstr(p, ".entry ")) != NULL; p += 7) {
    const char *s = p + 7;
    if (strncmp(s, prefix, strlen(prefix)) != 0)
      continue;
    size_t n = strcspn(s, "( \t\n");
    if (n + 1 > cap)
      return 0;
    memcpy(out, s, n);
    out[n] = 0;
    return 1;
  }
  return 0;
}

typedef struct Arr1 {
  CUdeviceptr data;
  int64_t shape, stride;
} Arr1;

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s LAUNCH_OVERHEAD.ptx [LAUNCHES]\n", argv[0]);
    return 2;
  }
  int launches = argc > 2 ? atoi(argv[2]) : 10000;
  if (launches < 1)
    launches = 1;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "raw_launch: cannot open libcuda.so.1: %s\n", dlerror());
    return 1;
  }
  *(void **)&cuInit = sym(lib, "cuInit");
  *(void **)&cuDriverGetVersion = sym(lib, "cuDriverGetVersion");
  *(void **)&cuDeviceGet = sym(lib, "cuDeviceGet");
  *(void **)&cuDeviceGetName = sym(lib, "cuDeviceGetName");
  *(void **)&cuDevicePrimaryCtxRetain = sym(lib, "cuDevicePrimaryCtxRetain");
  *(void **)&cuCtxSetCurrent = sym(lib, "cuCtxSetCurrent");
  *(void **)&cuCtxSynchronize = sym(lib, "cuCtxSynchronize");
  *(void **)&cuModuleLoadData = sym(lib, "cuModuleLoadData");
  *(void **)&cuModuleGetFunction = sym(lib, "cuModuleGetFunction");
  *(void **)&cuMemAlloc = sym(lib, "cuMemAlloc_v2");
  *(void **)&cuLaunchKernel = sym(lib, "cuLaunchKernel");
  *(void **)&cuGetErrorName = sym(lib, "cuGetErrorName");

  check(cuInit(0), "cuInit");
  int ver = 0;
  check(cuDriverGetVersion(&ver), "cuDriverGetVersion");
  CUdevice dev;
  check(cuDeviceGet(&dev, 0), "cuDeviceGet");
  char name[256] = "";
  check(cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName");
  CUcontext ctx;
  check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  printf("INFO impl=raw driver=%d device=%s\n", ver, name);

  char *ptx = read_file(argv[1]);
  CUmodule mod;
  double t0 = now_ms();
  check(cuModuleLoadData(&mod, ptx), "cuModuleLoadData");
  printf("COMPILE impl=raw what=driver_ptx_jit_tiny ms=%.3f\n", now_ms() - t0);

  Arr1 arrs[4];
  for (int i = 0; i < 4; i++) {
    check(cuMemAlloc(&arrs[i].data, 32 * sizeof(float)), "cuMemAlloc");
    arrs[i].shape = 32;
    arrs[i].stride = sizeof(float);
  }
  void *params[4] = {&arrs[0], &arrs[1], &arrs[2], &arrs[3]};

  for (int nargs = 1; nargs <= 4; nargs += 3) {
    char entry[512];
    if (!entry_name(ptx, nargs == 1 ? "tiny1" : "tiny4", entry, sizeof entry)) {
      fprintf(stderr, "raw_launch: no .entry tiny%d* in %s\n", nargs, argv[1]);
      return 1;
    }
    CUfunction f;
    check(cuModuleGetFunction(&f, mod, entry), "cuModuleGetFunction");
    for (int i = 0; i < 100; i++)
      check(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), "cuLaunchKernel");
    check(cuCtxSynchronize(), "cuCtxSynchronize");
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
      double t = now_ms();
      for (int i = 0; i < launches; i++)
        check(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), "cuLaunchKernel");
      check(cuCtxSynchronize(), "cuCtxSynchronize");
      double us = (now_ms() - t) * 1e3 / launches;
      if (us < best)
        best = us;
    }
    printf("OVERHEAD impl=raw args=%d us_per_launch=%.3f launches=%d\n", nargs, best, launches);
    fflush(stdout);
  }
  free(ptx);
  return 0;
}
