/* test_tuple_args.c - tuples as kernel arguments through include/kjit.h on
 * the CPU target: kjit_arg_tuple (flat, nested, typed elements), the
 * specialization per tuple type (a second tuple type compiles anew, the
 * same type is reused), an eager UniTuple signature converting elements,
 * kjitaux_arg_parse's "(1, 2.5)" spelling and kjitaux_arg_free, arrays
 * inside tuples (used in place) and the empty tuple, and the misuse caught
 * before running: destroyed arrays in tuples, NULL or negative-count
 * tuples, wrong lengths.  Uses only the public header; exit 1 on any failure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kjit.h"
#include "kjitaux.h"

#include "check.h"

static const char src[] =
    "from numba import cuda\n"
    "\n"
    "@cuda.jit\n"
    "def affine(t, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = t[0] + t[1] * i\n"
    "\n"
    "@cuda.jit\n"
    "def nested(t, out):\n"
    "    a, (b, c) = t\n"
    "    out[0] = a\n"
    "    out[1] = b\n"
    "    out[2] = c\n"
    "\n"
    "@cuda.jit(\"void(UniTuple(float32, 2), float64[:])\")\n"
    "def eager(t, out):\n"
    "    out[0] = t[0] / t[1]\n"
    "\n"
    "@cuda.jit\n"
    "def arrays(x, e):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x[0].size:\n"
    "        x[0][i] = x[1] * i + len(e)\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def first(t):\n"
    "    return t[0]\n";

static kjit_context *ctx;
static kjit_program *prog;

static kjit_launch_config one(uint32_t block) {
  kjit_launch_config c;
  kjit_launch_config_init(&c);
  c.block[0] = block;
  return c;
}

static kjit_kernel *kernel(const char *name) {
  kjit_kernel *k = NULL;
  CHECK(kjit_program_kernel(prog, name, &k) == KJIT_OK, "%s", kjit_last_error(ctx));
  return k;
}

static kjit_array *zeros(int64_t n) {
  kjit_array *a = NULL;
  CHECK(kjit_array_create(ctx, KJIT_FLOAT64, 1, &n, &a) == KJIT_OK, "%s", kjit_last_error(ctx));
  return a;
}

static const double *data(kjit_array *a) { return (const double *)kjit_array_data(a); }

/* Tuple(int64, float64), then UniTuple(float64 x 2): two specializations. */
static void test_flat(void) {
  kjit_array *out = zeros(4);
  kjit_arg el[2] = {kjit_arg_i64(1), kjit_arg_f64(0.5)};
  kjit_arg args[2] = {kjit_arg_tuple(el, 2), kjit_arg_array(out)};
  kjit_launch_config c = one(4);
  kjit_status st = kjit_launch(kernel("affine"), &c, args, 2);
  CHECK(st == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(data(out)[3] == 2.5, "out[3] = %g", data(out)[3]);
  el[0] = kjit_arg_f64(-1.0);
  st = kjit_launch(kernel("affine"), &c, args, 2);
  CHECK(st == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(data(out)[2] == 0.0, "out[2] = %g", data(out)[2]);
  kjit_array_destroy(out);
}

/* (int16, (float32, bool)) with typed scalars. */
static void test_nested(void) {
  kjit_array *out = zeros(3);
  int16_t a = -7;
  float b = 1.25f;
  unsigned char flag = 1;
  kjit_arg inner[2] = {kjit_arg_scalar(KJIT_FLOAT32, &b), kjit_arg_scalar(KJIT_BOOL, &flag)};
  kjit_arg el[2] = {kjit_arg_scalar(KJIT_INT16, &a), kjit_arg_tuple(inner, 2)};
  kjit_arg args[2] = {kjit_arg_tuple(el, 2), kjit_arg_array(out)};
  kjit_launch_config c = one(1);
  kjit_status st = kjit_launch(kernel("nested"), &c, args, 2);
  CHECK(st == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(data(out)[0] == -7 && data(out)[1] == 1.25 && data(out)[2] == 1, "out = %g %g %g",
        data(out)[0], data(out)[1], data(out)[2]);
  kjit_array_destroy(out);
}

/* kjitaux_arg_parse's spelling, converted to the eager UniTuple(float32 x 2). */
static void test_parse_eager(void) {
  kjit_array *out = zeros(1);
  kjit_arg t;
  kjit_status st = kjitaux_arg_parse(ctx, "(3, 2.0)", "t", &t);
  CHECK(st == KJIT_OK && t.kind == KJIT_ARG_TUPLE && t.value.tuple.count == 2, "%s",
        kjit_last_error(ctx));
  kjit_arg args[2] = {t, kjit_arg_array(out)};
  kjit_launch_config c = one(1);
  st = kjit_launch(kernel("eager"), &c, args, 2);
  CHECK(st == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(data(out)[0] == 1.5, "out[0] = %g", data(out)[0]);
  kjitaux_arg_free(&t);
  CHECK(t.value.tuple.elems == NULL, "elems cleared");
  st = kjitaux_arg_parse(ctx, "(5)", "t", &t);           /* (x) is x, as in Python */
  CHECK(st == KJIT_OK && t.kind == KJIT_ARG_INT64 && t.value.i64 == 5, "(5): kind %d", (int)t.kind);
  st = kjitaux_arg_parse(ctx, "(5,)", "t", &t);
  CHECK(st == KJIT_OK && t.kind == KJIT_ARG_TUPLE && t.value.tuple.count == 1, "(5,): kind %d", (int)t.kind);
  kjitaux_arg_free(&t);
  st = kjitaux_arg_parse(ctx, "(1, (2, True)", "t", &t);
  CHECK(st == KJIT_ERROR_INVALID_ARGUMENT && strstr(kjit_last_error(ctx), "missing ')'"), "%s",
        kjit_last_error(ctx));
  kjit_array_destroy(out);
}

/* (array, float64) with the array written in place; the empty tuple. */
static void test_arrays(void) {
  kjit_array *out = zeros(4);
  kjit_arg el[2] = {kjit_arg_array(out), kjit_arg_f64(2.0)};
  kjit_arg args[2] = {kjit_arg_tuple(el, 2), kjit_arg_tuple(NULL, 0)};
  kjit_launch_config c = one(4);
  kjit_status st = kjit_launch(kernel("arrays"), &c, args, 2);
  CHECK(st == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(data(out)[3] == 6.0, "out[3] = %g", data(out)[3]);
  kjit_array_destroy(out);
  st = kjit_launch(kernel("arrays"), &c, args, 2);
  CHECK(st == KJIT_ERROR_INVALID_ARGUMENT && strstr(kjit_last_error(ctx), "was destroyed"), "%s",
        kjit_last_error(ctx));
}

static void expect_refused(kjit_kernel *k, kjit_arg *args, kjit_status want, const char *text) {
  kjit_launch_config c = one(1);
  kjit_status st = kjit_launch(k, &c, args, 2);
  CHECK(st == want && strstr(kjit_last_error(ctx), text), "got %s: %s", kjit_status_name(st),
        kjit_last_error(ctx));
}

static void test_misuse(void) {
  kjit_array *out = zeros(1);
  kjit_arg el[2] = {kjit_arg_i64(0), kjit_arg_i64(1)};
  kjit_arg args[2] = {kjit_arg_tuple(el, -1), kjit_arg_array(out)};
  expect_refused(kernel("affine"), args, KJIT_ERROR_INVALID_ARGUMENT, "negative");
  args[0] = kjit_arg_tuple(NULL, 2);
  expect_refused(kernel("affine"), args, KJIT_ERROR_INVALID_ARGUMENT, "NULL");
  kjit_arg three[3] = {kjit_arg_i64(1), kjit_arg_i64(2), kjit_arg_i64(3)};
  args[0] = kjit_arg_tuple(three, 3);
  expect_refused(kernel("eager"), args, KJIT_ERROR_TYPE, "UniTuple(int64 x 3)");
  kjitaux_arg_free(NULL);
  kjit_value r;
  kjit_arg one_tuple = kjit_arg_tuple(el, 2);
  kjit_function *first;
  kjit_status st = kjit_program_function(prog, "first", &first);
  if (st == KJIT_OK)
    st = kjit_call(first, &one_tuple, 1, &r);
  CHECK(st == KJIT_ERROR_TYPE && strstr(kjit_last_error(ctx), "tuple"), "kjit_call: %s: %s",
        kjit_status_name(st), kjit_last_error(ctx));
  kjit_array_destroy(out);
}

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  if (kjit_context_create(&o, &ctx) != KJIT_OK ||
      kjit_program_load_source(ctx, "tuple_test.py", src, &prog) != KJIT_OK) {
    fprintf(stderr, "setup failed: %s\n", ctx ? kjit_last_error(ctx) : "no context");
    return 1;
  }
  test_flat();
  test_nested();
  test_parse_eager();
  test_arrays();
  test_misuse();
  kjit_context_destroy(ctx);
  printf("test_tuple_args: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
