/* test_host_run.c - kernels run on the host CPU target through the internal
 * launch interface (host/launch.h): the kernel files of tests/kernels and
 * small inline kernels, each checked against results computed here in C.
 * Covers the per-block path (barrier-free), fibers (barriers, shared
 * memory), atomics across parallel blocks, device functions, print, math,
 * Python semantics corners and the launch errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codegen/codegen.h"
#include "host/launch.h"
#include "check.h"

static kjit_context *ctx;

/* ----------------------------------------------------------- helpers --- */

static kjit_program *load_file(const char *path) {
  kjit_program *p = NULL;
  if (kjit_program_load_file(ctx, path, &p) != KJIT_OK) {
    fprintf(stderr, "cannot load %s: %s\n", path, kjit_last_error(ctx));
    failures++;
  }
  return p;
}

static kjit_program *load_src(const char *src) {
  kjit_program *p = NULL;
  if (kjit_program_load_source(ctx, "inline.py", src, &p) != KJIT_OK) {
    fprintf(stderr, "cannot load inline source: %s\n%s", kjit_last_error(ctx), kjit_last_diagnostics(ctx));
    failures++;
  }
  return p;
}

static void drop(kjit_program *p) {
  rt_host_program_free(p);
  kjit_program_destroy(p);
}

/* Runs and returns the rendered diagnostics (malloc'd, "" on success). */
static char *launch_text(kjit_program *p, const char *k, RtValue *a, int n, uint32_t gx, uint32_t gy,
                         uint32_t bx, uint32_t by, size_t dyn, bool *ok) {
  Arena arena;
  Diags d;
  arena_init(&arena);
  diags_init(&d, &arena);
  uint32_t grid[3] = {gx, gy, 1}, block[3] = {bx, by, 1};
  IrFunc *f = p ? rt_find_launchable(p, k, &d) : NULL;
  RtPlan plan;
  RtLaunchTiming t;
  if (f)
    rt_plan_init(&plan, p, f, a, n, grid, block, dyn);
  *ok = f && rt_plan_check_count(&plan, &d) && rt_plan_check_geometry(&plan, &d) &&
        rt_plan_pick_signature(&plan, &d) && rt_host_run(&plan, &d, &t);
  StrBuf sb;
  sb_init(&sb);
  diags_render(&d, &sb);
  char *s = strdup(sb.data ? sb.data : "");
  sb_free(&sb);
  arena_destroy(&arena);
  return s;
}

static bool launch2(kjit_program *p, const char *k, RtValue *a, int n, uint32_t gx, uint32_t gy,
                    uint32_t bx, uint32_t by, size_t dyn) {
  bool ok;
  char *msg = launch_text(p, k, a, n, gx, gy, bx, by, dyn, &ok);
  if (!ok) {
    fprintf(stderr, "launch of %s failed:\n%s\n", k, msg);
    failures++;
  }
  free(msg);
  return ok;
}

static bool launch(kjit_program *p, const char *k, RtValue *a, int n, uint32_t g, uint32_t b) {
  return launch2(p, k, a, n, g, 1, b, 1, 0);
}

/* Expects the launch to fail with `want` in the message. */
static void expect_error(kjit_program *p, const char *k, RtValue *a, int n, uint32_t g, uint32_t b, size_t dyn,
                         const char *want) {
  bool ok;
  char *msg = launch_text(p, k, a, n, g, 1, b, 1, dyn, &ok);
  if (ok || !strstr(msg, want)) {
    fprintf(stderr, "%s: expected an error containing \"%s\", got %s:\n%s\n", k, want, ok ? "success" : "", msg);
    failures++;
  }
  free(msg);
}

static RtValue arr(RtDtype dt, int ndim, int64_t d0, int64_t d1) {
  RtValue v = {.is_array = true};
  int64_t shape[2] = {d0, d1};
  if (rt_array_alloc(&v.array, dt, ndim, shape) != 0)
    abort();
  return v;
}

static RtValue sc_i64(int64_t x) { return (RtValue){.scalar = {.dtype = RT_I64, .v.i64 = x}}; }
static RtValue sc_f64(double x) { return (RtValue){.scalar = {.dtype = RT_F64, .v.f64 = x}}; }
static RtValue sc_i32(int32_t x) { return (RtValue){.scalar = {.dtype = RT_I32, .v.i32 = x}}; }

static void free_vals(RtValue *v, int n) {
  for (int i = 0; i < n; i++)
    if (v[i].is_array)
      rt_array_free(&v[i].array);
}

#define F32(v, i) (((float *)(v).array.data)[i])
#define F64(v, i) (((double *)(v).array.data)[i])
#define I32(v, i) (((int32_t *)(v).array.data)[i])
#define U32(v, i) (((uint32_t *)(v).array.data)[i])
#define I64(v, i) (((int64_t *)(v).array.data)[i])
#define U64(v, i) (((uint64_t *)(v).array.data)[i])
#define U8(v, i) (((uint8_t *)(v).array.data)[i])

/* ------------------------------------------------- barrier-free kernels --- */

static void test_vector_add(void) {
  kjit_program *p = load_file("kernels/vector_add.py");
  enum { N = 100003 };
  RtValue a[3] = {arr(RT_F32, 1, N, 0), arr(RT_F32, 1, N, 0), arr(RT_F32, 1, N, 0)};
  for (int i = 0; i < N; i++) {
    F32(a[0], i) = (float)i;
    F32(a[1], i) = 2.0f * (float)i + 0.25f;
  }
  launch(p, "add_kernel", a, 3, (N + 255) / 256, 256);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += F32(a[2], i) != (float)i + (2.0f * (float)i + 0.25f);
  CHECK(bad == 0);
  /* a second launch hits the specialization table */
  memset(a[2].array.data, 0, N * 4);
  launch(p, "add_kernel", a, 3, (N + 127) / 128, 128);
  CHECK(F32(a[2], N - 1) == (float)(N - 1) * 3.0f + 0.25f);
  free_vals(a, 3);
  drop(p);
}

/* The per-block loop must vectorize: <8 x float> or <4 x float> in the
 * optimized IR of the host module. */
static void test_vectorized(void) {
  kjit_program *p = load_file("kernels/vector_add.py");
  if (!p)
    return;
  Arena arena;
  Diags d;
  arena_init(&arena);
  diags_init(&d, &arena);
  IrCompile c = {.prog = &p->ir, .arena = &arena, .diags = &d};
  IrFunc *k = p->kernels.data[0];
  CHECK(ir_specialize(&c, k, k->eager.data[0].params, 3, (SrcLoc){0}) != NULL);
  CgTarget t;
  cg_host_target(&t);
  CgOptions o = {.opt_level = 3};
  CgSession *s = cg_session_new();
  IrCompile *cp = &c;
  char *out = NULL;
  size_t len;
  CHECK(cg_emit(s, &cp, 1, &t, &o, CG_EMIT_LLVM, &out, &len, &d));
  CHECK(out && (strstr(out, "<8 x float>") || strstr(out, "<4 x float>") || strstr(out, "<16 x float>")));
  if (out && getenv("KJIT_DUMP_HOST_IR"))
    fputs(out, stderr);
  free(out);
  cg_session_free(s);
  cg_host_target_free(&t);
  arena_destroy(&arena);
  drop(p);
}

static void test_inplace(void) {
  kjit_program *p = load_file("kernels/inplace_add.py");
  RtValue a[2] = {arr(RT_I32, 1, 1000, 0), arr(RT_I32, 1, 1000, 0)};
  for (int i = 0; i < 1000; i++) {
    I32(a[0], i) = i;
    I32(a[1], i) = 1;
  }
  launch(p, "increment_by_array", a, 2, 4, 256);
  int bad = 0;
  for (int i = 0; i < 1000; i++)
    bad += I32(a[1], i) != i + 1;
  CHECK(bad == 0);
  RtValue s[2] = {arr(RT_F64, 1, 300, 0), sc_f64(3.0)};
  for (int i = 0; i < 300; i++)
    F64(s[0], i) = i;
  launch(p, "scale_in_place", s, 2, 3, 128);
  CHECK(F64(s[0], 7) == 20.0 && F64(s[0], 299) == 896.0);
  free_vals(a, 2);
  free_vals(s, 2);
  drop(p);
}

static void test_double_2d(void) {
  kjit_program *p = load_file("kernels/double_2d.py");
  RtValue a = arr(RT_F32, 2, 100, 60);
  for (int i = 0; i < 6000; i++)
    F32(a, i) = (float)i;
  launch2(p, "double_elements", &a, 1, 7, 4, 16, 16, 0);
  int bad = 0;
  for (int i = 0; i < 6000; i++)
    bad += F32(a, i) != 2.0f * (float)i;
  CHECK(bad == 0);
  /* a Fortran-order (strided) view through the A-layout parameter */
  RtValue f = arr(RT_F32, 2, 60, 100);
  for (int i = 0; i < 6000; i++)
    F32(f, i) = (float)i;
  f.array.shape[0] = 100, f.array.shape[1] = 60;
  f.array.strides[0] = 4, f.array.strides[1] = 400;
  launch2(p, "double_elements", &f, 1, 7, 4, 16, 16, 0);
  bad = 0;
  for (int i = 0; i < 6000; i++)
    bad += F32(f, i) != 2.0f * (float)i;
  CHECK(bad == 0);
  RtValue d[2] = {arr(RT_F64, 2, 33, 17), arr(RT_F64, 2, 33, 17)};
  for (int i = 0; i < 33 * 17; i++)
    F64(d[0], i) = i * 0.5;
  launch2(p, "double_into", d, 2, 3, 2, 16, 16, 0);
  CHECK(F64(d[1], 33 * 17 - 1) == (33 * 17 - 1) * 1.0 && F64(d[1], 5) == 5.0);
  free_vals(&a, 1);
  free_vals(&f, 1);
  free_vals(d, 2);
  drop(p);
}

static double mandel_c(double x, double y, int iters) {
  double zr = 0, zi = 0;
  for (int i = 0; i < iters; i++) {
    double zr2 = zr * zr, zi2 = zi * zi;
    if (zr2 + zi2 >= 4.0)
      return i;
    zi = 2.0 * zr * zi + y;
    zr = zr2 - zi2 + x;
  }
  return iters;
}

static void test_mandelbrot(void) {
  kjit_program *p = load_file("kernels/mandelbrot.py");
  enum { H = 50, W = 75 };
  RtValue a[6] = {sc_f64(-2.0), sc_f64(1.0), sc_f64(-1.0), sc_f64(1.0), arr(RT_U8, 2, H, W), sc_i32(20)};
  launch2(p, "mandel_kernel", a, 6, 4, 2, 8, 8, 0);
  int bad = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      bad += U8(a[4], y * W + x) != (uint8_t)mandel_c(-2.0 + x * (3.0 / W), -1.0 + y * (2.0 / H), 20);
  CHECK(bad == 0);
  free_vals(a, 6);
  drop(p);
}

static void test_stencil(void) {
  kjit_program *p = load_file("kernels/stencil_2d.py");
  enum { N = 40, M = 35 };
  RtValue a[2] = {arr(RT_F32, 2, N, M), arr(RT_F32, 2, N, M)};
  for (int i = 0; i < N * M; i++)
    F32(a[0], i) = (float)((i * 7) % 13);
  launch2(p, "jacobi_step", a, 2, 3, 3, 16, 16, 0);
  int bad = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      const float *u = a[0].array.data;
      float want = i > 0 && i < N - 1 && j > 0 && j < M - 1
                       ? 0.25f * (u[(i - 1) * M + j] + u[(i + 1) * M + j] + u[i * M + j - 1] + u[i * M + j + 1])
                       : u[i * M + j];
      bad += F32(a[1], i * M + j) != want;
    }
  CHECK(bad == 0);
  free_vals(a, 2);
  drop(p);
}

static void test_local_array(void) {
  kjit_program *p = load_file("kernels/local_array.py");
  RtValue a[2] = {arr(RT_F64, 2, 64, 8), arr(RT_F64, 1, 64, 0)};
  for (int i = 0; i < 64 * 8; i++)
    F64(a[0], i) = (double)((i * 37) % 101);
  launch(p, "row_sort_median", a, 2, 1, 64);
  int bad = 0;
  for (int r = 0; r < 64; r++) {
    double v[8];
    memcpy(v, (double *)a[0].array.data + r * 8, sizeof v);
    for (int j = 1; j < 8; j++)
      for (int k = j; k > 0 && v[k - 1] > v[k]; k--) {
        double t = v[k];
        v[k] = v[k - 1];
        v[k - 1] = t;
      }
    bad += F64(a[1], r) != v[4];
  }
  CHECK(bad == 0);
  RtValue o = arr(RT_I32, 1, 40, 0);
  launch(p, "local_2d", &o, 1, 2, 32);
  CHECK(I32(o, 0) == 11 && I32(o, 39) == 9 + 39 + 2);
  free_vals(a, 2);
  free_vals(&o, 1);
  drop(p);
}

/* ---------------------------------------------------- barriers, shared --- */

static void test_matmul(void) {
  kjit_program *p = load_file("kernels/matmul_shared.py");
  enum { N = 70 };
  RtValue a[3] = {arr(RT_F32, 2, N, N), arr(RT_F32, 2, N, N), arr(RT_F32, 2, N, N)};
  for (int i = 0; i < N * N; i++) {
    F32(a[0], i) = (float)(i % 7) * 0.5f;
    F32(a[1], i) = (float)(i % 5) - 2.0f;
  }
  uint32_t g = (N + 15) / 16;
  launch2(p, "fast_matmul", a, 3, g, g, 16, 16, 0);
  int bad = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < N; k++)
        s += F32(a[0], i * N + k) * F32(a[1], k * N + j);
      bad += fabsf(F32(a[2], i * N + j) - s) > 1e-3f * (1 + fabsf(s));
    }
  CHECK(bad == 0);
  free_vals(a, 3);
  drop(p);
}

static void test_reduce(void) {
  kjit_program *p = load_file("kernels/reduce_shared.py");
  enum { N = 100000 };
  RtValue a[2] = {arr(RT_F32, 1, N, 0), arr(RT_F32, 1, 1, 0)};
  for (int i = 0; i < N; i++)
    F32(a[0], i) = 1.0f;
  launch(p, "sum_reduce", a, 2, (N + 255) / 256, 256);
  CHECK(F32(a[1], 0) == (float)N);
  free_vals(a, 2);
  drop(p);
}

static void test_histogram(void) {
  kjit_program *p = load_file("kernels/histogram.py");
  enum { N = 100000 };
  RtValue a[2] = {arr(RT_U8, 1, N, 0), arr(RT_I32, 1, 64, 0)};
  int want[64] = {0};
  for (int i = 0; i < N; i++) {
    U8(a[0], i) = (uint8_t)((i * 2654435761u) >> 24);
    want[U8(a[0], i) % 64]++;
  }
  launch(p, "histogram", a, 2, 64, 128);
  int bad = 0;
  for (int b = 0; b < 64; b++)
    bad += I32(a[1], b) != want[b];
  CHECK(bad == 0);
  RtValue s[4] = {arr(RT_F32, 1, N, 0), sc_f64(0.0), sc_f64(1.0), arr(RT_U32, 1, 64, 0)};
  uint32_t ws[64] = {0};
  for (int i = 0; i < N; i++) {
    F32(s[0], i) = (float)((i * 37) % 1000) / 1000.0f;
    int b = (int)((F32(s[0], i) - 0.0f) / (1.0f / 64));
    if (b >= 0 && b < 64)
      ws[b]++;
  }
  launch(p, "histogram_shared", s, 4, 32, 128);
  bad = 0;
  for (int b = 0; b < 64; b++)
    bad += U32(s[3], b) != ws[b];
  CHECK(bad == 0);
  free_vals(a, 2);
  free_vals(s, 4);
  drop(p);
}

static void test_dynamic_shared(void) {
  kjit_program *p = load_file("kernels/dynamic_shared.py");
  RtValue a = arr(RT_F32, 1, 512, 0);
  for (int i = 0; i < 512; i++)
    F32(a, i) = (float)i;
  launch2(p, "reverse_block", &a, 1, 2, 1, 256, 1, 256 * 4);
  CHECK(F32(a, 0) == 255.0f && F32(a, 255) == 0.0f && F32(a, 256) == 511.0f);
  RtValue b = arr(RT_I32, 1, 64, 0);
  launch2(p, "dynamic_int", &b, 1, 1, 1, 64, 1, 64 * 4);
  CHECK(I32(b, 0) == 126 && I32(b, 63) == 0);
  free_vals(&a, 1);
  free_vals(&b, 1);
  drop(p);
}

static void test_sync_forms(void) {
  kjit_program *p = load_file("kernels/sync_fence.py");
  RtValue a[2] = {arr(RT_I32, 1, 32, 0), arr(RT_I32, 1, 32, 0)};
  for (int i = 0; i < 32; i++)
    I32(a[0], i) = i - 16;
  launch(p, "barriers", a, 2, 1, 32);
  CHECK(I32(a[1], 0) == 15 * 4 + 0 * 2 + 1 && I32(a[1], 31) == 61);
  for (int i = 0; i < 32; i++)
    I32(a[0], i) = i + 1;
  launch(p, "barriers", a, 2, 1, 32);
  CHECK(I32(a[1], 5) == 32 * 4 + 2 + 0);
  RtValue f[2] = {arr(RT_I32, 1, 100, 0), arr(RT_I32, 1, 1, 0)};
  launch(p, "fences", f, 2, 2, 64);
  CHECK(I32(f[0], 99) == 99 && I32(f[1], 0) == 1);
  free_vals(a, 2);
  free_vals(f, 2);
  drop(p);
}

static void test_atomics(void) {
  kjit_program *p = load_file("kernels/atomics.py");
  enum { T = 256 };
  RtValue a[6] = {arr(RT_I32, 1, 9, 0), arr(RT_U32, 1, 6, 0), arr(RT_I64, 1, 6, 0),
                  arr(RT_U64, 1, 4, 0), arr(RT_F32, 1, 4, 0), arr(RT_F64, 1, 3, 0)};
  I32(a[0], 2) = 0x3F;
  I32(a[0], 5) = -1000;
  I32(a[0], 6) = 1000;
  U32(a[1], 1) = 0;
  U32(a[1], 4) = 0x1234;
  U32(a[1], 5) = 7;
  I64(a[2], 2) = 1000;
  U64(a[3], 2) = 10;
  F32(a[4], 3) = 5.0f;
  F64(a[5], 2) = 1e9;
  launch(p, "atomics_global", a, 6, 2, T / 2);
  int xr = 0;
  for (int i = 0; i < T; i++)
    xr ^= i;
  CHECK(I32(a[0], 0) == T && I32(a[0], 1) == -T && I32(a[0], 2) == 0x30);
  CHECK(I32(a[0], 3) == 0x7FFFFFFF && I32(a[0], 4) == xr && I32(a[0], 5) == T - 1);
  CHECK(I32(a[0], 6) == -(T - 1) && I32(a[0], 7) >= 0 && I32(a[0], 7) < T);
  CHECK(U32(a[1], 0) == T % 101 && U32(a[1], 2) == 3 * T && U32(a[1], 3) == T - 1);
  /* dec from 0 wraps to 100, then counts down: T decrements */
  CHECK(U32(a[1], 1) == (uint32_t)((101 - T % 101) % 101));
  CHECK(U32(a[1], 4) == 0x34 && U32(a[1], 5) == 9);
  CHECK(I64(a[2], 0) == (int64_t)T * (T - 1) / 2 && I64(a[2], 1) == T - 1 && I64(a[2], 2) == 0);
  CHECK(I64(a[2], 3) == T - 1);
  CHECK(U64(a[3], 0) == T && U64(a[3], 1) == T % 51 && U64(a[3], 3) == 0);
  CHECK(F32(a[4], 0) == 1.5f * T && F32(a[4], 1) == -0.5f * T && F32(a[4], 2) == 0.5f * (T - 1));
  CHECK(F32(a[4], 3) == -1.0f);
  CHECK(F64(a[5], 0) == 1.5 * T && F64(a[5], 1) == 0.25 * (T - 1) && F64(a[5], 2) == 0.0);
  RtValue s[3] = {arr(RT_I32, 1, 1, 0), arr(RT_F64, 1, 1, 0), arr(RT_I32, 2, 2, 1)};
  launch(p, "atomics_shared", s, 3, 1, 64);
  CHECK(I32(s[0], 0) == 64 + 63 - 63 && F64(s[1], 0) == 32.0);
  CHECK(I32(s[2], 0) == 32 && I32(s[2], 1) == 32);
  free_vals(a, 6);
  free_vals(s, 3);
  drop(p);
}

/* -------------------------------------------------- inline kernels --- */

static const char corners_src[] =
    "import math\n"
    "from numba import cuda, int32, int64, uint8, uint32, float32\n"
    "@cuda.jit\n"
    "def ints(a, b, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < a.size:\n"
    "        out[i, 0] = a[i] // b[i]\n"
    "        out[i, 1] = a[i] % b[i]\n"
    "@cuda.jit\n"
    "def floats(a, b, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < a.size:\n"
    "        out[i, 0] = a[i] // b[i]\n"
    "        out[i, 1] = a[i] % b[i]\n"
    "        out[i, 2] = round(a[i])\n"
    "@cuda.jit\n"
    "def truediv(a, b, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < a.size:\n"
    "        out[i] = a[i] / b[i]\n"
    "@cuda.jit\n"
    "def narrow(x, u8, i32, i64, u32):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.size:\n"
    "        u8[i] = x[i]\n"
    "        i32[i] = x[i]\n"
    "        i64[i] = x[i]\n"
    "        u32[i] = x[i]\n"
    "@cuda.jit\n"
    "def widen(a, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < a.size:\n"
    "        out[i] = a[i] * a[i] + a[i]\n"
    "@cuda.jit\n"
    "def hello(x, f, flag):\n"
    "    if cuda.threadIdx.x == 0:\n"
    "        print('tid', cuda.threadIdx.x, x, f, flag)\n"
    "@cuda.jit\n"
    "def maths(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.size:\n"
    "        v = x[i]\n"
    "        out[i, 0] = math.sqrt(v)\n"
    "        out[i, 1] = math.exp(v)\n"
    "        out[i, 2] = math.log(v)\n"
    "        out[i, 3] = math.sin(v)\n"
    "        out[i, 4] = math.atan2(v, 2.0)\n"
    "        out[i, 5] = math.pow(v, 1.5)\n"
    "        out[i, 6] = math.tanh(v)\n"
    "        out[i, 7] = v ** 3\n"
    "@cuda.jit\n"
    "def maths32(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.size:\n"
    "        out[i, 0] = math.exp(x[i])\n"
    "        out[i, 1] = math.cos(x[i])\n"
    "        out[i, 2] = math.floor(x[i])\n";

static void test_python_corners(void) {
  kjit_program *p = load_src(corners_src);
  int64_t ia[] = {-7, 7, -7, 7, 5, -5}, ib[] = {2, -2, -2, 2, 0, 0};
  int64_t iq[] = {-4, -4, 3, 3, 0, 0}, ir[] = {1, -1, -1, 1, 0, 0};
  RtValue a[3] = {arr(RT_I64, 1, 6, 0), arr(RT_I64, 1, 6, 0), arr(RT_I64, 2, 6, 2)};
  memcpy(a[0].array.data, ia, sizeof ia);
  memcpy(a[1].array.data, ib, sizeof ib);
  launch(p, "ints", a, 3, 1, 32);
  for (int i = 0; i < 6; i++)
    CHECK(I64(a[2], 2 * i) == iq[i] && I64(a[2], 2 * i + 1) == ir[i]);
  double fa[] = {-7.5, 7.5, 2.5, -3.5, 0.5}, fb[] = {2.0, -2.0, 1.0, 1.0, 1.0};
  double fq[] = {-4.0, -4.0, 2.0, -4.0, 0.0}, fr[] = {0.5, -0.5, 0.5, 0.5, 0.5};
  double fround[] = {-8.0, 8.0, 2.0, -4.0, 0.0};
  RtValue f[3] = {arr(RT_F64, 1, 5, 0), arr(RT_F64, 1, 5, 0), arr(RT_F64, 2, 5, 3)};
  memcpy(f[0].array.data, fa, sizeof fa);
  memcpy(f[1].array.data, fb, sizeof fb);
  launch(p, "floats", f, 3, 1, 32);
  for (int i = 0; i < 5; i++)
    CHECK(F64(f[2], 3 * i) == fq[i] && F64(f[2], 3 * i + 1) == fr[i] && F64(f[2], 3 * i + 2) == fround[i]);
  RtValue t[3] = {arr(RT_I32, 1, 2, 0), arr(RT_I32, 1, 2, 0), arr(RT_F64, 1, 2, 0)};
  I32(t[0], 0) = 7, I32(t[1], 0) = 2, I32(t[0], 1) = -1, I32(t[1], 1) = 4;
  launch(p, "truediv", t, 3, 1, 32);
  CHECK(F64(t[2], 0) == 3.5 && F64(t[2], 1) == -0.25);
  free_vals(a, 3);
  free_vals(f, 3);
  free_vals(t, 3);
  drop(p);
}

/* Float -> int stores as Numba gives them on an H200. */
static void test_narrowing(void) {
  kjit_program *p = load_src(corners_src);
  double x[] = {300.7, -1.5, 1e10, -1e10, NAN, INFINITY, -INFINITY, 255.9};
  uint8_t wu8[] = {44, 0, 255, 0, 0, 255, 0, 255};
  int32_t wi32[] = {300, -1, 2147483647, INT32_MIN, INT32_MIN, 2147483647, INT32_MIN, 255};
  int64_t wi64[] = {300, -1, 10000000000LL, -10000000000LL, INT64_MIN, INT64_MAX, INT64_MIN, 255};
  uint32_t wu32[] = {300, 0, 4294967295u, 0, 2147483648u, 4294967295u, 0, 255};
  RtValue a[5] = {arr(RT_F64, 1, 8, 0), arr(RT_U8, 1, 8, 0), arr(RT_I32, 1, 8, 0), arr(RT_I64, 1, 8, 0),
                  arr(RT_U32, 1, 8, 0)};
  memcpy(a[0].array.data, x, sizeof x);
  launch(p, "narrow", a, 5, 1, 8);
  for (int i = 0; i < 8; i++) {
    if (U8(a[1], i) != wu8[i] || I32(a[2], i) != wi32[i] || I64(a[3], i) != wi64[i] || U32(a[4], i) != wu32[i]) {
      fprintf(stderr, "narrowing %g: u8 %u i32 %d i64 %lld u32 %u\n", x[i], U8(a[1], i), I32(a[2], i),
              (long long)I64(a[3], i), U32(a[4], i));
      failures++;
    }
  }
  /* int32 arithmetic that overflows int32 is done in int64 (Numba widens) */
  RtValue w[2] = {arr(RT_I32, 1, 2, 0), arr(RT_I64, 1, 2, 0)};
  I32(w[0], 0) = 100000, I32(w[0], 1) = -70000;
  launch(p, "widen", w, 2, 1, 2);
  CHECK(I64(w[1], 0) == 10000100000LL && I64(w[1], 1) == 4899930000LL);
  free_vals(a, 5);
  free_vals(w, 2);
  drop(p);
}

static void test_math(void) {
  kjit_program *p = load_src(corners_src);
  RtValue a[2] = {arr(RT_F64, 1, 3, 0), arr(RT_F64, 2, 3, 8)};
  double x[] = {0.5, 2.0, 9.0};
  memcpy(a[0].array.data, x, sizeof x);
  launch(p, "maths", a, 2, 1, 3);
  for (int i = 0; i < 3; i++) {
    double v = x[i], *o = (double *)a[1].array.data + 8 * i;
    double want[8] = {sqrt(v), exp(v), log(v), sin(v), atan2(v, 2.0), pow(v, 1.5), tanh(v), v * v * v};
    for (int k = 0; k < 8; k++)
      if (fabs(o[k] - want[k]) > 1e-12 * fabs(want[k])) {
        fprintf(stderr, "math f64 %d of %g: got %.17g want %.17g\n", k, v, o[k], want[k]);
        failures++;
      }
  }
  RtValue b[2] = {arr(RT_F32, 1, 2, 0), arr(RT_F32, 2, 2, 3)};
  F32(b[0], 0) = 1.25f, F32(b[0], 1) = -2.5f;
  launch(p, "maths32", b, 2, 1, 2);
  for (int i = 0; i < 2; i++) {
    float v = F32(b[0], i), *o = (float *)b[1].array.data + 3 * i;
    CHECK(o[0] == expf(v) && o[1] == cosf(v) && o[2] == floorf(v));
  }
  free_vals(a, 2);
  free_vals(b, 2);
  drop(p);
}

/* print goes through libc printf; stdout is captured through a pipe. */
static void test_print(void) {
  kjit_program *p = load_src(corners_src);
  fflush(stdout);
  int fds[2], saved = dup(1);
  if (pipe(fds) != 0)
    return;
  dup2(fds[1], 1);
  RtValue a[3] = {sc_i64(7), sc_f64(2.5), {.scalar = {.dtype = RT_BOOL, .v.b = true}}};
  bool ok = launch(p, "hello", a, 3, 1, 4);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(fds[1]);
  char buf[256] = "";
  ssize_t n = read(fds[0], buf, sizeof buf - 1);
  close(fds[0]);
  buf[n > 0 ? n : 0] = '\0';
  CHECK(ok && strcmp(buf, "tid 0 7 2.500000 True\n") == 0);
  if (strcmp(buf, "tid 0 7 2.500000 True\n") != 0)
    fprintf(stderr, "print gave \"%s\"\n", buf);
  drop(p);
}

/* A kernel with a `return` before the end keeps running the other threads
 * of the block (the per-block loop continues). */
static void test_early_return(void) {
  kjit_program *p = load_src("from numba import cuda\n"
                             "@cuda.jit\n"
                             "def k(out):\n"
                             "    i = cuda.grid(1)\n"
                             "    if i % 3 == 0:\n"
                             "        return\n"
                             "    out[i] = i\n");
  RtValue a = arr(RT_I64, 1, 64, 0);
  launch(p, "k", &a, 1, 2, 32);
  int bad = 0;
  for (int i = 0; i < 64; i++)
    bad += I64(a, i) != (i % 3 ? i : 0);
  CHECK(bad == 0);
  free_vals(&a, 1);
  drop(p);
}

/* -------------------------------------------------------------- errors --- */

static void test_errors(void) {
  kjit_program *p = load_file("kernels/vector_add.py");
  RtValue a[3] = {arr(RT_F32, 1, 16, 0), arr(RT_F32, 1, 16, 0), arr(RT_F64, 1, 16, 0)};
  expect_error(p, "add_kernel", a, 2, 1, 16, 0, "takes 3 arguments (2 given)");
  expect_error(p, "add_kernel", a, 3, 1, 16, 0, "kernel 'add_kernel': argument 3 ('out'): float64[::1] does not match the signature's float32[::1]");
  expect_error(p, "add_knrel", a, 3, 1, 16, 0, "no kernel named 'add_knrel'");
  rt_array_free(&a[2].array);
  a[2] = arr(RT_F32, 1, 16, 0);
  expect_error(p, "add_kernel", a, 3, 1, 2048, 0, "block.x is 2048; the limit is 1024");
  expect_error(p, "add_kernel", a, 3, 0, 16, 0, "every grid and block dimension must be at least 1");
  expect_error(p, "add_kernel", a, 3, 1, 16, 300 * 1024, "exceed the limit");
  a[0].array.strides[0] = 8, a[0].array.shape[0] = 8; /* not C-contiguous for float32[::1] */
  expect_error(p, "add_kernel", a, 3, 1, 16, 0, "argument 1 ('x'): float32[:] does not match the signature's float32[::1]");
  free_vals(a, 3);
  drop(p);
}

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  if (kjit_context_create(&o, &ctx) != KJIT_OK) {
    fprintf(stderr, "cannot create a context\n");
    return 1;
  }
  test_vector_add();
  test_vectorized();
  test_inplace();
  test_double_2d();
  test_mandelbrot();
  test_stencil();
  test_local_array();
  test_early_return();
  test_matmul();
  test_reduce();
  test_histogram();
  test_dynamic_shared();
  test_sync_forms();
  test_atomics();
  test_python_corners();
  test_narrowing();
  test_math();
  test_print();
  test_errors();
  kjit_context_destroy(ctx);
  if (failures)
    fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
