/* kjit_bench_reduce.c - the @cuda.reduce benchmark through kjit's C API:
 * kjit_reduce of bench/gpu/kernels/cuda_reduce.py:sum_reduce over 2^26
 * float32 (bench_common.h's inputs, seed 5) held in a device array.
 *
 * One reduction = one synchronous kjit_reduce call (both launches and the
 * copy of the value to the host), timed with the wall clock; the first call
 * (which compiles) is not timed, then W warm-up calls, then the median of N.
 * Prints (parsed by report_reduce.py):
 *   REDUCE impl=kjit call_ms=M n=N bytes=B value=V
 *   ERROR impl=kjit kernel=cuda_reduce message
 *
 * Usage: kjit_bench_reduce --kernels DIR [-n N] [-w W] [--target cuda|cpu] */
#define _POSIX_C_SOURCE 200809L
#include <kjit.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int fail(kjit_context *ctx, const char *what) {
  char *msg = strdup(kjit_last_error(ctx));
  for (char *p = msg; p && *p; p++)
    if (*p == '\n') *p = ' ';
  printf("ERROR impl=kjit kernel=cuda_reduce %s: %s\n", what, msg ? msg : "?");
  free(msg);
  return 1;
}

/* bench_common.h's bench_fill_f32(v, 5, 0.0, 1.0). */
static void fill(float *p, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    p[i] = (float)((double)(uint32_t)((uint32_t)i * 2654435761u + 5u * 97531u) / 4294967296.0);
}

static int bench(kjit_context *ctx, const char *dir, int n, int warm) {
  char path[4096];
  snprintf(path, sizeof path, "%s/cuda_reduce.py", dir);
  kjit_program *prog;
  kjit_reduction *r;
  if (kjit_program_load_file(ctx, path, &prog) != KJIT_OK ||
      kjit_program_reduction(prog, "sum_reduce", &r) != KJIT_OK)
    return fail(ctx, "load");
  int64_t len = (int64_t)1 << 26;
  kjit_array *host, *x = NULL;
  if (kjit_array_create(ctx, KJIT_FLOAT32, 1, &len, &host) != KJIT_OK)
    return fail(ctx, "kjit_array_create");
  fill(kjit_array_data(host), len);
  kjit_target t;
  kjit_context_target(ctx, &t);
  if (t == KJIT_TARGET_CUDA && kjit_array_to_device(ctx, host, &x) != KJIT_OK)
    return fail(ctx, "kjit_array_to_device");
  kjit_array *in = x ? x : host;
  kjit_value v;
  double *ms = calloc((size_t)n, sizeof *ms);
  if (!ms || kjit_reduce(r, in, NULL, &v) != KJIT_OK)
    return fail(ctx, "kjit_reduce");
  for (int i = 0; i < warm; i++)
    if (kjit_reduce(r, in, NULL, &v) != KJIT_OK)
      return fail(ctx, "kjit_reduce");
  for (int i = 0; i < n; i++) {
    double t0 = now_ms();
    if (kjit_reduce(r, in, NULL, &v) != KJIT_OK)
      return fail(ctx, "kjit_reduce");
    ms[i] = now_ms() - t0;
  }
  qsort(ms, (size_t)n, sizeof *ms, cmp_double);
  double med = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  printf("REDUCE impl=kjit call_ms=%.6f n=%lld bytes=%lld value=%.9g\n", med, (long long)len,
         (long long)len * 4, v.value.f32);
  free(ms);
  kjit_array_destroy(x);
  kjit_array_destroy(host);
  kjit_program_destroy(prog);
  return 0;
}

int main(int argc, char **argv) {
  const char *dir = "bench/gpu/kernels";
  int n = 50, warm = 5;
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CUDA;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--kernels") == 0 && i + 1 < argc) dir = argv[++i];
    else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) n = atoi(argv[++i]);
    else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc) warm = atoi(argv[++i]);
    else if (strcmp(argv[i], "--target") == 0 && i + 1 < argc)
      o.target = strcmp(argv[++i], "cpu") == 0 ? KJIT_TARGET_CPU : KJIT_TARGET_CUDA;
    else {
      fprintf(stderr, "usage: %s --kernels DIR [-n N] [-w W] [--target cuda|cpu]\n", argv[0]);
      return 2;
    }
  }
  if (n < 1) n = 1;
  kjit_context *ctx;
  if (kjit_context_create(&o, &ctx) != KJIT_OK) {
    puts("ERROR impl=kjit kernel=cuda_reduce cannot create a context");
    return 1;
  }
  int rc = bench(ctx, dir, n, warm);
  kjit_context_destroy(ctx);
  return rc;
}
