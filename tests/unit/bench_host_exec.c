/* bench_host_exec.c - timings of the host executor (KJIT_NOT_A_TEST: built
 * with the unit tests so it keeps compiling, never run by ctest).
 *   raw fiber switch (ns/switch), syncthreads cost per thread, a 512x512
 *   float tiled matmul (2 barriers per tile) vs a plain C loop, vector add
 *   per-thread vs per-block.  Usage: bench_host_exec [threads] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/fiber_internal.h"
#include "host/host_exec.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- raw switch: two contexts ping-pong ------------------------------ */

typedef struct Ping { RtFiberCtx main, fib; long n; } Ping;

static void ping_entry(void *arg) {
  Ping *p = arg;
  for (;;) rt_fiber_switch(&p->fib, &p->main);
}

static void bench_switch(void) {
  Ping p = {.n = 10000000};
  RtFiberStack st;
  if (rt_fiber_stack_alloc(&st, 64 * 1024)) return;
  rt_fiber_init(&p.fib, &st, ping_entry, &p);
  double t = now();
  for (long i = 0; i < p.n; i++) rt_fiber_switch(&p.main, &p.fib);
  t = now() - t;
  printf("fiber switch: %.2f ns per switch (%ld round trips)\n", t * 1e9 / (2.0 * p.n), p.n);
  rt_fiber_stack_free(&st);
}

/* ---- syncthreads in a loop ------------------------------------------ */

static void many_barriers(HostCtx *c, void *a) {
  int n = *(int *)a;
  for (int i = 0; i < n; i++) kjit_host_syncthreads(c);
}

static void bench_barrier(RtHostPool *pool1) {
  int nb = 2000;
  uint32_t grid[3] = {1, 1, 1}, block[3] = {256, 1, 1};
  char err[256];
  double t = now();
  rt_host_launch(pool1, many_barriers, HOST_USES_BARRIERS, grid, block, 0, 0, &nb, err, sizeof err);
  t = now() - t;
  printf("syncthreads: %.2f ns per thread per barrier (256 threads x %d barriers, one worker)\n",
         t * 1e9 / (256.0 * nb), nb);
}

/* ---- tiled matmul ---------------------------------------------------- */

enum { TILE = 16, N = 512 };
typedef struct MatArgs { const float *a, *b; float *c; } MatArgs;

static void matmul_tiled(HostCtx *c, void *p) {
  MatArgs *m = p;
  float (*as)[TILE] = c->shared, (*bs)[TILE] = (float (*)[TILE])((char *)c->shared + TILE * TILE * 4);
  int tx = (int)c->tid[0], ty = (int)c->tid[1];
  int row = (int)c->ctaid[1] * TILE + ty, col = (int)c->ctaid[0] * TILE + tx;
  float sum = 0;
  for (int t0 = 0; t0 < N; t0 += TILE) {
    as[ty][tx] = m->a[row * N + t0 + tx];
    bs[ty][tx] = m->b[(t0 + ty) * N + col];
    kjit_host_syncthreads(c);
    for (int k = 0; k < TILE; k++) sum += as[ty][k] * bs[k][tx];
    kjit_host_syncthreads(c);
  }
  m->c[row * N + col] = sum;
}

static void bench_matmul(RtHostPool *pool) {
  float *a = malloc(4 * N * N), *b = malloc(4 * N * N), *c = malloc(4 * N * N), *r = malloc(4 * N * N);
  for (int i = 0; i < N * N; i++) { a[i] = (float)(i % 7); b[i] = (float)(i % 5); }
  MatArgs m = {a, b, c};
  uint32_t grid[3] = {N / TILE, N / TILE, 1}, block[3] = {TILE, TILE, 1};
  char err[256];
  double t = now();
  rt_host_launch(pool, matmul_tiled, HOST_USES_BARRIERS, grid, block, 2 * TILE * TILE * 4, 0, &m, err, sizeof err);
  t = now() - t;
  double t2 = now();
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < N; k++) s += a[i * N + k] * b[k * N + j];
      r[i * N + j] = s;
    }
  t2 = now() - t2;
  printf("tiled matmul %dx%d: %.1f ms on %d workers (%.0f barrier waits), plain C loop on 1 core %.1f ms, %s\n",
         N, N, t * 1e3, rt_host_pool_threads(pool), 2.0 * N * N * (N / TILE), t2 * 1e3,
         memcmp(c, r, 4 * N * N) ? "MISMATCH" : "equal");
  free(a); free(b); free(c); free(r);
}

/* ---- vector add ------------------------------------------------------ */

typedef struct VaddArgs { const float *a, *b; float *c; int64_t n; } VaddArgs;

static void vadd_thread(HostCtx *c, void *p) {
  VaddArgs *a = p;
  int64_t i = (int64_t)c->ctaid[0] * c->ntid[0] + c->tid[0];
  if (i < a->n) a->c[i] = a->a[i] + a->b[i];
}

static void vadd_block(HostCtx *c, void *p) {
  VaddArgs *a = p;
  int64_t base = (int64_t)c->ctaid[0] * c->ntid[0], n = a->n - base < c->ntid[0] ? a->n - base : c->ntid[0];
  for (int64_t t = 0; t < n; t++) a->c[base + t] = a->a[base + t] + a->b[base + t];
}

static void bench_vadd(RtHostPool *pool) {
  int64_t n = 1 << 24;
  float *a = calloc((size_t)n, 4), *b = calloc((size_t)n, 4), *c = calloc((size_t)n, 4);
  VaddArgs v = {a, b, c, n};
  uint32_t grid[3] = {(uint32_t)(n / 256), 1, 1}, block[3] = {256, 1, 1};
  char err[256];
  for (int mode = 0; mode < 2; mode++) {
    rt_host_launch(pool, mode ? vadd_block : vadd_thread, mode, grid, block, 0, 0, &v, err, sizeof err);
    double t = now();
    for (int r = 0; r < 5; r++)
      rt_host_launch(pool, mode ? vadd_block : vadd_thread, mode, grid, block, 0, 0, &v, err, sizeof err);
    t = (now() - t) / 5;
    printf("vector add 2^24 f32 %s: %.2f ms (%.1f GB/s)\n", mode ? "per-block" : "per-thread", t * 1e3,
           12.0 * (double)n / t / 1e9);
  }
  free(a); free(b); free(c);
}

int main(int argc, char **argv) {
  char err[256];
  int nt = argc > 1 ? atoi(argv[1]) : 0;
  RtHostPool *pool = rt_host_pool_new(nt, err, sizeof err), *pool1 = rt_host_pool_new(1, err, sizeof err);
  if (!pool || !pool1) { fprintf(stderr, "%s\n", err); return 1; }
  bench_switch();
  bench_barrier(pool1);
  bench_matmul(pool);
  bench_vadd(pool);
  rt_host_pool_free(pool);
  rt_host_pool_free(pool1);
  return 0;
}
