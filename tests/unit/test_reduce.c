/* test_reduce.c - kjit_program_reduction / kjit_reduce through the public
 * API on the cpu target: sums, max and products checked against values
 * computed here in C (integers, and floats holding small integers so any
 * order of addition is exact), init and its conversion, empty arrays,
 * strided (wrapped) arrays, sizes of one and of two passes, the handle
 * reuse, and every error status with its message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kjit.h"
#include "check.h"

static const char *src =
    "from numba import cuda\n"
    "\n"
    "@cuda.reduce\n"
    "def sum_reduce(a, b):\n"
    "    return a + b\n"
    "\n"
    "@cuda.reduce\n"
    "def max_reduce(a, b):\n"
    "    return max(a, b)\n"
    "\n"
    "@cuda.reduce\n"
    "def prod_reduce(a, b):\n"
    "    return a * b\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def helper(a, b):\n"
    "    return a - b\n";

static kjit_context *ctx;
static kjit_program *prog;

static kjit_reduction *get(const char *name) {
  kjit_reduction *r = NULL;
  CHECK(kjit_program_reduction(prog, name, &r) == KJIT_OK);
  return r;
}

static kjit_array *wrap(kjit_dtype dt, int64_t n, const int64_t *strides, void *data) {
  kjit_array *a = NULL;
  CHECK(kjit_array_wrap(ctx, dt, 1, &n, strides, data, &a) == KJIT_OK);
  return a;
}

/* float32 sums of 1, 2, 3, 1, 2, 3... over one- and two-pass sizes. */
static void test_sum_f32(void) {
  kjit_reduction *r = get("sum_reduce");
  const int64_t sizes[] = {1, 7, 1000, 16384, 16385, 100003, 1 << 20};
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int64_t n = sizes[s];
    float *x = malloc(sizeof *x * (size_t)n);
    double want = 0;
    for (int64_t i = 0; i < n; i++)
      want += x[i] = (float)(1 + i % 3);
    kjit_array *a = wrap(KJIT_FLOAT32, n, NULL, x);
    kjit_value v = {0};
    CHECK(kjit_reduce(r, a, NULL, &v) == KJIT_OK);
    CHECK(v.dtype == KJIT_FLOAT32 && v.value.f32 == (float)want);
    kjit_array_destroy(a);
    free(x);
  }
}

/* int32 with init, an init of another type, and a strided view. */
static void test_int_init_strided(void) {
  kjit_reduction *r = get("sum_reduce");
  enum { N = 40000 };
  int32_t *x = malloc(sizeof *x * N);
  int64_t want = 0, want_odd = 0;
  for (int i = 0; i < N; i++) {
    x[i] = i % 1000 - 500;
    want += x[i];
    if (i % 2)
      want_odd += x[i];
  }
  kjit_array *a = wrap(KJIT_INT32, N, NULL, x);
  kjit_value v;
  kjit_arg init = kjit_arg_i64(7);
  CHECK(kjit_reduce(r, a, &init, &v) == KJIT_OK && v.dtype == KJIT_INT32 && v.value.i64 == want + 7);
  init = kjit_arg_f64(-2.9);                     /* int32(-2.9) == -2 */
  CHECK(kjit_reduce(r, a, &init, &v) == KJIT_OK && v.value.i64 == want - 2);
  int64_t stride = 2 * sizeof(int32_t);
  kjit_array *odd = wrap(KJIT_INT32, N / 2, &stride, x + 1);
  CHECK(kjit_reduce(r, odd, NULL, &v) == KJIT_OK && v.value.i64 == want_odd);
  kjit_array_destroy(odd);
  kjit_array_destroy(a);
  free(x);
}

/* max with the default init 0 (Numba's), products, empty arrays. */
static void test_max_prod_empty(void) {
  int64_t y[50];
  for (int i = 0; i < 50; i++)
    y[i] = -100 + i;
  kjit_array *a = wrap(KJIT_INT64, 50, NULL, y);
  kjit_value v;
  CHECK(kjit_reduce(get("max_reduce"), a, NULL, &v) == KJIT_OK && v.value.i64 == 0);
  kjit_arg low = kjit_arg_i64(-1000);
  CHECK(kjit_reduce(get("max_reduce"), a, &low, &v) == KJIT_OK && v.value.i64 == -51);
  double z[20];
  for (int i = 0; i < 20; i++)
    z[i] = 2.0;
  kjit_array *b = wrap(KJIT_FLOAT64, 20, NULL, z);
  kjit_arg one = kjit_arg_i64(1);
  CHECK(kjit_reduce(get("prod_reduce"), b, &one, &v) == KJIT_OK && v.dtype == KJIT_FLOAT64 &&
        v.value.f64 == 1048576.0);
  kjit_array *e = wrap(KJIT_FLOAT64, 0, NULL, z);
  kjit_arg init = kjit_arg_f64(4.5);
  CHECK(kjit_reduce(get("sum_reduce"), e, &init, &v) == KJIT_OK && v.value.f64 == 4.5);
  CHECK(kjit_reduce(get("sum_reduce"), e, NULL, &v) == KJIT_OK && v.value.f64 == 0.0);
  kjit_array_destroy(a);
  kjit_array_destroy(b);
  kjit_array_destroy(e);
}

static void expect_error(kjit_status got, kjit_status want, const char *text) {
  CHECK(got == want);
  if (!strstr(kjit_last_error(ctx), text)) {
    fprintf(stderr, "expected '%s' in:\n%s\n", text, kjit_last_error(ctx));
    failures++;
  }
}

static void test_errors(void) {
  kjit_reduction *r = NULL, *again = NULL;
  expect_error(kjit_program_reduction(prog, "sum_reduc", &r), KJIT_ERROR_NOT_FOUND,
               "did you mean 'sum_reduce'?");
  expect_error(kjit_program_reduction(prog, "helper", &r), KJIT_ERROR_NOT_FOUND,
               "'helper' is a device function, not a @cuda.reduce function");
  CHECK(kjit_program_reduction(prog, "sum_reduce", &r) == KJIT_OK);
  CHECK(kjit_program_reduction(prog, "sum_reduce", &again) == KJIT_OK && again == r);
  kjit_value v;
  CHECK(kjit_reduce(NULL, NULL, NULL, &v) == KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(kjit_reduce(r, NULL, NULL, NULL) == KJIT_ERROR_INVALID_ARGUMENT);
  float m[6] = {0};
  int64_t shape[2] = {2, 3};
  kjit_array *two_d = NULL;
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT32, 2, shape, NULL, m, &two_d) == KJIT_OK);
  expect_error(kjit_reduce(r, two_d, NULL, &v), KJIT_ERROR_TYPE, "takes a 1-d array");
  kjit_array *c = wrap(KJIT_COMPLEX64, 3, NULL, m);
  expect_error(kjit_reduce(r, c, NULL, &v), KJIT_ERROR_TYPE, "cannot reduce an array of complex64");
  kjit_array *ok = wrap(KJIT_FLOAT32, 6, NULL, m);
  kjit_arg arr = kjit_arg_array(ok);
  expect_error(kjit_reduce(r, ok, &arr, &v), KJIT_ERROR_INVALID_ARGUMENT, "init must be a scalar");
  kjit_array_destroy(ok);
  expect_error(kjit_reduce(r, ok, NULL, &v), KJIT_ERROR_INVALID_ARGUMENT, "destroyed");
  kjit_array_destroy(two_d);
  kjit_array_destroy(c);
}

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  if (kjit_context_create(&o, &ctx) != KJIT_OK ||
      kjit_program_load_source(ctx, "reduce.py", src, &prog) != KJIT_OK) {
    fprintf(stderr, "set-up failed: %s\n", kjit_last_error(ctx));
    return 1;
  }
  test_sum_f32();
  test_int_init_strided();
  test_max_prod_empty();
  test_errors();
  kjit_context_destroy(ctx);
  if (failures)
    fprintf(stderr, "test_reduce: %d failure(s)\n", failures);
  return failures != 0;
}
