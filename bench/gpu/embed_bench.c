/* embed_bench.c - kjit inside a CUDA program, against the raw driver:
 *   1. launch overhead on the program's own stream with its own memory
 *      (kjit_array_wrap_device): kjit_launch vs cuLaunchKernel of the same
 *      PTX (kjit_program_emit), 1 and 4 array arguments, 1 block of 32;
 *   2. CUDA graph replay: 1000 launches captured into one graph, kjit's
 *      (kjit_kernel_prepare, then kjit_launch under capture) vs raw.
 *   embed_bench LAUNCH_OVERHEAD.py [LAUNCHES]
 * Prints "EMBED impl=raw|kjit args=K us_per_launch=U" and
 * "GRAPH impl=raw|kjit us_per_kernel=U" (interleaved batches, best of 7; graphs: best of 5 replays), then a table. */
#include <cuda.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kjit.h"

#define CU(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { \
  fprintf(stderr, "embed_bench: %s: %d\n", #x, r_); exit(1); } } while (0)

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

typedef struct { CUdeviceptr p; int64_t shape, stride; } Arr1; /* kjit's 1-D array ABI */

/* The raw function of kernel `name` with `sig`, from kjit's own PTX. */
static CUfunction raw_function(kjit_program *prog, const char *name, const char *sig) {
  char *ptx = NULL;
  size_t len = 0;
  if (kjit_program_emit(prog, name, sig, NULL, KJIT_EMIT_PTX, &ptx, &len) != KJIT_OK) {
    fprintf(stderr, "embed_bench: emit %s\n", name);
    exit(1);
  }
  const char *e = strstr(ptx, ".entry ");
  char entry[512] = "";
  if (e)
    sscanf(e + 7, "%511[^( \n]", entry);
  CUmodule m;
  CUfunction f;
  CU(cuModuleLoadData(&m, ptx));
  CU(cuModuleGetFunction(&f, m, entry));
  kjit_free(ptx);
  return f;
}

typedef struct State State;
static double run_raw(void *p, int n);
static double run_kjit(void *p, int n);

/* Raw and kjit batches interleaved (so both see the same clocks and
 * queue state), the best of 7 of each. */
static void best_pair(State *st, int launches, double *raw, double *kj) {
  run_raw(st, 200);
  run_kjit(st, 200);
  *raw = *kj = 1e30;
  for (int r = 0; r < 7; r++) {
    double a = run_raw(st, launches), b = run_kjit(st, launches);
    if (a < *raw) *raw = a;
    if (b < *kj) *kj = b;
  }
}

struct State {
  CUstream s;
  CUfunction raw;
  void *params[4];
  kjit_kernel *k;
  kjit_launch_config cfg;
  kjit_arg args[4];
  int nargs;
};

static double run_raw(void *p, int n) {
  State *st = p;
  CU(cuStreamSynchronize(st->s));
  double t0 = now_us();
  for (int i = 0; i < n; i++)
    CU(cuLaunchKernel(st->raw, 1, 1, 1, 32, 1, 1, 0, st->s, st->params, NULL));
  CU(cuStreamSynchronize(st->s));
  return (now_us() - t0) / n;
}

static double run_kjit(void *p, int n) {
  State *st = p;
  CU(cuStreamSynchronize(st->s));
  double t0 = now_us();
  for (int i = 0; i < n; i++)
    if (kjit_launch(st->k, &st->cfg, st->args, st->nargs) != KJIT_OK) {
      fprintf(stderr, "embed_bench: kjit_launch failed\n");
      exit(1);
    }
  CU(cuStreamSynchronize(st->s));
  return (now_us() - t0) / n;
}

/* A graph of `n` launches, captured by `launch`, replayed 5 times: the
 * best replay's time per kernel, by events. */
static double graph_us(State *st, bool kjit, int n) {
  CUgraph g;
  CUgraphExec ge;
  CU(cuStreamBeginCapture(st->s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  for (int i = 0; i < n; i++) {
    if (kjit)
      kjit_launch(st->k, &st->cfg, st->args, st->nargs);
    else
      CU(cuLaunchKernel(st->raw, 1, 1, 1, 32, 1, 1, 0, st->s, st->params, NULL));
  }
  CU(cuStreamEndCapture(st->s, &g));
  CU(cuGraphInstantiate(&ge, g, 0));
  CUevent a, b;
  CU(cuEventCreate(&a, 0));
  CU(cuEventCreate(&b, 0));
  CU(cuGraphLaunch(ge, st->s));                 /* warm-up */
  double best = 1e30;
  for (int r = 0; r < 5; r++) {
    CU(cuEventRecord(a, st->s));
    CU(cuGraphLaunch(ge, st->s));
    CU(cuEventRecord(b, st->s));
    CU(cuEventSynchronize(b));
    float ms = 0;
    CU(cuEventElapsedTime(&ms, a, b));
    if (ms * 1e3 / n < best)
      best = ms * 1e3 / n;
  }
  cuGraphExecDestroy(ge);
  cuGraphDestroy(g);
  return best;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: embed_bench LAUNCH_OVERHEAD.py [LAUNCHES]\n");
    return 2;
  }
  int launches = argc > 2 ? atoi(argv[2]) : 10000;
  CUdevice dev;
  CUcontext primary;
  CU(cuInit(0));
  CU(cuDeviceGet(&dev, 0));
  CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CU(cuCtxSetCurrent(primary));
  kjit_context *ctx;
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CUDA;
  kjit_context_create(&o, &ctx);
  kjit_program *prog;
  if (kjit_program_load_file(ctx, argv[1], &prog) != KJIT_OK) {
    fprintf(stderr, "embed_bench: %s\n", kjit_last_error(ctx));
    return 1;
  }
  State st;
  memset(&st, 0, sizeof st);
  CU(cuStreamCreate(&st.s, CU_STREAM_NON_BLOCKING));
  Arr1 raw[4];
  int64_t n = 32;
  for (int i = 0; i < 4; i++) {
    CU(cuMemAlloc(&raw[i].p, 32 * 4));
    CU(cuMemsetD32(raw[i].p, 0, 32));
    raw[i].shape = 32;
    raw[i].stride = 4;
    st.params[i] = &raw[i];
    kjit_array *a;
    if (kjit_array_wrap_device(ctx, KJIT_FLOAT32, 1, &n, NULL, raw[i].p, &a) != KJIT_OK) {
      fprintf(stderr, "embed_bench: %s\n", kjit_last_error(ctx));
      return 1;
    }
    st.args[i] = kjit_arg_array(a);
  }
  kjit_launch_config_init(&st.cfg);
  st.cfg.block[0] = 32;
  st.cfg.stream = st.s;
  double ov[2][2], gr[2];
  for (int which = 0; which < 2; which++) {
    st.nargs = which ? 4 : 1;
    const char *name = which ? "tiny4" : "tiny1";
    kjit_program_kernel(prog, name, &st.k);
    st.raw = raw_function(prog, name,
                          which ? "void(float32[::1], float32[::1], float32[::1], float32[::1])"
                                : "void(float32[::1])");
    best_pair(&st, launches, &ov[which][0], &ov[which][1]);
    printf("EMBED impl=raw args=%d us_per_launch=%.3f launches=%d\n", st.nargs, ov[which][0], launches);
    printf("EMBED impl=kjit args=%d us_per_launch=%.3f launches=%d stream=caller wrapped=yes\n",
           st.nargs, ov[which][1], launches);
    if (which == 0) {
      if (kjit_kernel_prepare(st.k, &st.cfg, st.args, 1) != KJIT_OK) {
        fprintf(stderr, "embed_bench: prepare: %s\n", kjit_last_error(ctx));
        return 1;
      }
      gr[0] = graph_us(&st, false, 1000);
      gr[1] = graph_us(&st, true, 1000);
      printf("GRAPH impl=raw us_per_kernel=%.3f kernels=1000\n", gr[0]);
      printf("GRAPH impl=kjit us_per_kernel=%.3f kernels=1000\n", gr[1]);
    }
  }
  printf("\n| measure | raw driver | kjit | kjit - raw | bar |\n| --- | ---: | ---: | ---: | --- |\n");
  for (int w = 0; w < 2; w++)
    printf("| launch, caller's stream, wrapped arrays, %d arg%s (us) | %.3f | %.3f | %+.3f | <= +0.3 us |\n",
           w ? 4 : 1, w ? "s" : "", ov[w][0], ov[w][1], ov[w][1] - ov[w][0]);
  printf("| graph replay per kernel, 1000 kernels (us) | %.3f | %.3f | %+.1f%% | within 5%% |\n", gr[0],
         gr[1], (gr[1] / gr[0] - 1) * 100);
  kjit_context_destroy(ctx);
  return 0;
}
