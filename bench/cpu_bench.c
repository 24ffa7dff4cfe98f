/* cpu_bench.c - the CPU target against plain C loops built with
 * `gcc -O3 -fopenmp` on the same cores (bench/run_cpu.sh builds and runs it).
 *
 *   vector add   2^24 float32, grid 65536 x block 256 (the barrier-free,
 *                per-block path), vs `#pragma omp parallel for` c = a + b
 *   matmul       512 x 512 float32, tiled shared-memory kernel (16 x 16
 *                tiles, two syncthreads per tile: split at its barriers,
 *                KJIT_CPU_FIBERS=1 for the fiber path), vs the naive i-j-k
 *                loop with the i loop in parallel
 * Each figure is the median of RUNS launches after one warm-up launch (the
 * warm-up compiles; compile time is reported separately).  The kernels run
 * through the internal launch interface (host/launch.h), so this file is
 * linked against libkjit_static.a.  Usage: cpu_bench BENCH_DIR [RUNS]. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/launch.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

static RtValue f32_array(int ndim, int64_t d0, int64_t d1) {
  RtValue v = {.is_array = true};
  int64_t shape[2] = {d0, d1};
  if (rt_array_alloc(&v.array, RT_F32, ndim, shape) != 0) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  float *p = v.array.data;
  for (int64_t i = 0; i < rt_array_size(&v.array); i++)
    p[i] = (float)(i % 1000) * 0.001f;
  return v;
}

/* Median kernel time of `runs` launches; *compile gets the first launch's
 * compile time. */
static double time_kjit(kjit_program *p, const char *k, RtValue *a, int n, const uint32_t g[3],
                        const uint32_t b[3], int runs, double *compile) {
  double *t = malloc(sizeof *t * (size_t)runs);
  Arena arena;
  Diags d;
  arena_init(&arena);
  diags_init(&d, &arena);
  IrFunc *f = rt_find_launchable(p, k, &d);
  RtPlan plan;
  RtLaunchTiming lt;
  if (f)
    rt_plan_init(&plan, p, f, a, n, g, b, 0);
  if (!f || !rt_plan_pick_signature(&plan, &d) || !rt_host_run(&plan, &d, &lt)) {
    StrBuf sb;
    sb_init(&sb);
    diags_render(&d, &sb);
    fprintf(stderr, "%s failed:\n%s", k, sb.data ? sb.data : "");
    exit(1);
  }
  *compile = lt.compile_ms;
  for (int i = 0; i < runs; i++) {
    rt_host_run(&plan, &d, &lt);
    t[i] = lt.run_ms;
  }
  arena_destroy(&arena);
  double m = median(t, runs);
  free(t);
  return m;
}

/* ------------------------------------------------------ C references --- */

static void ref_vadd(const float *a, const float *b, float *c, long n) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    c[i] = a[i] + b[i];
}

static void ref_matmul(const float *a, const float *b, float *c, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

static double time_ref_vadd(RtValue *v, long n, int runs) {
  double *t = malloc(sizeof *t * (size_t)runs);
  ref_vadd(v[0].array.data, v[1].array.data, v[2].array.data, n);
  for (int i = 0; i < runs; i++) {
    double t0 = now_ms();
    ref_vadd(v[0].array.data, v[1].array.data, v[2].array.data, n);
    t[i] = now_ms() - t0;
  }
  double m = median(t, runs);
  free(t);
  return m;
}

static double time_ref_matmul(RtValue *v, int n, int runs) {
  double *t = malloc(sizeof *t * (size_t)runs);
  ref_matmul(v[0].array.data, v[1].array.data, v[2].array.data, n);
  for (int i = 0; i < runs; i++) {
    double t0 = now_ms();
    ref_matmul(v[0].array.data, v[1].array.data, v[2].array.data, n);
    t[i] = now_ms() - t0;
  }
  double m = median(t, runs);
  free(t);
  return m;
}

static kjit_program *load(kjit_context *ctx, const char *dir, const char *file) {
  char path[1024];
  snprintf(path, sizeof path, "%s/kernels/%s", dir, file);
  kjit_program *p = NULL;
  if (kjit_program_load_file(ctx, path, &p) != KJIT_OK) {
    fprintf(stderr, "%s: %s\n", path, kjit_last_error(ctx));
    exit(1);
  }
  return p;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "bench";
  int runs = argc > 2 ? atoi(argv[2]) : 10;
  if (runs < 1)
    runs = 1;
  kjit_context *ctx;
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  if (kjit_context_create(&o, &ctx) != KJIT_OK)
    return 1;
  kjit_program *pv = load(ctx, dir, "vector_add.py"), *pm = load(ctx, dir, "matmul.py");

  const long n = 1L << 24;
  RtValue v[3] = {f32_array(1, n, 0), f32_array(1, n, 0), f32_array(1, n, 0)};
  uint32_t gv[3] = {(uint32_t)(n / 256), 1, 1}, bv[3] = {256, 1, 1};
  double cv, kv = time_kjit(pv, "add_kernel", v, 3, gv, bv, runs, &cv);
  enum { M = 512 };
  RtValue m[3] = {f32_array(2, M, M), f32_array(2, M, M), f32_array(2, M, M)};
  uint32_t gm[3] = {M / 16, M / 16, 1}, bm[3] = {16, 16, 1};
  double cm, km = time_kjit(pm, "fast_matmul", m, 3, gm, bm, runs, &cm);

  double rv = time_ref_vadd(v, n, runs), rm = time_ref_matmul(m, M, runs);
  printf("threads: kjit pool %s, OpenMP %d\n", getenv("KJIT_CPU_THREADS") ? getenv("KJIT_CPU_THREADS") : "all cores",
         omp_get_max_threads());
  printf("%-24s %12s %12s %12s %14s\n", "benchmark", "kjit ms", "C/OpenMP ms", "speed ratio", "kjit compile ms");
  printf("%-24s %12.3f %12.3f %11.2fx %14.1f\n", "vector add 2^24 f32", kv, rv, rv / kv, cv);
  printf("%-24s %12.3f %12.3f %11.2fx %14.1f\n", "tiled matmul 512^2 f32", km, rm, rm / km, cm);
  printf("(speed ratio = C time / kjit time; targets: vector add >= 0.8x, matmul >= 0.8x)\n");
  for (int i = 0; i < 3; i++) {
    rt_array_free(&v[i].array);
    rt_array_free(&m[i].array);
  }
  rt_host_program_free(pv);
  rt_host_program_free(pm);
  kjit_context_destroy(ctx);
  return 0;
}
