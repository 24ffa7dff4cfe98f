/* test_host_exec.c - the host executor run on hand-written C "kernels" that
 * follow the codegen ABI of host/host_exec.h: per-thread and per-block
 * modes, barriers (tree reduction, tiled matmul, count/and/or, syncwarp),
 * deadlock and strict-mode errors, and every launch-limit message. */
#include <fenv.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/host_exec.h"
#include "check.h"

static uint32_t linear_tid(const HostCtx *c) {
  return c->tid[0] + c->ntid[0] * (c->tid[1] + c->ntid[1] * c->tid[2]);
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
  int64_t base = (int64_t)c->ctaid[0] * c->ntid[0];
  for (uint32_t t = 0; t < c->ntid[0]; t++)
    if (base + t < a->n) a->c[base + t] = a->a[base + t] + a->b[base + t];
}

/* HOST_FN_BLOCK_RUN: one call covers ctx->block_run consecutive blocks
 * (1-D grid here, so linear order is ctaid.x order). */
static void vadd_run(HostCtx *c, void *p) {
  VaddArgs *a = p;
  uint32_t run = c->block_run ? c->block_run : 1;
  for (uint32_t k = 0; k < run; k++) {
    int64_t base = ((int64_t)c->ctaid[0] + k) * c->ntid[0];
    for (uint32_t t = 0; t < c->ntid[0]; t++)
      if (base + t < a->n) a->c[base + t] += a->a[base + t] + a->b[base + t];
  }
}

static void test_vadd(RtHostPool *pool) {
  enum { N = 100003 };
  float *a = malloc(N * 4), *b = malloc(N * 4), *c = malloc(N * 4);
  for (int i = 0; i < N; i++) { a[i] = (float)i; b[i] = 0.5f * (float)i; }
  VaddArgs args = {a, b, c, N};
  uint32_t grid[3] = {(N + 255) / 256, 1, 1}, block[3] = {256, 1, 1};
  char err[256];
  static const int flags[3] = {0, HOST_FN_PER_BLOCK, HOST_FN_PER_BLOCK | HOST_FN_BLOCK_RUN};
  HostKernelFn fns[3] = {vadd_thread, vadd_block, vadd_run};
  for (int mode = 0; mode < 3; mode++) {       /* += in vadd_run: each block exactly once */
    memset(c, 0, N * 4);
    int rc = rt_host_launch(pool, fns[mode], flags[mode], grid, block, 0, 0, &args, err, sizeof err);
    CHECK(rc == RT_HOST_OK);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += c[i] != 1.5f * (float)i;
    CHECK(bad == 0);
  }
  free(a); free(b); free(c);
}

/* ---- every block once, 3-D grid ------------------------------------- */

typedef struct CoverArgs { atomic_int *hits; } CoverArgs;

static void cover(HostCtx *c, void *p) {
  CoverArgs *a = p;
  uint32_t b = c->ctaid[0] + c->nctaid[0] * (c->ctaid[1] + c->nctaid[1] * c->ctaid[2]);
  uint32_t t = linear_tid(c);
  atomic_fetch_add(&a->hits[b * 24 + t], 1);
}

static void test_cover(RtHostPool *pool) {
  static atomic_int hits[5 * 3 * 2 * 24];
  for (int i = 0; i < 5 * 3 * 2 * 24; i++) atomic_init(&hits[i], 0);
  CoverArgs a = {hits};
  uint32_t grid[3] = {5, 3, 2}, block[3] = {2, 3, 4};
  char err[256];
  for (int flags = 0; flags <= HOST_USES_BARRIERS; flags += HOST_USES_BARRIERS)
    CHECK(rt_host_launch(pool, cover, flags, grid, block, 0, 0, &a, err, sizeof err) == 0);
  int bad = 0;
  for (int i = 0; i < 5 * 3 * 2 * 24; i++) bad += atomic_load(&hits[i]) != 2;
  CHECK(bad == 0);
}

/* ---- shared-memory tree reduction over a 3-D grid --------------------- */

typedef struct ReduceArgs { const int64_t *in; _Atomic int64_t *total; } ReduceArgs;

static void reduce(HostCtx *c, void *p) {
  ReduceArgs *a = p;
  int64_t *s = c->shared;
  uint32_t t = linear_tid(c), nt = c->ntid[0] * c->ntid[1] * c->ntid[2];
  uint32_t b = c->ctaid[0] + c->nctaid[0] * (c->ctaid[1] + c->nctaid[1] * c->ctaid[2]);
  s[t] = a->in[(uint64_t)b * nt + t];
  kjit_host_syncthreads(c);
  for (uint32_t stride = nt / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    kjit_host_syncthreads(c);
  }
  if (t == 0) atomic_fetch_add(a->total, s[0]);
}

static void test_reduce(RtHostPool *pool) {
  uint32_t grid[3] = {3, 2, 2}, block[3] = {8, 4, 4};
  int n = 12 * 128;
  int64_t *in = malloc((size_t)n * 8), want = 0;
  for (int i = 0; i < n; i++) { in[i] = (int64_t)i * 7 - 300; want += in[i]; }
  _Atomic int64_t total;
  atomic_init(&total, 0);
  ReduceArgs a = {in, &total};
  char err[256];
  int rc = rt_host_launch(pool, reduce, HOST_USES_BARRIERS, grid, block, 128 * 8, 0, &a, err, sizeof err);
  CHECK(rc == RT_HOST_OK);
  CHECK(atomic_load(&total) == want);
  free(in);
}

/* ---- syncthreads_count / _and / _or ---------------------------------- */

typedef struct VoteArgs { int *count, *all_lt100, *all_lt99, *any57, *none; } VoteArgs;

static void vote(HostCtx *c, void *p) {
  VoteArgs *a = p;
  uint32_t t = linear_tid(c);
  a->count[t] = kjit_host_syncthreads_count(c, t % 3 == 0);
  a->all_lt100[t] = kjit_host_syncthreads_and(c, t < 100);
  a->all_lt99[t] = kjit_host_syncthreads_and(c, t < 99);
  a->any57[t] = kjit_host_syncthreads_or(c, t == 57);
  a->none[t] = kjit_host_syncthreads_or(c, 0);
}

static void test_vote(RtHostPool *pool) {
  int r[5][100];
  memset(r, 0xff, sizeof r);
  VoteArgs a = {r[0], r[1], r[2], r[3], r[4]};
  uint32_t grid[3] = {1, 1, 1}, block[3] = {100, 1, 1};
  char err[256];
  CHECK(rt_host_launch(pool, vote, HOST_USES_BARRIERS, grid, block, 0, 0, &a, err, sizeof err) == 0);
  int bad = 0;
  for (int t = 0; t < 100; t++)
    bad += r[0][t] != 34 || r[1][t] != 1 || r[2][t] != 0 || r[3][t] != 1 || r[4][t] != 0;
  CHECK(bad == 0);
}

/* ---- syncwarp: exchange within warps, partial masks ------------------- */

typedef struct WarpArgs { int *out; } WarpArgs;

static void warp_swap(HostCtx *c, void *p) {
  WarpArgs *a = p;
  int *s = c->shared;
  uint32_t t = linear_tid(c);
  if (t % 32 >= 16 && t >= 64) return;   /* upper half of warp 2: gone */
  s[t] = (int)t * 10;
  kjit_host_syncwarp(c, t >= 64 ? 0x0000ffffu : 0xffffffffu);
  a->out[t] = s[t ^ 1];
}

static void test_syncwarp(RtHostPool *pool) {
  int out[80];
  memset(out, 0xff, sizeof out);
  WarpArgs a = {out};
  uint32_t grid[3] = {1, 1, 1}, block[3] = {80, 1, 1};
  char err[256];
  CHECK(rt_host_launch(pool, warp_swap, HOST_USES_BARRIERS, grid, block, 80 * 4, 0, &a, err, sizeof err) == 0);
  int bad = 0;
  for (int t = 0; t < 80; t++)
    bad += (t % 32 >= 16 && t >= 64) ? out[t] != -1 : out[t] != (t ^ 1) * 10;
  CHECK(bad == 0);
}

/* ---- tiled matmul: 2 barriers per tile, vs a plain loop -------------- */

enum { TILE = 16 };
typedef struct MatArgs { const double *a, *b; double *c; int n; } MatArgs;

static void matmul_tiled(HostCtx *c, void *p) {
  MatArgs *m = p;
  double (*as)[TILE] = c->shared, (*bs)[TILE] = (double (*)[TILE])((char *)c->shared + TILE * TILE * 8);
  int tx = (int)c->tid[0], ty = (int)c->tid[1];
  int row = (int)c->ctaid[1] * TILE + ty, col = (int)c->ctaid[0] * TILE + tx, n = m->n;
  double sum = 0;
  for (int t0 = 0; t0 < n; t0 += TILE) {
    as[ty][tx] = row < n && t0 + tx < n ? m->a[row * n + t0 + tx] : 0;
    bs[ty][tx] = col < n && t0 + ty < n ? m->b[(t0 + ty) * n + col] : 0;
    kjit_host_syncthreads(c);
    for (int k = 0; k < TILE; k++) sum += as[ty][k] * bs[k][tx];
    kjit_host_syncthreads(c);
  }
  if (row < n && col < n) m->c[row * n + col] = sum;
}

static void test_matmul(RtHostPool *pool) {
  int n = 70;
  double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n);
  double *c = calloc((size_t)n * n, sizeof(double)), *r = calloc((size_t)n * n, sizeof(double));
  for (int i = 0; i < n * n; i++) { a[i] = (i * 37 % 101) / 10.0; b[i] = (i * 53 % 97) / 7.0 - 3; }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
      r[i * n + j] = s;
    }
  MatArgs m = {a, b, c, n};
  uint32_t g = (uint32_t)(n + TILE - 1) / TILE, grid[3] = {g, g, 1}, block[3] = {TILE, TILE, 1};
  char err[256];
  CHECK(rt_host_launch(pool, matmul_tiled, HOST_USES_BARRIERS, grid, block, 2 * TILE * TILE * 8, 0, &m, err,
                       sizeof err) == 0);
  double worst = 0;
  for (int i = 0; i < n * n; i++) worst = fmax(worst, fabs(c[i] - r[i]));
  CHECK(worst < 1e-9);
  free(a); free(b); free(c); free(r);
}

/* ---- shared memory layout and zero fill ------------------------------ */

typedef struct ShArgs { int bad; } ShArgs;

static void shared_probe(HostCtx *c, void *p) {
  ShArgs *a = p;
  unsigned char *s = c->shared;
  size_t total = RT_HOST_DYN_SHARED_OFFSET(100) + c->dyn_shared_bytes;
  if (c->tid[0] == 0) {
    for (size_t i = 0; i < total; i++) a->bad += s[i] != 0;  /* zeroed per block */
    a->bad += ((uintptr_t)s % 64) != 0 || c->dyn_shared_bytes != 1000;
    memset(s, 0xab, total);
  }
}

static void test_shared(RtHostPool *pool) {
  ShArgs a = {0};
  uint32_t grid[3] = {4, 1, 1}, block[3] = {2, 1, 1};
  char err[256];
  CHECK(rt_host_launch(pool, shared_probe, 0, grid, block, 100, 1000, &a, err, sizeof err) == 0);
  CHECK(a.bad == 0);
}

/* ---- each fiber keeps its own FP environment (MXCSR, x87 CW) ---------- */

typedef struct FpArgs { int bad; } FpArgs;

static void fp_modes(HostCtx *c, void *p) {
  FpArgs *a = p;
  uint32_t t = linear_tid(c);
  int want = t % 2 ? FE_UPWARD : FE_TONEAREST;
  fesetround(want);
  for (int i = 0; i < 3; i++) {
    kjit_host_syncthreads(c);
    volatile double one = 1.0, three = 3.0;
    double q = one / three;   /* rounds differently in the two modes */
    if (fegetround() != want || q != (t % 2 ? 0.33333333333333337 : 0.3333333333333333)) a->bad++;
  }
  fesetround(FE_TONEAREST);
}

static void test_fp_env(RtHostPool *pool) {
  FpArgs a = {0};
  uint32_t grid[3] = {2, 1, 1}, block[3] = {8, 1, 1};
  char err[256];
  CHECK(rt_host_launch(pool, fp_modes, HOST_USES_BARRIERS, grid, block, 0, 0, &a, err, sizeof err) == 0);
  CHECK(a.bad == 0);
  CHECK(fegetround() == FE_TONEAREST);
}

/* ---- barrier misuse -------------------------------------------------- */

static void half_warp_deadlock(HostCtx *c, void *p) {
  (void)p;
  uint32_t t = linear_tid(c);
  if (t < 16) kjit_host_syncwarp(c, 0xffffffffu);
  else kjit_host_syncthreads(c);
}

typedef struct EarlyArgs { int *after; } EarlyArgs;

static void early_exit(HostCtx *c, void *p) {
  EarlyArgs *a = p;
  uint32_t t = linear_tid(c);
  if (t >= 10) return;
  kjit_host_syncthreads(c);
  a->after[t] = 1;
}

static void test_misuse(RtHostPool *pool) {
  char err[256];
  uint32_t grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
  int rc = rt_host_launch(pool, half_warp_deadlock, HOST_USES_BARRIERS, grid, block, 0, 0, NULL, err, sizeof err);
  CHECK(rc == RT_HOST_E_DEADLOCK);
  CHECK(strstr(err, "deadlock in block (") && strstr(err, "48 threads wait at syncthreads, 16 at syncwarp"));
  uint32_t one[3] = {1, 1, 1};
  rc = rt_host_launch(pool, half_warp_deadlock, HOST_USES_BARRIERS, one, block, 0, 0, NULL, err, sizeof err);
  CHECK_STR(err, "deadlock in block (0,0,0): 48 threads wait at syncthreads, 16 at syncwarp, 0 exited; "
                 "a barrier must be reached by every thread it names");

  int after[64] = {0};
  EarlyArgs ea = {after};
  rc = rt_host_launch(pool, early_exit, HOST_USES_BARRIERS, one, block, 0, 0, &ea, err, sizeof err);
  CHECK(rc == RT_HOST_OK && after[0] == 1 && after[9] == 1 && after[10] == 0);
  rc = rt_host_launch(pool, early_exit, HOST_USES_BARRIERS | HOST_STRICT_BARRIERS, one, block, 0, 0, &ea, err,
                      sizeof err);
  CHECK(rc == RT_HOST_E_DEADLOCK);
  CHECK_STR(err, "threads of block (0,0,0) exited while others wait at syncthreads (54 of 64 threads exited)");

  rc = rt_host_launch(pool, early_exit, 0, one, block, 0, 0, &ea, err, sizeof err);
  CHECK(rc == RT_HOST_E_KERNEL);
  CHECK_STR(err, "kernel called syncthreads but was launched without HOST_USES_BARRIERS");
}

/* ---- split kernels (HOST_FN_REGIONS) --------------------------------- */

/* What a split kernel's entry does with the executor, by hand: a frame per
 * block, then kjit_host_region_next on crafted resume arrays. */
typedef struct RegionArgs { int32_t got[5], red[2]; int frame_ok; } RegionArgs;

static void region_entry(HostCtx *c, void *p) {
  RegionArgs *a = p;
  uint32_t n = c->ntid[0];
  int32_t *resume = kjit_host_region_frame(c, 4096);
  a->frame_ok = resume && ((uintptr_t)resume & 63) == 0 && kjit_host_region_frame(c, 64) == (void *)resume;
  for (uint32_t i = 0; i < n; i++) resume[i] = 2;
  int32_t *pred = resume + n, *red = pred + n;
  a->got[0] = kjit_host_region_next(c, resume, NULL, NULL, n);   /* all at barrier 2 */
  resume[5] = 1;
  a->got[1] = kjit_host_region_next(c, resume, NULL, NULL, n);   /* two resume points */
  resume[5] = -1;
  for (uint32_t i = 0; i < n; i++) pred[i] = i % 3 == 2;          /* 2, 5, 8, 11, 14 */
  a->got[2] = kjit_host_region_next(c, resume, pred, red, n);    /* one returned */
  memcpy(a->red, red, sizeof a->red);
  for (uint32_t i = 0; i < n; i++) resume[i] = -1;
  a->got[3] = kjit_host_region_next(c, resume, NULL, NULL, n);   /* all returned */
  resume[0] = 0;
  a->got[4] = kjit_host_region_next(c, resume, NULL, NULL, n);
}

static void test_regions(RtHostPool *pool) {
  char err[256];
  uint32_t one[3] = {1, 1, 1}, block[3] = {16, 1, 1};
  RegionArgs a = {{0}, {0}, 0};
  int flags = HOST_FN_PER_BLOCK | HOST_FN_REGIONS;
  int rc = rt_host_launch(pool, region_entry, flags, one, block, 0, 0, &a, err, sizeof err);
  CHECK(rc == RT_HOST_OK && a.frame_ok);
  CHECK(a.got[0] == 2 && a.got[1] == -2 && a.got[2] == -2 && a.got[3] == -1 && a.got[4] == -2);
  CHECK(a.red[0] == 4 && a.red[1] == 15);  /* thread 5 returned: its predicate is not counted */
  rc = rt_host_launch(pool, region_entry, flags | HOST_STRICT_BARRIERS, one, block, 0, 0, &a, err, sizeof err);
  CHECK(rc == RT_HOST_E_DEADLOCK && a.got[2] == -1);
  CHECK_STR(err, "threads of block (0,0,0) exited while others wait at syncthreads (1 of 16 threads exited)");
}

/* ---- launch limits --------------------------------------------------- */

static void nop(HostCtx *c, void *p) { (void)c; (void)p; }

static void expect_limit(RtHostPool *pool, int flags, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by,
                         uint32_t bz, size_t st, size_t dyn, const char *want) {
  uint32_t grid[3] = {gx, gy, 1}, block[3] = {bx, by, bz};
  char err[256] = "";
  CHECK(rt_host_launch(pool, nop, flags, grid, block, st, dyn, NULL, err, sizeof err) == RT_HOST_E_LIMIT);
  CHECK_STR(err, want);
}

static void test_limits(RtHostPool *pool) {
  expect_limit(pool, 0, 1, 1, 2048, 1, 1, 0, 0, "block of 2048 threads exceeds the limit of 1024");
  expect_limit(pool, 0, 1, 1, 32, 32, 2, 0, 0, "block of 2048 threads exceeds the limit of 1024");
  expect_limit(pool, 0, 1, 1, 1, 1, 128, 0, 0, "block dimension z of 128 exceeds the limit of 64");
  expect_limit(pool, 0, 0, 1, 32, 1, 1, 0, 0, "grid dimension x is 0");
  expect_limit(pool, 0, 1, 1, 32, 0, 1, 0, 0, "block dimension y is 0");
  expect_limit(pool, 0, 1, 70000, 32, 1, 1, 0, 0, "grid dimension y of 70000 exceeds the limit of 65535");
  expect_limit(pool, 0, 1, 1, 32, 1, 1, 50000, 0,
               "static shared memory of 50000 bytes exceeds the limit of 49152 (48 KiB)");
  expect_limit(pool, 0, 1, 1, 32, 1, 1, 40000, 200000,
               "shared memory of 240000 bytes (40000 static + 200000 dynamic) exceeds the limit of 233472 (228 KiB)");
  expect_limit(pool, HOST_FN_PER_BLOCK | HOST_USES_BARRIERS, 1, 1, 32, 1, 1, 0, 0,
               "HOST_FN_PER_BLOCK and HOST_USES_BARRIERS exclude each other");
  uint32_t ok[3] = {1, 1, 1}, blk[3] = {1024, 1, 1};
  char err[256];
  CHECK(rt_host_launch(pool, nop, HOST_USES_BARRIERS, ok, blk, 48 * 1024, 180 * 1024, NULL, err, sizeof err) == 0);
}

int main(void) {
  char err[256];
  for (int nt = 1; nt <= 3; nt += 2) {       /* one worker, then several */
    RtHostPool *pool = rt_host_pool_new(nt, err, sizeof err);
    if (!pool) { fprintf(stderr, "pool: %s\n", err); return 1; }
    CHECK(rt_host_pool_threads(pool) == nt);
    test_vadd(pool);
    test_cover(pool);
    test_reduce(pool);
    test_vote(pool);
    test_syncwarp(pool);
    test_matmul(pool);
    test_shared(pool);
    test_fp_env(pool);
    test_misuse(pool);
    test_regions(pool);
    test_limits(pool);
    test_reduce(pool);                        /* stacks reused after errors */
    rt_host_pool_free(pool);
  }
  RtHostPool *pool = rt_host_pool_new(0, err, sizeof err);  /* machine-sized */
  CHECK(pool && rt_host_pool_threads(pool) >= 1);
  if (pool) test_matmul(pool);
  rt_host_pool_free(pool);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  else printf("test_host_exec: all passed\n");
  return failures ? 1 : 0;
}
