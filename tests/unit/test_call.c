/* test_call.c - kjit_call: device functions called from C with their
 * native signatures (libffi) on the CPU target.  Scalars of each dtype,
 * arrays read and written, device functions calling device functions,
 * eager signatures, memoized specializations, and every error path with
 * its message.  Uses only the public header.  Exit 1 on any failure. */
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
    "from numba import cuda\n"
    "import math\n"
    "import numpy as np\n"
    "\n"
    "@cuda.jit(\"int32(int32, int32)\", device=True)\n"
    "def add_i32(a, b):\n"
    "    return a + b\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def hyp(a, b, c):\n"
    "    return math.sqrt(a * b + c)\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def is_even(n):\n"
    "    return n % 2 == 0\n"
    "\n"
    "@cuda.jit(\"uint8(uint8, uint8)\", device=True)\n"
    "def add_u8(a, b):\n"
    "    return a + b\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def fdiv(a, b):\n"
    "    return a // b\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def total(x):\n"
    "    s = 0.0\n"
    "    for i in range(x.size):\n"
    "        s += x[i]\n"
    "    return s\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def mean(x):\n"
    "    return total(x) / x.size\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def fill(x, v):\n"
    "    for i in range(x.shape[0]):\n"
    "        x[i] = v * i\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def neg(b):\n"
    "    return not b\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def waits(x):\n"
    "    cuda.syncthreads()\n"
    "    return x\n"
    "\n"
    "@cuda.jit\n"
    "def add(x, y, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = add_i32(x[i], y[i])\n";

static kjit_arg scalar(kjit_dtype dt, const void *v) { return kjit_arg_scalar(dt, v); }

/* The handle of device function `name` of p (the same on every call). */
static kjit_function *fn(kjit_program *p, const char *name) {
  kjit_function *f = NULL, *again = NULL;
  CHECK(kjit_program_function(p, name, &f) == KJIT_OK && f, "kjit_program_function('%s')", name);
  CHECK(kjit_program_function(p, name, &again) == KJIT_OK && again == f, "the same handle for '%s'", name);
  return f;
}

static void test_scalars(kjit_program *p) {
  kjit_value r;
  int32_t a = 40, b = 2;
  kjit_arg args[3] = {scalar(KJIT_INT32, &a), scalar(KJIT_INT32, &b)};
  CHECK(kjit_call(fn(p, "add_i32"), args, 2, &r) == KJIT_OK, "add_i32");
  CHECK(r.dtype == KJIT_INT32 && r.value.i64 == 42, "add_i32 -> %lld", (long long)r.value.i64);
  /* an eager signature converts Python ints */
  args[0] = kjit_arg_i64(-7), args[1] = kjit_arg_i64(3);
  CHECK(kjit_call(fn(p, "add_i32"), args, 2, &r) == KJIT_OK && r.value.i64 == -4, "add_i32 int64");
  float x = 3, y = 4, z = 4;
  args[0] = scalar(KJIT_FLOAT32, &x), args[1] = scalar(KJIT_FLOAT32, &y), args[2] = scalar(KJIT_FLOAT32, &z);
  CHECK(kjit_call(fn(p, "hyp"), args, 3, &r) == KJIT_OK, "hyp f32");
  CHECK(r.dtype == KJIT_FLOAT32 && r.value.f32 == 4.0f, "hyp f32 -> %s %g", kjit_dtype_name(r.dtype), r.value.f32);
  args[0] = kjit_arg_f64(2), args[1] = kjit_arg_f64(8), args[2] = kjit_arg_f64(9);
  CHECK(kjit_call(fn(p, "hyp"), args, 3, &r) == KJIT_OK, "hyp f64");
  CHECK(r.dtype == KJIT_FLOAT64 && r.value.f64 == 5.0, "hyp f64 -> %g", r.value.f64);
  args[0] = kjit_arg_i64(10);
  CHECK(kjit_call(fn(p, "is_even"), args, 1, &r) == KJIT_OK && r.dtype == KJIT_BOOL && r.value.b == 1, "is_even 10");
  args[0] = kjit_arg_i64(7);
  CHECK(kjit_call(fn(p, "is_even"), args, 1, &r) == KJIT_OK && r.value.b == 0, "is_even 7");
  unsigned char t = 1;
  args[0] = scalar(KJIT_BOOL, &t);
  CHECK(kjit_call(fn(p, "neg"), args, 1, &r) == KJIT_OK && r.dtype == KJIT_BOOL && r.value.b == 0, "neg");
  uint8_t u = 200, v = 100;
  args[0] = scalar(KJIT_UINT8, &u), args[1] = scalar(KJIT_UINT8, &v);
  CHECK(kjit_call(fn(p, "add_u8"), args, 2, &r) == KJIT_OK, "add_u8");
  CHECK(r.dtype == KJIT_UINT8 && r.value.u64 == 44, "add_u8 -> %llu", (unsigned long long)r.value.u64);
  args[0] = kjit_arg_i64(-7), args[1] = kjit_arg_i64(2);
  CHECK(kjit_call(fn(p, "fdiv"), args, 2, &r) == KJIT_OK, "fdiv");
  CHECK(r.dtype == KJIT_INT64 && r.value.i64 == -4, "fdiv(-7, 2) -> %lld", (long long)r.value.i64);
}

static void test_arrays(kjit_context *ctx, kjit_program *p) {
  double data[5] = {1, 2, 3, 4, 5.5};
  int64_t n = 5;
  kjit_array *a;
  kjit_value r;
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT64, 1, &n, NULL, data, &a) == KJIT_OK, "wrap");
  kjit_arg args[2] = {kjit_arg_array(a)};
  CHECK(kjit_call(fn(p, "total"), args, 1, &r) == KJIT_OK && r.dtype == KJIT_FLOAT64 && r.value.f64 == 15.5,
        "total -> %g: %s", r.value.f64, kjit_last_error(ctx));
  CHECK(kjit_call(fn(p, "mean"), args, 1, &r) == KJIT_OK && r.value.f64 == 3.1, "mean -> %g", r.value.f64);
  args[1] = kjit_arg_f64(0.5);
  r.dtype = KJIT_INT8;
  CHECK(kjit_call(fn(p, "fill"), args, 2, &r) == KJIT_OK && r.dtype == KJIT_NONE, "fill: %s", kjit_last_error(ctx));
  CHECK(data[0] == 0 && data[4] == 2.0, "fill wrote %g %g", data[0], data[4]);
  CHECK(kjit_call(fn(p, "fill"), args, 2, NULL) == KJIT_OK, "fill, result NULL");
  float strided[6] = {1, 9, 2, 9, 3, 9};
  int64_t n3 = 3, st = 8;
  kjit_array *s;
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n3, &st, strided, &s) == KJIT_OK, "wrap strided");
  args[0] = kjit_arg_array(s);
  CHECK(kjit_call(fn(p, "total"), args, 1, &r) == KJIT_OK && r.value.f64 == 6, "strided total -> %g", r.value.f64);
  kjit_array_destroy(s);
  kjit_array_destroy(a);
  args[0] = kjit_arg_array(a);
  EXPECT_ERROR(ctx, kjit_call(fn(p, "total"), args, 1, &r), KJIT_ERROR_INVALID_ARGUMENT,
               "function 'total': argument 1 ('x'): array was destroyed");
}

static void test_errors(kjit_context *ctx, kjit_program *p) {
  kjit_value r;
  kjit_arg args[2] = {kjit_arg_i64(1), kjit_arg_i64(2)};
  kjit_function *f = NULL;
  EXPECT_ERROR(ctx, kjit_program_function(p, "add_i33", &f), KJIT_ERROR_NOT_FOUND,
               "no device function named 'add_i33'");
  EXPECT_ERROR(ctx, kjit_program_function(p, "add_i33", &f), KJIT_ERROR_NOT_FOUND, "did you mean 'add_i32'?");
  EXPECT_ERROR(ctx, kjit_program_function(p, "add", &f), KJIT_ERROR_NOT_FOUND,
               "'add' is a kernel; launch it with kjit_launch");
  CHECK(f == NULL, "out untouched on error");
  EXPECT_ERROR(ctx, kjit_call(fn(p, "add_i32"), args, 1, &r), KJIT_ERROR_INVALID_ARGUMENT,
               "function 'add_i32' takes 2 arguments (1 given)");
  int64_t n = 3;
  kjit_array *a;
  kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &a);
  args[1] = kjit_arg_array(a);
  EXPECT_ERROR(ctx, kjit_call(fn(p, "add_i32"), args, 2, &r), KJIT_ERROR_TYPE,
               "function 'add_i32': argument 2 ('b'): float32[::1] does not match the signature's int32");
  kjit_array_destroy(a);
  args[0] = kjit_arg_i64(1);
  EXPECT_ERROR(ctx, kjit_call(fn(p, "waits"), args, 1, &r), KJIT_ERROR_CODEGEN,
               "device function 'waits' synchronizes threads");
  args[0].kind = (kjit_arg_kind)42;
  EXPECT_ERROR(ctx, kjit_call(fn(p, "is_even"), args, 1, &r), KJIT_ERROR_INVALID_ARGUMENT,
               "function 'is_even': argument 1 ('n'): invalid kjit_arg kind 42");
  uint16_t h = 0x3c00;
  args[0] = kjit_arg_scalar(KJIT_FLOAT16, &h);
  EXPECT_ERROR(ctx, kjit_call(fn(p, "neg"), args, 1, &r), KJIT_ERROR_TYPE, "kjit_call cannot");
  CHECK(kjit_call(NULL, args, 1, &r) == KJIT_ERROR_INVALID_ARGUMENT, "NULL function");
  CHECK(kjit_call((kjit_function *)p, args, 1, &r) == KJIT_ERROR_INVALID_ARGUMENT, "not a function handle");
  CHECK(kjit_program_function(NULL, "neg", &f) == KJIT_ERROR_INVALID_ARGUMENT, "NULL program");
  CHECK(kjit_program_function(p, NULL, &f) == KJIT_ERROR_INVALID_ARGUMENT, "NULL name");
  CHECK(kjit_program_function(p, "neg", NULL) == KJIT_ERROR_INVALID_ARGUMENT, "NULL out");
  EXPECT_ERROR(ctx, kjit_call(fn(p, "neg"), NULL, 1, &r), KJIT_ERROR_INVALID_ARGUMENT, "args is NULL but nargs is 1");
}

static void test_cuda_target(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CUDA;
  kjit_context *ctx;
  kjit_program *p;
  kjit_context_create(&o, &ctx);
  CHECK(kjit_program_load_source(ctx, "t.py", src, &p) == KJIT_OK, "load");
  kjit_arg args[2] = {kjit_arg_i64(1), kjit_arg_i64(2)};
  EXPECT_ERROR(ctx, kjit_call(fn(p, "add_i32"), args, 2, NULL), KJIT_ERROR_INVALID_ARGUMENT,
               "kjit_call runs device functions on the cpu target only");
  kjit_context_destroy(ctx);
}

/* A CUDA C program has kernels only: no device function to call. */
static void test_cuda_c_program(kjit_context *ctx) {
  kjit_program *p;
  kjit_function *f = NULL;
  CHECK(kjit_program_load_cuda_source(ctx, "k.cu", "extern \"C\" __global__ void k(int *a) {}\n", NULL, &p) ==
            KJIT_OK, "load .cu: %s", kjit_last_error(ctx));
  CHECK(kjit_program_function(p, "k", &f) == KJIT_ERROR_NOT_FOUND && !f, "a CUDA C kernel is no device function");
  kjit_program_destroy(p);
}

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  kjit_context *ctx;
  kjit_program *p;
  if (kjit_context_create(&o, &ctx) != KJIT_OK || kjit_program_load_source(ctx, "t.py", src, &p) != KJIT_OK) {
    fprintf(stderr, "setup failed\n");
    return 1;
  }
  test_scalars(p);
  test_arrays(ctx, p);
  test_errors(ctx, p);
  test_cuda_target();
  test_cuda_c_program(ctx);
  kjit_context_destroy(ctx);
  printf("test_call: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
