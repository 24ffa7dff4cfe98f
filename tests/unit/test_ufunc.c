/* test_ufunc.c - the @vectorize API on the CPU target: kjit_program_ufunc,
 * kjit_ufunc_call with new and given out arrays, strided and unaligned
 * inputs (wrapped caller memory: the general and the scalar contiguous
 * kernels), broadcasting, signature choice, lazy typing, and every error
 * path with its message.  Expected values are computed here in C.  Uses
 * only the public header.  Exit 1 on any failure. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kjit.h"

#include "check.h"

static void expect_error(kjit_context *ctx, kjit_status st, kjit_status want, const char *text, int line) {
  checks++;
  const char *e = kjit_last_error(ctx);
  if (st != want || !strstr(e, text)) {
    failures++;
    fprintf(stderr, "line %d: got %s, want %s containing \"%s\"; last error:\n%s\n", line,
            kjit_status_name(st), kjit_status_name(want), text, e);
  }
}
#define EXPECT_ERROR(ctx, call, want, text) expect_error(ctx, (call), want, text, __LINE__)

static const char src[] =
    "from numba import vectorize, cuda\n"
    "\n"
    "@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')\n"
    "def axpb(x, b):\n"
    "    return 3 * x + b\n"
    "\n"
    "@vectorize\n"
    "def mul(x, y):\n"
    "    return x * y\n"
    "\n"
    "@cuda.jit\n"
    "def k(a):\n"
    "    a[0] = 1\n";

/* A strided float32 view (every other element of buf) and contiguous,
 * deliberately unaligned data (buf + 1). */
static void test_strided_and_unaligned(kjit_context *ctx, kjit_ufunc *u) {
  static float buf[2 * 103 + 1];
  for (int i = 0; i < 2 * 103 + 1; i++)
    buf[i] = (float)i;
  int64_t n = 103, stride = 8;
  kjit_array *strided, *unaligned, *r = NULL;
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, &stride, buf, &strided) == KJIT_OK, "wrap");
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, buf + 1, &unaligned) == KJIT_OK, "wrap");
  kjit_arg args[2] = {kjit_arg_array(strided), kjit_arg_array(unaligned)};
  CHECK(kjit_ufunc_call(u, args, 2, NULL, &r) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(r && kjit_array_dtype(r) == KJIT_FLOAT32 && kjit_array_size(r) == n, "result");
  const float *o = r ? kjit_array_data(r) : NULL;
  int bad = 0;
  for (int i = 0; o && i < n; i++)
    bad += o[i] != 3.0f * (float)(2 * i) + (float)(i + 1);
  CHECK(o && bad == 0, "%d wrong elements", bad);
  kjit_array_destroy(r);
}

/* out given: a 4x5 float64 result of a (4,1) column and a (5,) row. */
static void test_out_broadcast(kjit_context *ctx, kjit_ufunc *u) {
  int64_t cs[2] = {4, 1}, rs = 5, os[2] = {4, 5};
  kjit_array *col, *row, *out, *r = NULL;
  kjit_array_create(ctx, KJIT_FLOAT64, 2, cs, &col);
  kjit_array_create(ctx, KJIT_FLOAT64, 1, &rs, &row);
  kjit_array_create(ctx, KJIT_FLOAT64, 2, os, &out);
  double *c = kjit_array_data(col), *w = kjit_array_data(row);
  for (int i = 0; i < 4; i++) c[i] = i;
  for (int j = 0; j < 5; j++) w[j] = 10.0 * j;
  kjit_arg args[2] = {kjit_arg_array(col), kjit_arg_array(row)};
  CHECK(kjit_ufunc_call(u, args, 2, out, &r) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(r == out, "out is the result");
  const double *o = kjit_array_data(out);
  int bad = 0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      bad += o[i * 5 + j] != 3.0 * i + 10.0 * j;
  CHECK(bad == 0, "%d wrong elements", bad);
}

static void test_lazy(kjit_context *ctx, kjit_program *p) {
  kjit_ufunc *u;
  CHECK(kjit_program_ufunc(p, "mul", &u) == KJIT_OK, "%s", kjit_last_error(ctx));
  int64_t n = 9;
  kjit_array *a, *r = NULL;
  kjit_array_create(ctx, KJIT_INT32, 1, &n, &a);
  int32_t *d = kjit_array_data(a);
  for (int i = 0; i < n; i++) d[i] = i - 4;
  kjit_arg args[2] = {kjit_arg_array(a), kjit_arg_i64(-3)};
  CHECK(kjit_ufunc_call(u, args, 2, NULL, &r) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(r && kjit_array_dtype(r) == KJIT_INT64, "int32 * int64 is int64");
  const int64_t *o = r ? kjit_array_data(r) : NULL;
  for (int i = 0; o && i < n; i++)
    CHECK(o[i] == -3 * (i - 4), "element %d: %lld", i, (long long)o[i]);
}

static void test_errors(kjit_context *ctx, kjit_program *p, kjit_ufunc *u) {
  kjit_ufunc *v;
  kjit_array *r = NULL, *a, *b, *dead;
  int64_t n3 = 3, n4 = 4;
  kjit_array_create(ctx, KJIT_FLOAT32, 1, &n3, &a);
  kjit_array_create(ctx, KJIT_FLOAT32, 1, &n4, &b);
  kjit_array_create(ctx, KJIT_FLOAT32, 1, &n4, &dead);
  kjit_array_destroy(dead);
  EXPECT_ERROR(ctx, kjit_program_ufunc(p, "k", &v), KJIT_ERROR_NOT_FOUND,
               "'k' is a kernel, not a @vectorize function");
  EXPECT_ERROR(ctx, kjit_program_ufunc(p, "nope", &v), KJIT_ERROR_NOT_FOUND,
               "no @vectorize function named 'nope'");
  kjit_arg two[2] = {kjit_arg_array(a), kjit_arg_array(b)};
  EXPECT_ERROR(ctx, kjit_ufunc_call(u, two, 1, NULL, &r), KJIT_ERROR_INVALID_ARGUMENT,
               "ufunc 'axpb': takes 2 arguments (1 given)");
  EXPECT_ERROR(ctx, kjit_ufunc_call(u, two, 2, NULL, &r), KJIT_ERROR_INVALID_ARGUMENT,
               "shapes (3,) (4,)");
  kjit_arg ok[2] = {kjit_arg_array(a), kjit_arg_f64(1.0)};
  EXPECT_ERROR(ctx, kjit_ufunc_call(u, ok, 2, b, &r), KJIT_ERROR_INVALID_ARGUMENT,
               "out has shape (4,); the result has shape (3,)");
  kjit_arg gone[2] = {kjit_arg_array(dead), kjit_arg_f64(1.0)};
  EXPECT_ERROR(ctx, kjit_ufunc_call(u, gone, 2, NULL, &r), KJIT_ERROR_INVALID_ARGUMENT,
               "argument 1 ('x'): array was destroyed");
  kjit_arg scal[2] = {kjit_arg_f64(1.0), kjit_arg_f64(2.0)};
  EXPECT_ERROR(ctx, kjit_ufunc_call(u, scal, 2, NULL, &r), KJIT_ERROR_INVALID_ARGUMENT,
               "every argument is a scalar");
  int64_t big = 7;
  kjit_array *i64;
  kjit_array_create(ctx, KJIT_COMPLEX64, 1, &big, &i64);
  kjit_arg wide[2] = {kjit_arg_array(i64), kjit_arg_array(i64)};
  EXPECT_ERROR(ctx, kjit_ufunc_call(u, wide, 2, NULL, &r), KJIT_ERROR_TYPE,
               "no signature matches the argument types (complex64, complex64)");
  EXPECT_ERROR(ctx, kjit_ufunc_call(NULL, ok, 2, NULL, &r), KJIT_ERROR_INVALID_ARGUMENT, "");
  CHECK(r == NULL, "no result on errors");
}

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  kjit_context *ctx;
  kjit_program *p;
  kjit_ufunc *u, *again;
  if (kjit_context_create(&o, &ctx) != KJIT_OK ||
      kjit_program_load_source(ctx, "ufunc.py", src, &p) != KJIT_OK) {
    fprintf(stderr, "setup failed: %s\n", kjit_last_error(ctx));
    return 1;
  }
  CHECK(kjit_program_ufunc(p, "axpb", &u) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(kjit_program_ufunc(p, "axpb", &again) == KJIT_OK && again == u, "same handle");
  int count = 0;
  const char *name = NULL;
  CHECK(kjit_ufunc_param_count(u, &count) == KJIT_OK && count == 2, "count %d", count);
  CHECK(kjit_ufunc_param_name(u, 1, &name) == KJIT_OK && strcmp(name, "b") == 0, "name");
  CHECK(kjit_ufunc_param_name(u, 2, &name) == KJIT_ERROR_NOT_FOUND, "out of range");
  kjit_program_kernel_count(p, &count);
  CHECK(count == 1, "generated kernels are not listed (%d kernels)", count);
  test_strided_and_unaligned(ctx, u);
  test_out_broadcast(ctx, u);
  test_lazy(ctx, p);
  test_errors(ctx, p, u);
  kjit_program_kernel_count(p, &count);
  CHECK(count == 1, "still one kernel after calls (%d)", count);
  kjit_context_destroy(ctx);
  printf("test_ufunc: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
