/* kjit_vectorize.c - the elementwise benchmark under kjit: the @vectorize
 * ufunc of bench/gpu/kernels/vectorize_add.py (float32 a + b) applied with
 * kjit_ufunc_call to device arrays of 2^26 elements, through the public C
 * API only.
 *
 * A ufunc call on device arrays is asynchronous and the runtime does not
 * time it, so the time is taken the way a caller sees the throughput: W
 * warm-up calls, a kjit_synchronize, then N calls enqueued back to back
 * (the out array given, so nothing is allocated) and one kjit_synchronize;
 * time per call = wall time / N, repeated R times, median.  Host work per
 * call is far below the kernel's time, so the queue never runs dry; the
 * gaps between kernels on the GPU are counted, which events around each
 * launch would not count.  elementwise.sh times the CUDA C kernel the same
 * way too, for a like-for-like row.
 *
 * Output (parsed by elementwise.py):
 *   EW impl=kjit method=wall ms=M bytes=B n=N checksum=C
 *
 * Usage: kjit_vectorize FILE.py [-n N] [-w W] [-r R] [--elems E]
 *                       [--target cuda|cpu]   (cpu: host arrays, to test)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kjit.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* bench_common.h's input formula and checksum. */
static double u01(uint32_t i, uint32_t seed) {
  return (double)(uint32_t)(i * 2654435761u + seed * 97531u) / 4294967296.0;
}

static kjit_array *input(kjit_context *ctx, int64_t n, uint32_t seed) {
  kjit_array *a = NULL;
  if (kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &a) != KJIT_OK)
    return NULL;
  float *p = kjit_array_data(a);
  for (int64_t i = 0; i < n; i++)
    p[i] = (float)u01((uint32_t)i, seed);
  return a;
}

static double checksum(const kjit_array *a) {
  const float *p = kjit_array_data(a);
  double s = 0.0;
  for (int64_t k = 0; k < kjit_array_size(a); k++)
    s += (double)p[k] * (double)(1 + k % 7);
  return s;
}

static int fail(kjit_context *ctx, const char *what) {
  fprintf(stderr, "kjit_vectorize: %s: %s\n", what, kjit_last_error(ctx));
  return 1;
}

/* The arrays the ufunc runs on: device copies on the cuda target, the host
 * arrays themselves on the cpu target. */
static kjit_array *place(kjit_context *ctx, kjit_array *host, int device) {
  kjit_array *d = NULL;
  if (!device)
    return host;
  return kjit_array_to_device(ctx, host, &d) == KJIT_OK ? d : NULL;
}

int main(int argc, char **argv) {
  int n = 50, warm = 5, reps = 5, device = 1;
  int64_t elems = (int64_t)1 << 26;
  const char *file = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) n = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-w") && i + 1 < argc) warm = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--elems") && i + 1 < argc) elems = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--target") && i + 1 < argc) device = strcmp(argv[++i], "cpu") != 0;
    else if (!file && argv[i][0] != '-') file = argv[i];
    else {
      fprintf(stderr, "usage: %s FILE.py [-n N] [-w W] [-r R] [--elems E] [--target cuda|cpu]\n", argv[0]);
      return 2;
    }
  }
  if (!file || n < 1 || reps < 1 || reps > 64 || elems < 1) {
    fprintf(stderr, "kjit_vectorize: need FILE.py, N >= 1, 1 <= R <= 64, E >= 1\n");
    return 2;
  }
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = device ? KJIT_TARGET_CUDA : KJIT_TARGET_CPU;
  kjit_context *ctx = NULL;
  if (kjit_context_create(&o, &ctx) != KJIT_OK) {
    fputs("kjit_vectorize: cannot create a context\n", stderr);
    return 1;
  }
  kjit_program *prog = NULL;
  kjit_ufunc *add = NULL;
  if (kjit_program_load_file(ctx, file, &prog) != KJIT_OK ||
      kjit_program_ufunc(prog, "add", &add) != KJIT_OK)
    return fail(ctx, file);
  kjit_array *ha = input(ctx, elems, 1), *hb = input(ctx, elems, 2), *hout = NULL;
  if (!ha || !hb || kjit_array_create(ctx, KJIT_FLOAT32, 1, &elems, &hout) != KJIT_OK)
    return fail(ctx, "host arrays");
  kjit_array *a = place(ctx, ha, device), *b = place(ctx, hb, device), *out = NULL;
  if (device && kjit_array_create_device(ctx, KJIT_FLOAT32, 1, &elems, &out) != KJIT_OK)
    return fail(ctx, "device arrays");
  if (!device)
    out = hout;
  if (!a || !b)
    return fail(ctx, "device arrays");
  kjit_arg args[2] = {kjit_arg_array(a), kjit_arg_array(b)};
  kjit_array *res = NULL;
  for (int i = 0; i <= warm; i++)     /* the first call compiles */
    if (kjit_ufunc_call(add, args, 2, out, &res) != KJIT_OK)
      return fail(ctx, "kjit_ufunc_call");
  if (kjit_synchronize(ctx) != KJIT_OK)
    return fail(ctx, "kjit_synchronize");
  double ms[64];
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    for (int i = 0; i < n; i++)
      if (kjit_ufunc_call(add, args, 2, out, &res) != KJIT_OK)
        return fail(ctx, "kjit_ufunc_call");
    if (kjit_synchronize(ctx) != KJIT_OK)
      return fail(ctx, "kjit_synchronize");
    ms[r] = (now_ms() - t0) / n;
  }
  qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
  if (device && kjit_array_copy(hout, out) != KJIT_OK)
    return fail(ctx, "kjit_array_copy");
  printf("EW impl=kjit method=wall ms=%.6f bytes=%lld n=%d checksum=%.17g\n", ms[reps / 2],
         (long long)(3 * 4 * elems), n, checksum(hout));
  kjit_context_destroy(ctx);
  return 0;
}
