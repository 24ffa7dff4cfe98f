/* check_main.c - tests/aot.sh's program over the library generated from
 * scalars.py: every launcher's results checked against values computed
 * here, and the launch checks' refusals (layout, geometry, shared memory,
 * a debug index check) with their messages.  Argument: the target (cpu or
 * cuda).  examples/rel_diff.py's @vectorize launchers come from a second
 * library linked into the same program.  Prints one line per check; exit
 * status 1 when any failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rel_diff.h"
#include "scalars.h"

static int failures;

#define EXPECT(cond, what)                                                           \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      printf("FAIL %s (%s)\n", what, scalars_last_error());                          \
      failures++;                                                                    \
    } else                                                                           \
      printf("ok %s\n", what);                                                       \
  } while (0)

/* n elements of the target's memory holding host[0..n) (NULL: zeros). */
static void *to_target(const void *host, size_t bytes) {
  void *d = NULL;
  void *zeros = calloc(1, bytes ? bytes : 1);
  if (scalars_malloc(&d, bytes) != scalars_OK ||
      scalars_copy_to_device(d, host ? host : zeros, bytes) != scalars_OK) {
    printf("FAIL memory: %s\n", scalars_last_error());
    exit(1);
  }
  free(zeros);
  return d;
}

static void back(void *host, const void *d, size_t bytes) {
  if (scalars_synchronize(NULL) != scalars_OK || scalars_copy_to_host(host, d, bytes) != scalars_OK) {
    printf("FAIL copy: %s\n", scalars_last_error());
    exit(1);
  }
}

static scalars_config grid(uint32_t blocks, uint32_t threads) {
  scalars_config c = {{blocks, 1, 1}, {threads, 1, 1}, 0, NULL};
  return c;
}

static void check_saxpy(void) {
  enum { N = 1000 };
  float x[N], y[N], out[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)i, y[i] = (float)(N - i);
  float *dx = to_target(x, sizeof x), *dy = to_target(y, sizeof y), *dout = to_target(NULL, sizeof out);
  scalars_config c = grid(4, 256);
  int st = scalars_saxpy(&c, 2.0f, scalars_f32_1d_c(dx, N), scalars_f32_1d_c(dy, N), scalars_f32_1d_c(dout, N), N, 1);
  back(out, dout, sizeof out);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != -(2.0f * (float)i + (float)(N - i));
  EXPECT(st == scalars_OK && !bad, "saxpy: float, int64 and bool scalars");
  /* a strided view of x where [::1] is asked for */
  scalars_f32_1d view = scalars_f32_1d_c(dx, N / 2);
  view.strides[0] = 8;
  st = scalars_saxpy(&c, 1.0f, view, scalars_f32_1d_c(dy, N / 2), scalars_f32_1d_c(dout, N / 2), N / 2, 0);
  EXPECT(st == scalars_ERROR_ARGUMENT && strstr(scalars_last_error(), "must be C-contiguous"),
         "a strided array for a [::1] parameter is refused");
  c.block.x = 2048;
  st = scalars_saxpy(&c, 1.0f, scalars_f32_1d_c(dx, N), scalars_f32_1d_c(dy, N), scalars_f32_1d_c(dout, N), N, 0);
  EXPECT(st == scalars_ERROR_ARGUMENT && strstr(scalars_last_error(), "block.x 2048"),
         "a block past 1024 threads is refused");
  c = grid(0, 1);
  st = scalars_saxpy(&c, 1.0f, scalars_f32_1d_c(dx, N), scalars_f32_1d_c(dy, N), scalars_f32_1d_c(dout, N), N, 0);
  EXPECT(st == scalars_ERROR_ARGUMENT && strstr(scalars_last_error(), "at least 1"), "a grid of zero is refused");
  st = scalars_saxpy(NULL, 1.0f, scalars_f32_1d_c(dx, N), scalars_f32_1d_c(dy, N), scalars_f32_1d_c(dout, N), N, 0);
  EXPECT(st == scalars_ERROR_ARGUMENT, "no configuration is refused");
  scalars_free(dx), scalars_free(dy), scalars_free(dout);
}

/* Raw pointer parameters (types.CPointer): T * in the launcher, target
 * memory used as it is. */
static void check_pointers(void) {
  enum { N = 300 };
  int32_t p[N];
  double q[N];
  for (int i = 0; i < N; i++)
    p[i] = i - 100, q[i] = 1.0;
  int32_t *dp = to_target(p, sizeof p);
  double *dq = to_target(q, sizeof q);
  scalars_config c = grid(2, 256);
  int st = scalars_ptr_axpy(&c, dp, dq, N);
  back(p, dp, sizeof p);
  back(q, dq, sizeof q);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += p[i] != 100 - i || q[i] != 0.5 * (i - 100) + 1.0;
  EXPECT(st == scalars_OK && !bad, "ptr_axpy: int32_t * and double * parameters");
  scalars_free(dp), scalars_free(dq);
}

static void check_widths(void) {
  int64_t r = 0;
  double f = 0;
  int64_t *di = to_target(NULL, sizeof r);
  double *df = to_target(NULL, sizeof f);
  scalars_config c = grid(1, 32);
  int st = scalars_widths__i8_i16_i32_u8_u16_u32_u64_f64_a1Ci64(&c, -3, -300, -70000, 200, 60000, 4000000000u,
                                                               5000000000ull, 0.5, scalars_i64_1d_c(di, 1));
  back(&r, di, sizeof r);
  /* Numba's typing: the int sum is int64 + uint64 -> float64, stored as int64 (truncated) */
  int64_t want = (int64_t)(-3.0 - 300 - 70000 + 200 + 60000 + 4000000000.0 + 5000000000.0 + 0.5);
  EXPECT(st == scalars_OK && r == want, "widths: every integer width and float64, int64 result");
  st = scalars_widths__i8_i16_i32_u8_u16_u32_u64_f64_a1Cf64(&c, 1, 2, 3, 4, 5, 6, 7, 0.25, scalars_f64_1d_c(df, 1));
  back(&f, df, sizeof f);
  EXPECT(st == scalars_OK && f == 28.25, "widths: the second signature's launcher");
  scalars_free(di), scalars_free(df);
}

static void check_row_sums(void) {
  enum { R = 37, C = 11 };
  double m[R * C], out[R];
  for (int i = 0; i < R * C; i++)
    m[i] = (double)i;
  double *dm = to_target(m, sizeof m), *dout = to_target(NULL, sizeof out);
  /* the transpose's view: shape (C, R)... here rows of the C-order matrix read column-wise */
  scalars_f64_2d t;
  t.data = dm, t.shape[0] = C, t.shape[1] = R, t.strides[0] = 8, t.strides[1] = 8 * C;
  scalars_config c = grid(1, 64);
  int st = scalars_row_sums(&c, t, scalars_f64_1d_c(dout, C));
  back(out, dout, C * sizeof(double));
  int bad = 0;
  for (int j = 0; j < C; j++) {
    double s = 0;
    for (int i = 0; i < R; i++)
      s += m[i * C + j];
    bad += out[j] != s;
  }
  EXPECT(st == scalars_OK && !bad, "row_sums: a strided (transposed) float64[:, :] argument");
  scalars_free(dm), scalars_free(dout);
}

static void check_reverse(void) {
  enum { N = 512, B = 128 };
  int32_t x[N], out[N];
  for (int i = 0; i < N; i++)
    x[i] = i * 3;
  int32_t *dx = to_target(x, sizeof x), *dout = to_target(NULL, sizeof out);
  scalars_config c = grid(N / B, B);
  c.shared_bytes = B * sizeof(int32_t);
  int st = scalars_reverse_blocks(&c, scalars_i32_1d_c(dx, N), scalars_i32_1d_c(dout, N));
  back(out, dout, sizeof out);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != x[(i / B) * B + B - 1 - i % B];
  EXPECT(st == scalars_OK && !bad, "reverse_blocks: dynamic shared memory and syncthreads");
  scalars_free(dx), scalars_free(dout);
}

static void check_debug(int cpu) {
  int32_t *dx = to_target(NULL, 4 * sizeof(int32_t));
  scalars_config c = grid(1, 1);
  int st = scalars_poke(&c, scalars_i32_1d_c(dx, 4), 2);
  EXPECT(st == scalars_OK, "poke: an index in bounds");
  if (cpu) { /* on the GPU a failed check traps: the context is lost, so only the CPU tests it */
    st = scalars_poke(&c, scalars_i32_1d_c(dx, 4), 9);
    EXPECT(st == scalars_ERROR_LAUNCH && strstr(scalars_last_error(), "out of bounds"),
           "poke: debug=True reports an index out of bounds");
  }
  scalars_free(dx);
}

/* rel_diff(x, y) = 2 * (x - y) / (x + y), in float64 as Numba types it. */
static void check_ufunc(int cpu) {
  enum { N = 1003 };
  float x[N], y[N], out[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)(i + 1), y[i] = 1.0f;
  if (rel_diff_select_target(cpu ? rel_diff_TARGET_CPU : rel_diff_TARGET_CUDA) != rel_diff_OK) {
    printf("FAIL rel_diff target: %s\n", rel_diff_last_error());
    failures++;
    return;
  }
  void *dx, *dy, *dout;
  if (rel_diff_malloc(&dx, sizeof x) || rel_diff_malloc(&dy, sizeof y) || rel_diff_malloc(&dout, sizeof out) ||
      rel_diff_copy_to_device(dx, x, sizeof x) || rel_diff_copy_to_device(dy, y, sizeof y)) {
    printf("FAIL rel_diff memory: %s\n", rel_diff_last_error());
    failures++;
    return;
  }
  int st = rel_diff_rel_diff__a1Cf32_a1Cf32_a1Cf32(NULL, rel_diff_f32_1d_c((float *)dx, N),
                                                    rel_diff_f32_1d_c((float *)dy, N), rel_diff_f32_1d_c((float *)dout, N));
  rel_diff_synchronize(NULL);
  rel_diff_copy_to_host(out, dout, sizeof out);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != (float)(2.0 * ((double)x[i] - 1.0) / ((double)x[i] + 1.0));
  printf("%s rel_diff: a @vectorize launcher from a second library, %d elements (%s)\n",
         st == rel_diff_OK && !bad ? "ok" : "FAIL", N, rel_diff_last_error());
  failures += st != rel_diff_OK || bad;
  st = rel_diff_rel_diff__a1Cf32_a1Cf32_a1Cf32(NULL, rel_diff_f32_1d_c((float *)dx, N),
                                                rel_diff_f32_1d_c((float *)dy, N - 1), rel_diff_f32_1d_c((float *)dout, N));
  printf("%s rel_diff: arrays of two lengths are refused (%s)\n",
         st == rel_diff_ERROR_ARGUMENT ? "ok" : "FAIL", rel_diff_last_error());
  failures += st != rel_diff_ERROR_ARGUMENT;
  st = rel_diff_rel_diff__a1Cf32_a1Cf32_a1Cf32(NULL, rel_diff_f32_1d_c((float *)dx + 1, N - 1),
                                                rel_diff_f32_1d_c((float *)dy, N - 1), rel_diff_f32_1d_c((float *)dout, N - 1));
  printf("%s rel_diff: unaligned data is refused (%s)\n",
         st == rel_diff_ERROR_ARGUMENT && strstr(rel_diff_last_error(), "aligned") ? "ok" : "FAIL",
         rel_diff_last_error());
  failures += st != rel_diff_ERROR_ARGUMENT;
  rel_diff_free(dx), rel_diff_free(dy), rel_diff_free(dout);
}

int main(int argc, char **argv) {
  int cpu = argc < 2 || strcmp(argv[1], "cuda") != 0;
  if (scalars_select_target(cpu ? scalars_TARGET_CPU : scalars_TARGET_CUDA) != scalars_OK ||
      scalars_target_in_use() != (cpu ? scalars_TARGET_CPU : scalars_TARGET_CUDA)) {
    printf("FAIL target: %s\n", scalars_last_error());
    return 1;
  }
  check_saxpy();
  check_widths();
  check_pointers();
  check_row_sums();
  check_reverse();
  check_debug(cpu);
  check_ufunc(cpu);
  printf("%d failures\n", failures);
  return failures != 0;
}
