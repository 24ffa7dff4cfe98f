/* reduce_main.c - tests/aot.sh's program over the library generated from
 * reductions.py: each @cuda.reduce launcher (sums and a max over several
 * dtypes, contiguous and strided, empty, one GPU block, several blocks,
 * several CPU chunks) against values computed here, exactly (the values are
 * integers small enough that every partial sum is exact), and the refusals
 * (a strided array for a [::1] type, no result pointer).  Argument: the
 * target (cpu or cuda).  One line per check; exit status 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reductions.h"

static int failures;

#define EXPECT(cond, what, ...)                                              \
  do {                                                                       \
    char w_[160];                                                            \
    snprintf(w_, sizeof w_, what, __VA_ARGS__);                              \
    if (!(cond)) {                                                           \
      printf("FAIL %s (%s)\n", w_, reductions_last_error());                 \
      failures++;                                                            \
    } else                                                                   \
      printf("ok %s\n", w_);                                                 \
  } while (0)

/* bytes of the target's memory holding host[0..bytes). */
static void *to_target(const void *host, size_t bytes) {
  void *d = NULL;
  if (reductions_malloc(&d, bytes) != reductions_OK || reductions_copy_to_device(d, host, bytes) != reductions_OK) {
    printf("FAIL memory: %s\n", reductions_last_error());
    exit(1);
  }
  return d;
}

static void sums_f32(void) {
  static const int64_t sizes[] = {0, 1, 5000, 8192, 8193, 100000, 1000003};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int64_t n = sizes[k];
    float *h = (float *)malloc((size_t)(n ? n : 1) * sizeof *h);
    double want = 10;
    for (int64_t i = 0; i < n; i++)
      h[i] = (float)(i % 7), want += (double)(i % 7);
    float *d = (float *)to_target(h, (size_t)n * sizeof *h), got = -1;
    int st = reductions_sum_reduce__float32_c(NULL, reductions_f32_1d_c(d, n), 10.0f, &got);
    EXPECT(st == reductions_OK && got == (float)want, "sum float32[::1] of %lld elements + 10: %g (want %g)",
           (long long)n, (double)got, want);
    reductions_free(d);
    free(h);
  }
}

/* fill (a kernel of the same library) then the sum, on one stream. */
static void fill_then_sum(void) {
  enum { N = 1000000 };
  float *d = NULL, got = 0;
  reductions_config c = {{(N + 255) / 256, 1, 1}, {256, 1, 1}, 0, NULL};
  if (reductions_malloc((void **)&d, N * sizeof(float)) != reductions_OK) {
    printf("FAIL memory: %s\n", reductions_last_error());
    exit(1);
  }
  int st = reductions_fill(&c, reductions_f32_1d_c(d, N), 1.5f);
  if (st == reductions_OK)
    st = reductions_sum_reduce__float32_c(NULL, reductions_f32_1d_c(d, N), 0.0f, &got);
  EXPECT(st == reductions_OK && got == 1.5f * N, "fill 1.5 then sum of %d elements: %g", N, (double)got);
  reductions_free(d);
}

/* Every other element of an array: float64[:] takes any stride. */
static void sum_f64_strided(void) {
  enum { N = 300001 };
  double *h = (double *)malloc(2 * N * sizeof *h), want = 0, got = 0;
  for (int64_t i = 0; i < 2 * N; i++)
    h[i] = i % 2 ? 1000.0 : (double)(i % 11);
  for (int64_t i = 0; i < N; i++)
    want += h[2 * i];
  double *d = (double *)to_target(h, 2 * N * sizeof *h);
  reductions_f64_1d a = reductions_f64_1d_c(d, N);
  a.strides[0] = 16;
  int st = reductions_sum_reduce__float64(NULL, a, 0.0, &got);
  EXPECT(st == reductions_OK && got == want, "sum float64[:] of %d elements, stride 16 bytes: %g (want %g)", N, got,
         want);
  reductions_free(d);
  free(h);
}

static void sum_i32(void) {
  enum { N = 777777 };
  int32_t *h = (int32_t *)malloc(N * sizeof *h), got = 0;
  int64_t want = -3;
  for (int64_t i = 0; i < N; i++)
    h[i] = (int32_t)(i % 1000) - 400, want += h[i];
  int32_t *d = (int32_t *)to_target(h, N * sizeof *h);
  int st = reductions_sum_reduce__int32_c(NULL, reductions_i32_1d_c(d, N), -3, &got);
  EXPECT(st == reductions_OK && got == want, "sum int32[::1] of %d elements - 3: %d (want %lld)", N, got,
         (long long)want);
  reductions_free(d);
  free(h);
}

static void max_i64(void) {
  static const int64_t sizes[] = {3, 4000, 65537, 2000000};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int64_t n = sizes[k], want = INT64_MIN, got = 0;
    int64_t *h = (int64_t *)malloc((size_t)n * sizeof *h);
    for (int64_t i = 0; i < n; i++) {
      h[i] = (i * 7919) % 1000003 - 500000 - ((int64_t)1 << 40);
      want = h[i] > want ? h[i] : want;
    }
    int64_t *d = (int64_t *)to_target(h, (size_t)n * sizeof *h);
    int st = reductions_max_reduce(NULL, reductions_i64_1d_c(d, n), INT64_MIN, &got);
    EXPECT(st == reductions_OK && got == want, "max int64[::1] of %lld elements: %lld (want %lld)", (long long)n,
           (long long)got, (long long)want);
    reductions_free(d);
    free(h);
  }
}

static void refusals(void) {
  float h[8] = {0}, got = 0;
  float *d = (float *)to_target(h, sizeof h);
  reductions_f32_1d a = reductions_f32_1d_c(d, 4);
  a.strides[0] = 8;
  int st = reductions_sum_reduce__float32_c(NULL, a, 0.0f, &got);
  EXPECT(st == reductions_ERROR_ARGUMENT && strstr(reductions_last_error(), "must be C-contiguous"),
         "a strided array for float32[::1] is refused: %s", reductions_last_error());
  st = reductions_sum_reduce__float32_c(NULL, reductions_f32_1d_c(d, 4), 0.0f, NULL);
  EXPECT(st == reductions_ERROR_ARGUMENT && strstr(reductions_last_error(), "no result pointer"),
         "no result pointer is refused: %s", reductions_last_error());
  reductions_free(d);
}

int main(int argc, char **argv) {
  const char *t = argc > 1 ? argv[1] : "auto";
  if (reductions_select_target(strcmp(t, "cuda") == 0  ? reductions_TARGET_CUDA
                               : strcmp(t, "cpu") == 0 ? reductions_TARGET_CPU
                                                       : reductions_TARGET_AUTO) != reductions_OK) {
    printf("FAIL target %s: %s\n", t, reductions_last_error());
    return 1;
  }
  sums_f32();
  fill_then_sum();
  sum_f64_strided();
  sum_i32();
  max_i64();
  refusals();
  printf("%d failures\n", failures);
  return failures != 0;
}
