/* kjit_bench.c - the GPU benchmark kernels (bench/gpu/kernels/NAME.py) run
 * through kjit's public C API on the CUDA target.
 *
 * ASSUMED API (include/kjit.h as of 2026-11-21; the CUDA target was being
 * built while this was written):
 *   kjit_context_options_init / kjit_context_create with .target =
 *     KJIT_TARGET_CUDA, kjit_context_target, kjit_context_destroy,
 *     kjit_last_error
 *   kjit_program_load_file, kjit_program_kernel, kjit_program_destroy
 *   kjit_array_create (host arrays), kjit_array_data, kjit_array_destroy
 *   kjit_arg_array, kjit_arg_scalar(KJIT_FLOAT32 / KJIT_INT32, &v)
 *   kjit_launch_config_init, kjit_launch
 *   kjit_last_timing(ctx, &compile_ms, &copy_ms, &run_ms): run_ms = kernel
 *     time measured with CUDA events, compile_ms = source -> loaded function
 *     (0 on a specialization hit; a disk-cache hit on a new context is the
 *     "warm" compile)
 *   kjit_cache_configure(ctx, 1, DIR) to point a context at a fresh cache
 *   kjit_array_to_device / kjit_array_destroy (device arrays: passed to a
 *     launch with no copy), kjit_synchronize
 *   kjit_launch_config.repeat: the kernel runs that many times back to back
 *     on the GPU, each timed with CUDA events; run_ms is the median.
 *
 * Kernel times: one checked launch on host arrays (copied in and out, as
 * Numba does with NumPy arrays) gives the checksum; then the arrays are
 * copied to device arrays once and the timed launches (warm-up, then
 * repeat = n) use those, so no copy is near the kernel.  Launch overhead:
 * device arrays, back-to-back asynchronous kjit_launch calls, one
 * kjit_synchronize before the clock is read.
 *
 * Inputs are exactly those of bench/gpu/cuda/bench_common.h and
 * numba_bench.py (same hash, sizes, seeds, geometry).  Output lines (parsed
 * by run.sh):
 *   RESULT impl=kjit kernel=NAME median_ms=M min_ms=m n=N checksum=C mass=S mode=...
 *   OVERHEAD impl=kjit args=K us_per_launch=U launches=L mode=...
 *   COMPILE impl=kjit what=WHAT ms=T
 *   ERROR impl=kjit kernel=NAME message
 *
 * Usage: kjit_bench --kernels DIR [-n N] [-w W] [--only NAME] [--launches L]
 *                   [--no-overhead] [--no-compile] [--no-kernels]
 *                   [--target cuda|cpu]   (cpu: to test this program without a GPU)
 * --only FILE with no built-in benchmark of that name runs the "# BENCH"
 * rows of kernels/FILE.py (see setup_spec).
 */
#define _POSIX_C_SOURCE 200809L
#include <kjit.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *g_kdir = "bench/gpu/kernels";
static int g_n = 50, g_warm = 5, g_launches = 10000;
static kjit_target g_target = KJIT_TARGET_CUDA; /* --target cpu: to test the program */

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ------------------------------------------------------------- inputs --- */
/* bench_common.h's formulas. */
static double u01(uint32_t i, uint32_t seed) {
  return (double)(uint32_t)(i * 2654435761u + seed * 97531u) / 4294967296.0;
}

static void fill_f32(kjit_array *a, uint32_t seed, double lo, double hi) {
  float *p = kjit_array_data(a);
  int64_t n = kjit_array_size(a);
  double span = hi - lo;
  for (int64_t i = 0; i < n; i++)
    p[i] = (float)(lo + span * u01((uint32_t)i, seed));
}

/* --------------------------------------------------------- benchmarks --- */

#define MAXA 8
#define MAXOUT 4

typedef struct Bench {
  const char *name;     /* row name, also the .py file name */
  const char *kernel;   /* kernel function in the file */
  kjit_launch_config cfg;
  kjit_arg args[MAXA];
  int nargs;
  kjit_array *arrays[MAXA]; /* owned, destroyed after the run */
  int narrays;
  kjit_array *outs[MAXOUT];  /* checksummed */
  int nouts;
} Bench;

static kjit_array *arr(kjit_context *ctx, Bench *b, kjit_dtype dt, int ndim, int64_t d0,
                       int64_t d1) {
  int64_t shape[2] = {d0, d1};
  kjit_array *a = NULL;
  if (kjit_array_create(ctx, dt, ndim, shape, &a) != KJIT_OK) {
    fprintf(stderr, "kjit_bench: kjit_array_create: %s\n", kjit_last_error(ctx));
    return NULL;
  }
  b->arrays[b->narrays++] = a;
  b->args[b->nargs++] = kjit_arg_array(a);
  return a;
}

static void f32arg(Bench *b, float v) { b->args[b->nargs++] = kjit_arg_scalar(KJIT_FLOAT32, &v); }
static void i32arg(Bench *b, int32_t v) { b->args[b->nargs++] = kjit_arg_scalar(KJIT_INT32, &v); }

static void geom(Bench *b, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by) {
  kjit_launch_config_init(&b->cfg);
  b->cfg.grid[0] = gx;
  b->cfg.grid[1] = gy;
  b->cfg.block[0] = bx;
  b->cfg.block[1] = by;
}

/* One function per benchmark: allocates and fills b's arguments in the
 * kernel's parameter order, names the outputs to checksum and sets the
 * geometry; returns 0 on success. */
static int setup_vector_add(kjit_context *ctx, Bench *b) {
  kjit_array *x, *y;
  int64_t n = 1 << 26;
  b->kernel = "vector_add";
  if (!(x = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)) || !(y = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)) ||
      !(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)))
    return 1;
  fill_f32(x, 1, 0.0, 1.0);
  fill_f32(y, 2, 0.0, 1.0);
  b->nouts = 1;
  geom(b, (uint32_t)(n / 256), 1, 256, 1);
  return 0;
}

static int setup_saxpy(kjit_context *ctx, Bench *b) {
  kjit_array *x, *y;
  int64_t n = 1 << 26;
  b->kernel = "saxpy";
  f32arg(b, 2.5f);
  if (!(x = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)) || !(y = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)) ||
      !(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)))
    return 1;
  fill_f32(x, 1, 0.0, 1.0);
  fill_f32(y, 2, 0.0, 1.0);
  b->nouts = 1;
  geom(b, (uint32_t)(n / 256), 1, 256, 1);
  return 0;
}

static int setup_matmul(kjit_context *ctx, Bench *b) {
  kjit_array *x, *y;
  int64_t n = 2048;
  b->kernel = "matmul";
  if (!(x = arr(ctx, b, KJIT_FLOAT32, 2, n, n)) || !(y = arr(ctx, b, KJIT_FLOAT32, 2, n, n)) ||
      !(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 2, n, n)))
    return 1;
  fill_f32(x, 3, 0.0, 1.0);
  fill_f32(y, 4, 0.0, 1.0);
  b->nouts = 1;
  geom(b, (uint32_t)(n / 16), (uint32_t)(n / 16), 16, 16);
  return 0;
}

static int setup_reduce(kjit_context *ctx, Bench *b) {
  kjit_array *x;
  int64_t n = 1 << 26;
  b->kernel = "reduce_sum";
  if (!(x = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)) || !(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 1, 1, 0)))
    return 1;
  fill_f32(x, 5, 0.0, 1.0);
  b->nouts = 1;
  geom(b, (uint32_t)(n / 256), 1, 256, 1);
  return 0;
}

static int setup_stencil(kjit_context *ctx, Bench *b) {
  kjit_array *a;
  int64_t n = 4096;
  b->kernel = "stencil5";
  if (!(a = arr(ctx, b, KJIT_FLOAT32, 2, n, n)) || !(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 2, n, n)))
    return 1;
  fill_f32(a, 6, 0.0, 1.0);
  b->nouts = 1;
  geom(b, (uint32_t)(n / 32), (uint32_t)(n / 8), 32, 8);
  return 0;
}

static int setup_histogram(kjit_context *ctx, Bench *b) {
  kjit_array *a;
  int64_t n = 1 << 26;
  b->kernel = "histogram";
  if (!(a = arr(ctx, b, KJIT_UINT8, 1, n, 0)) || !(b->outs[0] = arr(ctx, b, KJIT_UINT32, 1, 256, 0)))
    return 1;
  uint8_t *d = kjit_array_data(a);
  for (int64_t i = 0; i < n; i++)
    d[i] = (uint8_t)((uint32_t)((uint32_t)i * 2654435761u + 7u * 97531u) >> 24);
  b->nouts = 1;
  geom(b, 1024, 1, 256, 1);
  return 0;
}

static int setup_mandelbrot(kjit_context *ctx, Bench *b) {
  int64_t n = 2048;
  b->kernel = "mandelbrot";
  float d = (float)(3.0 / n);
  f32arg(b, -2.0f);
  f32arg(b, -1.5f);
  f32arg(b, d);
  f32arg(b, d);
  if (!(b->outs[0] = arr(ctx, b, KJIT_INT32, 2, n, n)))
    return 1;
  i32arg(b, 256);
  b->nouts = 1;
  geom(b, (uint32_t)(n / 32), (uint32_t)(n / 8), 32, 8);
  return 0;
}

static int setup_black_scholes(kjit_context *ctx, Bench *b) {
  int64_t n = 1 << 24;
  b->kernel = "black_scholes";
  kjit_array *S, *X, *T;
  if (!(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)) ||
      !(b->outs[1] = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)) ||
      !(S = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)) || !(X = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)) ||
      !(T = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)))
    return 1;
  fill_f32(S, 8, 5.0, 30.0);
  fill_f32(X, 9, 1.0, 100.0);
  fill_f32(T, 10, 0.25, 10.0);
  f32arg(b, 0.02f);
  f32arg(b, 0.30f);
  b->nouts = 2;
  geom(b, (uint32_t)(n / 256), 1, 256, 1);
  return 0;
}

static int setup_transpose(kjit_context *ctx, Bench *b) {
  kjit_array *a;
  int64_t n = 8192;
  b->kernel = "transpose";
  if (!(a = arr(ctx, b, KJIT_FLOAT32, 2, n, n)) || !(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 2, n, n)))
    return 1;
  fill_f32(a, 11, 0.0, 1.0);
  b->nouts = 1;
  geom(b, (uint32_t)(n / 32), (uint32_t)(n / 32), 32, 8);
  return 0;
}

static int setup_nbody(kjit_context *ctx, Bench *b) {
  int64_t n = 32768;
  b->kernel = "nbody";
  kjit_array *pos, *vel;
  if (!(pos = arr(ctx, b, KJIT_FLOAT32, 2, n, 4)) || !(vel = arr(ctx, b, KJIT_FLOAT32, 2, n, 4)) ||
      !(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 2, n, 4)) ||
      !(b->outs[1] = arr(ctx, b, KJIT_FLOAT32, 2, n, 4)))
    return 1;
  fill_f32(pos, 12, 0.0, 1.0);
  fill_f32(vel, 13, -0.5, 0.5);
  f32arg(b, 0.01f);
  f32arg(b, 0.01f);
  b->nouts = 2;
  geom(b, (uint32_t)(n / 128), 1, 128, 1);
  return 0;
}

static int setup_conv2d(kjit_context *ctx, Bench *b) {
  kjit_array *a, *w;
  int64_t n = 4096;
  b->kernel = "conv2d";
  if (!(a = arr(ctx, b, KJIT_FLOAT32, 2, n, n)) || !(w = arr(ctx, b, KJIT_FLOAT32, 2, 5, 5)) ||
      !(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 2, n, n)))
    return 1;
  fill_f32(a, 14, 0.0, 1.0);
  fill_f32(w, 15, -1.0, 1.0);
  b->nouts = 1;
  geom(b, (uint32_t)(n / 32), (uint32_t)(n / 8), 32, 8);
  return 0;
}

static int setup_softmax(kjit_context *ctx, Bench *b) {
  kjit_array *x;
  int64_t rows = 32768, cols = 2048;
  b->kernel = "softmax";
  if (!(x = arr(ctx, b, KJIT_FLOAT32, 2, rows, cols)) ||
      !(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 2, rows, cols)))
    return 1;
  fill_f32(x, 16, -5.0, 5.0);
  b->nouts = 1;
  geom(b, (uint32_t)(rows * 32 / 256), 1, 256, 1); /* one warp per row */
  return 0;
}

static int setup_scan(kjit_context *ctx, Bench *b) {
  kjit_array *x;
  int64_t n = 1 << 26;
  b->kernel = "scan";
  if (!(x = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)) ||
      !(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)) ||
      !(b->outs[1] = arr(ctx, b, KJIT_FLOAT32, 1, n / 1024, 0)))
    return 1;
  fill_f32(x, 17, 0.0, 1.0);
  b->nouts = 2;
  geom(b, (uint32_t)(n / 1024), 1, 1024, 1);
  return 0;
}

static int setup_monte_carlo(kjit_context *ctx, Bench *b) {
  kjit_array *a;
  int64_t n = 1 << 20;
  b->kernel = "monte_carlo";
  /* Numba's create_xoroshiro128p_states(n, seed=1234) */
  if (kjit_array_xoroshiro128p(ctx, n, 1234, 0, &a) != KJIT_OK) {
    fprintf(stderr, "kjit_bench: kjit_array_xoroshiro128p: %s\n", kjit_last_error(ctx));
    return 1;
  }
  b->arrays[b->narrays++] = a;
  b->args[b->nargs++] = kjit_arg_array(a);
  if (!(b->outs[0] = arr(ctx, b, KJIT_FLOAT32, 1, n, 0)))
    return 1;
  f32arg(b, 100.0f); /* s0 */
  f32arg(b, 100.0f); /* strike */
  f32arg(b, 0.05f);  /* r */
  f32arg(b, 0.2f);   /* v */
  f32arg(b, 1.0f);   /* t */
  b->nouts = 1;
  geom(b, (uint32_t)(n / 256), 1, 256, 1);
  return 0;
}

/* ------------------------------------------------- "# BENCH" rows --- */
/* A kernel file may declare its own rows, one comment line each (the
 * pattern and guard kernels; numba_bench.py reads the same lines):
 *   # BENCH row=ROW kernel=FN grid=X[,Y[,Z]] block=X[,Y[,Z]] a=ARG a=ARG ...
 * one a= per kernel parameter, in order:
 *   in:DTYPE:SHAPE:SEED:LO:HI   an input filled with the bench hash: scalar
 *                               component k (a complex element has two) is
 *                               LO + (HI - LO) * u01(k, SEED), floored for
 *                               integer dtypes
 *   out:DTYPE:SHAPE             zeros; checksummed after the checked launch
 *   io:DTYPE:SHAPE:SEED:LO:HI   filled as in:, checksummed as out:
 *   s:DTYPE:VALUE               a scalar
 * SHAPE is dimensions joined by 'x' (4096x64).  The checksum of an output
 * is sum(c[k] * (1 + k % 7)) over its scalar components in C order. */
#define MAXROWS 32

static int parse_dims(const char *s, int64_t *d, int max) {
  int n = 0;
  while (*s && n < max) {
    char *end;
    d[n++] = strtoll(s, &end, 10);
    if (end == s)
      return -1;
    s = *end ? end + 1 : end;
  }
  return *s ? -1 : n;
}

/* the scalar components of one element, and the number of them */
static int components(kjit_dtype dt) { return dt == KJIT_COMPLEX64 || dt == KJIT_COMPLEX128 ? 2 : 1; }

static void store_comp(void *p, kjit_dtype dt, int64_t k, double v) {
  switch (dt) {
  case KJIT_FLOAT32: case KJIT_COMPLEX64: ((float *)p)[k] = (float)v; break;
  case KJIT_FLOAT64: case KJIT_COMPLEX128: ((double *)p)[k] = v; break;
  case KJIT_INT8: ((int8_t *)p)[k] = (int8_t)floor(v); break;
  case KJIT_INT16: ((int16_t *)p)[k] = (int16_t)floor(v); break;
  case KJIT_INT32: ((int32_t *)p)[k] = (int32_t)floor(v); break;
  case KJIT_INT64: ((int64_t *)p)[k] = (int64_t)floor(v); break;
  case KJIT_UINT8: ((uint8_t *)p)[k] = (uint8_t)floor(v); break;
  case KJIT_UINT16: ((uint16_t *)p)[k] = (uint16_t)floor(v); break;
  case KJIT_UINT32: ((uint32_t *)p)[k] = (uint32_t)floor(v); break;
  case KJIT_UINT64: ((uint64_t *)p)[k] = (uint64_t)floor(v); break;
  case KJIT_BOOL: ((uint8_t *)p)[k] = v >= 0.5; break;
  default: break;
  }
}

static double load_comp(const void *p, kjit_dtype dt, int64_t k) {
  switch (dt) {
  case KJIT_FLOAT32: case KJIT_COMPLEX64: return ((const float *)p)[k];
  case KJIT_FLOAT64: case KJIT_COMPLEX128: return ((const double *)p)[k];
  case KJIT_INT8: return ((const int8_t *)p)[k];
  case KJIT_INT16: return ((const int16_t *)p)[k];
  case KJIT_INT32: return ((const int32_t *)p)[k];
  case KJIT_INT64: return (double)((const int64_t *)p)[k];
  case KJIT_UINT8: case KJIT_BOOL: return ((const uint8_t *)p)[k];
  case KJIT_UINT16: return ((const uint16_t *)p)[k];
  case KJIT_UINT32: return ((const uint32_t *)p)[k];
  case KJIT_UINT64: return (double)((const uint64_t *)p)[k];
  case KJIT_FLOAT16: {
    uint16_t h = ((const uint16_t *)p)[k];
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h >> 15 ? -v : v;
  }
  default: return 0;
  }
}

/* The checksum of one output; *mass gains the same sum over |components|,
 * the scale report.py judges a difference of rounding against. */
static double checksum_any(kjit_array *a, double *mass) {
  kjit_dtype dt = kjit_array_dtype(a);
  int64_t n = kjit_array_size(a) * components(dt);
  const void *p = kjit_array_data(a);
  double s = 0.0;
  for (int64_t k = 0; k < n; k++) {
    double v = load_comp(p, dt, k), w = (double)(1 + k % 7);
    s += v * w;
    *mass += fabs(v) * w;
  }
  return s;
}

/* Sets b up from one "# BENCH" line (after the marker); 0 on success. */
static int setup_spec(kjit_context *ctx, Bench *b, char *line) {
  static char kernel[128];
  kjit_launch_config_init(&b->cfg);
  char *save = NULL;
  for (char *tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
    if (strncmp(tok, "row=", 4) == 0)
      continue;
    if (strncmp(tok, "kernel=", 7) == 0) {
      snprintf(kernel, sizeof kernel, "%s", tok + 7);
      b->kernel = kernel;
    } else if (strncmp(tok, "grid=", 5) == 0 || strncmp(tok, "block=", 6) == 0) {
      int g = tok[0] == 'g';
      int64_t d[3] = {1, 1, 1};
      if (parse_dims(tok + (g ? 5 : 6), d, 3) < 1)
        return 1;
      for (int i = 0; i < 3; i++)
        (g ? b->cfg.grid : b->cfg.block)[i] = (uint32_t)d[i];
    } else if (strncmp(tok, "a=", 2) == 0) {
      char *f[6] = {0};
      int nf = 0;
      char *s2 = NULL;
      for (char *p = strtok_r(tok + 2, ":", &s2); p && nf < 6; p = strtok_r(NULL, ":", &s2))
        f[nf++] = p;
      if (nf < 3 || b->nargs >= MAXA)
        return 1;
      kjit_dtype dt = kjit_dtype_from_name(f[1]);
      if (dt == KJIT_DTYPE_INVALID)
        return 1;
      if (strcmp(f[0], "s") == 0) {
        unsigned char v[16] = {0};
        double x = strtod(f[2], NULL);
        store_comp(v, dt, 0, x);
        b->args[b->nargs++] = kjit_arg_scalar(dt, v);
        continue;
      }
      int64_t shape[KJIT_MAX_NDIM];
      int nd = parse_dims(f[2], shape, KJIT_MAX_NDIM);
      kjit_array *a = NULL;
      if (nd < 1 || kjit_array_create(ctx, dt, nd, shape, &a) != KJIT_OK) {
        fprintf(stderr, "kjit_bench: %s: %s\n", tok, kjit_last_error(ctx));
        return 1;
      }
      b->arrays[b->narrays++] = a;
      b->args[b->nargs++] = kjit_arg_array(a);
      int fill = strcmp(f[0], "in") == 0 || strcmp(f[0], "io") == 0;
      if (fill) {
        if (nf < 6)
          return 1;
        uint32_t seed = (uint32_t)strtoul(f[3], NULL, 10);
        double lo = strtod(f[4], NULL), span = strtod(f[5], NULL) - lo;
        int64_t n = kjit_array_size(a) * components(dt);
        void *p = kjit_array_data(a);
        for (int64_t k = 0; k < n; k++)
          store_comp(p, dt, k, lo + span * u01((uint32_t)k, seed));
      }
      if (strcmp(f[0], "in") != 0) {
        if (b->nouts >= MAXOUT)
          return 1;
        b->outs[b->nouts++] = a;
      }
    } else {
      return 1;
    }
  }
  return b->kernel ? 0 : 1;
}

/* The "# BENCH" lines of kernels/FILE.py (after the marker, malloc'd) and
 * their row names; returns how many (-1: no such file). */
static int spec_rows(const char *file, char **lines, char **rows) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.py", g_kdir, file);
  FILE *fp = fopen(path, "r");
  if (!fp)
    return -1;
  char buf[4096];
  int n = 0;
  while (n < MAXROWS && fgets(buf, sizeof buf, fp)) {
    if (strncmp(buf, "# BENCH ", 8) != 0)
      continue;
    char *r = strstr(buf, "row=");
    if (!r)
      continue;
    size_t len = strcspn(r + 4, " \t\r\n");
    rows[n] = strndup(r + 4, len);
    lines[n] = strdup(buf + 8);
    n++;
  }
  fclose(fp);
  return n;
}

typedef struct BenchSetup {
  const char *name; /* row name, also the .py file name */
  int (*fn)(kjit_context *ctx, Bench *b);
} BenchSetup;

static const BenchSetup SETUPS[] = {
    {"vector_add", setup_vector_add},
    {"saxpy", setup_saxpy},
    {"matmul", setup_matmul},
    {"reduce", setup_reduce},
    {"stencil", setup_stencil},
    {"histogram", setup_histogram},
    {"mandelbrot", setup_mandelbrot},
    {"black_scholes", setup_black_scholes},
    {"transpose", setup_transpose},
    {"nbody", setup_nbody},
    {"conv2d", setup_conv2d},
    {"softmax", setup_softmax},
    {"scan", setup_scan},
    {"monte_carlo", setup_monte_carlo},
};

/* Sets up benchmark `name`; returns 0 on success. */
static int setup(kjit_context *ctx, const char *name, Bench *b) {
  memset(b, 0, sizeof *b);
  b->name = name;
  for (size_t i = 0; i < sizeof SETUPS / sizeof SETUPS[0]; i++)
    if (strcmp(name, SETUPS[i].name) == 0)
      return SETUPS[i].fn(ctx, b);
  fprintf(stderr, "kjit_bench: unknown benchmark '%s'\n", name);
  return 1;
}

static void teardown(Bench *b) {
  for (int i = 0; i < b->narrays; i++)
    kjit_array_destroy(b->arrays[i]);
}

static kjit_context *new_context(const char *cache_dir) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = g_target;
  kjit_context *ctx = NULL;
  if (kjit_context_create(&o, &ctx) != KJIT_OK) {
    fputs("kjit_bench: cannot create a context\n", stderr);
    return NULL;
  }
  kjit_target t;
  if (kjit_context_target(ctx, &t) != KJIT_OK || t != g_target) {
    fprintf(stderr, "kjit_bench: target not available: %s\n", kjit_last_error(ctx));
    kjit_context_destroy(ctx);
    return NULL;
  }
  if (cache_dir && kjit_cache_configure(ctx, 1, cache_dir) != KJIT_OK)
    fprintf(stderr, "kjit_bench: kjit_cache_configure: %s\n", kjit_last_error(ctx));
  return ctx;
}

static kjit_kernel *open_kernel(kjit_context *ctx, const char *file, const char *name,
                                kjit_program **prog) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.py", g_kdir, file);
  kjit_kernel *k = NULL;
  if (kjit_program_load_file(ctx, path, prog) != KJIT_OK ||
      kjit_program_kernel(*prog, name, &k) != KJIT_OK) {
    printf("ERROR impl=kjit kernel=%s cannot load %s:%s: %s\n", file, path, name,
           kjit_last_error(ctx));
    return NULL;
  }
  return k;
}

/* dev: b's arguments with every array copied to a device array (owned by
 * dev, released by teardown). */
static int device_args(kjit_context *ctx, const Bench *b, Bench *dev) {
  memset(dev, 0, sizeof *dev);
  dev->name = b->name;
  dev->cfg = b->cfg;
  for (int i = 0; i < b->nargs; i++) {
    dev->args[dev->nargs++] = b->args[i];
    if (b->args[i].kind != KJIT_ARG_ARRAY)
      continue;
    kjit_array *d = NULL;
    if (kjit_array_to_device(ctx, b->args[i].value.array, &d) != KJIT_OK) {
      printf("ERROR impl=kjit kernel=%s kjit_array_to_device: %s\n", b->name, kjit_last_error(ctx));
      teardown(dev);
      return 1;
    }
    dev->arrays[dev->narrays++] = d;
    dev->args[dev->nargs - 1] = kjit_arg_array(d);
  }
  return 0;
}

static int launch(kjit_context *ctx, kjit_kernel *k, const Bench *b, const kjit_launch_config *cfg) {
  if (kjit_launch(k, cfg, b->args, b->nargs) != KJIT_OK) {
    char *msg = strdup(kjit_last_error(ctx));
    for (char *p = msg; p && *p; p++)
      if (*p == '\n') *p = ' ';
    printf("ERROR impl=kjit kernel=%s kjit_launch: %s\n", b->name, msg ? msg : "?");
    free(msg);
    return 1;
  }
  return 0;
}

/* Runs row `name`: a SETUPS entry (spec NULL; file = name) or a
 * "# BENCH" line of kernels/FILE.py. */
static int run_bench(kjit_context *ctx, const char *name, const char *file, char *spec) {
  Bench b;
  kjit_program *prog = NULL;
  int bad_setup;
  if (spec) {
    memset(&b, 0, sizeof b);
    b.name = name;
    bad_setup = setup_spec(ctx, &b, spec);
  } else {
    bad_setup = setup(ctx, name, &b);
  }
  if (bad_setup) {
    teardown(&b);
    printf("ERROR impl=kjit kernel=%s setup failed\n", name);
    return 1;
  }
  int rc = 1;
  kjit_kernel *k = open_kernel(ctx, file, b.kernel, &prog);
  if (!k)
    goto done;
  /* 1. the checked launch, on zeroed outputs */
  if (launch(ctx, k, &b, &b.cfg))
    goto done;
  double cs = 0, mass = 0;
  for (int i = 0; i < b.nouts; i++)
    cs += checksum_any(b.outs[i], &mass);
  double *ms = calloc((size_t)g_n, sizeof *ms);
  if (!ms)
    goto done;
  double min = 1e30;
  const char *mode;
  /* 2-3. device copies of the arguments; warm-up, then g_n launches back
   * to back on the GPU, each timed with events by the runtime; run_ms is
   * their median. */
  /* the cpu target (--target cpu, to test this program) has no device
   * arrays: it times the host arrays in place */
  int on_host = g_target == KJIT_TARGET_CPU;
  Bench dev;
  if (on_host)
    dev = b;
  else if (device_args(ctx, &b, &dev)) {
    free(ms);
    goto done;
  }
  kjit_launch_config cfg = b.cfg;
  cfg.repeat = g_warm > 0 ? g_warm : 1;
  int bad = launch(ctx, k, &dev, &cfg);
  cfg.repeat = g_n;
  bad = bad || launch(ctx, k, &dev, &cfg);
  if (!on_host)
    teardown(&dev);
  if (bad) {
    free(ms);
    goto done;
  }
  kjit_last_timing(ctx, NULL, NULL, &ms[0]);
  for (int i = 1; i < g_n; i++)
    ms[i] = ms[0];
  min = ms[0]; /* only the median comes back */
  mode = on_host ? "cpu-host-repeat" : "device-repeat";
  printf("RESULT impl=kjit kernel=%s median_ms=%.6f min_ms=%.6f n=%d checksum=%.17g mass=%.17g mode=%s\n",
         name, median(ms, g_n), min, g_n, cs, mass, mode);
  fflush(stdout);
  free(ms);
  rc = 0;
done:
  teardown(&b);
  kjit_program_destroy(prog);
  fflush(stdout);
  return rc;
}

/* Tiny grid (1 block of 32 threads), 1 and 4 array arguments, g_launches
 * back-to-back kjit_launch calls: wall time / launches. */
static int launch_overhead(kjit_context *ctx) {
  kjit_program *prog = NULL;
  int rc = 0;
  for (int nargs = 1; nargs <= 4; nargs += 3) {
    kjit_kernel *k = open_kernel(ctx, "launch_overhead", nargs == 1 ? "tiny1" : "tiny4", &prog);
    if (!k)
      return 1;
    Bench b;
    memset(&b, 0, sizeof b);
    b.name = nargs == 1 ? "tiny1" : "tiny4";
    Bench host;
    memset(&host, 0, sizeof host);
    host.name = b.name;
    for (int i = 0; i < nargs; i++)
      if (!arr(ctx, &host, KJIT_FLOAT32, 1, 32, 0)) {
        teardown(&host);
        rc = 1;
        goto next;
      }
    rc = device_args(ctx, &host, &b);
    teardown(&host);
    if (rc)
      goto next;
    geom(&b, 1, 1, 32, 1);
    for (int i = 0; i < 100; i++)
      if (launch(ctx, k, &b, &b.cfg)) {
        rc = 1;
        goto next;
      }
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
      if (kjit_synchronize(ctx) != KJIT_OK) {
        rc = 1;
        goto next;
      }
      double t0 = now_ms();
      for (int i = 0; i < g_launches; i++)
        if (launch(ctx, k, &b, &b.cfg)) {
          rc = 1;
          goto next;
        }
      if (kjit_synchronize(ctx) != KJIT_OK) {
        printf("ERROR impl=kjit kernel=%s kjit_synchronize: %s\n", b.name, kjit_last_error(ctx));
        rc = 1;
        goto next;
      }
      double us = (now_ms() - t0) * 1e3 / g_launches;
      if (us < best)
        best = us;
    }
    printf("OVERHEAD impl=kjit args=%d us_per_launch=%.3f launches=%d mode=device-arrays\n", nargs,
           best, g_launches);
    fflush(stdout);
  next:
    teardown(&b);
    kjit_program_destroy(prog);
    prog = NULL;
  }
  return rc;
}

/* Compile latency of the vector add on a started driver:
 *   cold: a context on an empty cache directory: program load + first
 *         launch's compile_ms (source -> PTX -> cubin -> loaded function);
 *   warm: a second context on the same directory: program load + compile_ms
 *         (the cubin from the disk cache, loaded). */
static int compile_latency(void) {
  char dir[] = "/tmp/kjit-bench-cache.XXXXXX";
  if (!mkdtemp(dir)) {
    perror("kjit_bench: mkdtemp");
    return 1;
  }
  int rc = 0;
  for (int round = 0; round < 2 && rc == 0; round++) {
    kjit_context *ctx = new_context(dir);
    if (!ctx)
      return 1;
    /* start the driver and primary context with another kernel first */
    kjit_program *p0 = NULL, *p1 = NULL;
    kjit_kernel *k0 = open_kernel(ctx, "launch_overhead", "tiny1", &p0);
    Bench b0, b1;
    memset(&b0, 0, sizeof b0);
    memset(&b1, 0, sizeof b1);
    b0.name = "tiny1";
    if (!k0 || !arr(ctx, &b0, KJIT_FLOAT32, 1, 32, 0)) {
      rc = 1;
      goto out;
    }
    geom(&b0, 1, 1, 32, 1);
    if (launch(ctx, k0, &b0, &b0.cfg)) {
      rc = 1;
      goto out;
    }
    b1.name = "vector_add";
    for (int i = 0; i < 3; i++)
      if (!arr(ctx, &b1, KJIT_FLOAT32, 1, 1024, 0)) {
        rc = 1;
        goto out;
      }
    geom(&b1, 4, 1, 256, 1);
    double t0 = now_ms();
    kjit_kernel *k1 = open_kernel(ctx, "vector_add", "vector_add", &p1);
    double t_load = now_ms() - t0;
    if (!k1 || launch(ctx, k1, &b1, &b1.cfg)) {
      rc = 1;
      goto out;
    }
    double compile_ms = 0;
    kjit_last_timing(ctx, &compile_ms, NULL, NULL);
    printf("COMPILE impl=kjit what=%s ms=%.3f\n",
           round == 0 ? "cold_vector_add" : "warm_vector_add", t_load + compile_ms);
    printf("COMPILE impl=kjit what=%s_launch_compile_only ms=%.3f\n",
           round == 0 ? "cold_vector_add" : "warm_vector_add", compile_ms);
    fflush(stdout);
  out:
    teardown(&b0);
    teardown(&b1);
    kjit_program_destroy(p0);
    kjit_program_destroy(p1);
    kjit_context_destroy(ctx);
  }
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "kjit_bench: could not remove %s\n", dir);
  return rc;
}

int main(int argc, char **argv) {
  const char *only = NULL;
  int do_kernels = 1, do_overhead = 1, do_compile = 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--kernels") == 0 && i + 1 < argc)
      g_kdir = argv[++i];
    else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
      g_n = atoi(argv[++i]);
    else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
      g_warm = atoi(argv[++i]);
    else if (strcmp(argv[i], "--launches") == 0 && i + 1 < argc)
      g_launches = atoi(argv[++i]);
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];
    else if (strcmp(argv[i], "--target") == 0 && i + 1 < argc)
      g_target = strcmp(argv[++i], "cpu") == 0 ? KJIT_TARGET_CPU : KJIT_TARGET_CUDA;
    else if (strcmp(argv[i], "--no-kernels") == 0)
      do_kernels = 0;
    else if (strcmp(argv[i], "--no-overhead") == 0)
      do_overhead = 0;
    else if (strcmp(argv[i], "--no-compile") == 0)
      do_compile = 0;
    else {
      fprintf(stderr,
              "usage: %s --kernels DIR [-n N] [-w W] [--only NAME] [--launches L]\n"
              "          [--no-kernels] [--no-overhead] [--no-compile] [--target cuda|cpu]\n",
              argv[0]);
      return 2;
    }
  }
  if (g_n < 1) g_n = 1;
  if (g_warm < 0) g_warm = 0;
  if (g_launches < 1) g_launches = 1;
  printf("INFO impl=kjit version=%s\n", kjit_version());
  int failed = 0;
  /* compile latency first: its cold round wants a process whose LLVM and
   * libdevice state is fresh, like a user's first call */
  if (do_compile)
    failed |= compile_latency();
  kjit_context *ctx = NULL;
  if (do_kernels || do_overhead) {
    ctx = new_context(NULL);
    if (!ctx)
      return 1;
  }
  if (do_kernels) {
    int found = 0;
    for (size_t i = 0; i < sizeof SETUPS / sizeof SETUPS[0]; i++)
      if (!only || strcmp(only, SETUPS[i].name) == 0) {
        found = 1;
        failed |= run_bench(ctx, SETUPS[i].name, SETUPS[i].name, NULL);
      }
    if (only && !found) {
      /* a file of "# BENCH" rows */
      char *lines[MAXROWS], *rows[MAXROWS];
      int n = spec_rows(only, lines, rows);
      if (n <= 0) {
        printf("ERROR impl=kjit kernel=%s no such benchmark (nor # BENCH rows in %s/%s.py)\n", only,
               g_kdir, only);
        failed = 1;
      }
      for (int i = 0; i < n; i++) {
        failed |= run_bench(ctx, rows[i], only, lines[i]);
        free(lines[i]);
        free(rows[i]);
      }
    }
  }
  if (do_overhead)
    failed |= launch_overhead(ctx);
  kjit_context_destroy(ctx);
  return failed ? 1 : 0;
}
