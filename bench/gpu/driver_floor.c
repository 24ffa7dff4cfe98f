/* driver_floor.c - the physical floor of a fresh process's first GPU result:
 * what any program must do for the 1 Mi vector add besides compiling -
 * load the driver, cuInit, retain and bind the primary context, allocate
 * three 4 MiB arrays, copy two in and one out - and nothing else (no
 * module, no launch).  `kjit run` of the same vector add with a warm cache
 * is compared with it (bench/run_first_result.sh).  Exit 0 on success.
 * With -t it prints, as KJIT_TRACE=1 does for kjit, the milliseconds since
 * the program was loaded at each step, so the two timelines line up. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double t0_ms;
static int tracing;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((constructor)) static void loaded(void) { t0_ms = now_ms(); }

static void stamp(const char *what) {
  if (tracing)
    fprintf(stderr, "floor: trace: %8.1f ms %s\n", now_ms() - t0_ms, what);
}

typedef int (*Fn)();

int main(int argc, char **argv) {
  tracing = argc > 1 && strcmp(argv[1], "-t") == 0;
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  if (!h) {
    fprintf(stderr, "driver_floor: %s\n", dlerror());
    return 1;
  }
  Fn init = (Fn)dlsym(h, "cuInit"), dev = (Fn)dlsym(h, "cuDeviceGet");
  Fn retain = (Fn)dlsym(h, "cuDevicePrimaryCtxRetain"), cur = (Fn)dlsym(h, "cuCtxSetCurrent");
  Fn alloc = (Fn)dlsym(h, "cuMemAlloc_v2"), htod = (Fn)dlsym(h, "cuMemcpyHtoD_v2");
  Fn dtoh = (Fn)dlsym(h, "cuMemcpyDtoH_v2");
  if (!init || !dev || !retain || !cur || !alloc || !htod || !dtoh)
    return 1;
  enum { N = 1 << 20 };
  size_t bytes = N * sizeof(float);
  float *host = malloc(bytes);
  if (!host)
    return 1;
  for (int i = 0; i < N; i++)
    host[i] = (float)i;
  int d;
  void *ctx;
  unsigned long long a[3];
  stamp("driver loaded");
  if (init(0) || dev(&d, 0))
    return 1;
  stamp("cuInit done");
  if (retain(&ctx, d) || cur(ctx))
    return 1;
  stamp("context ready");
  for (int i = 0; i < 3; i++)
    if (alloc(&a[i], bytes))
      return 1;
  stamp("allocated");
  if (htod(a[0], host, bytes) || htod(a[1], host, bytes) || dtoh(host, a[2], bytes))
    return 1;
  stamp("copies done");
  free(host);
  return 0;
}
