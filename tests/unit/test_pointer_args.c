/* test_pointer_args.c - raw pointer arguments (KJIT_ARG_POINTER,
 * kjit_arg_pointer) through include/kjit.h on the CPU target: an eager
 * types.CPointer signature, an int64 address accepted for it as Numba
 * accepts a Python int, negative indices that are not wrapped (a pointer
 * into the middle of a buffer reads and writes before it, as Numba's gep
 * does), a lazy kernel specialized per pointee type (float32* and int32*
 * are two specializations), a device function taking the pointer, and the
 * misuse caught before running: a pointer of another pointee type, an
 * invalid dtype, an array for a pointer parameter.  Expected values are
 * computed by hand from Numba's rules.  With --gpu (run by
 * tests/gpu/run_gpu_suite.sh) the same kernels run on the cuda target with
 * device pointers (kjit_array_data of device arrays), twice for the launch
 * fast path.  Exit 1 on any failure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kjit.h"

#include "check.h"

static const char src[] =
    "from numba import cuda, types, float32, int32, int64\n"
    "\n"
    "@cuda.jit(types.void(types.CPointer(float32), int64))\n"
    "def around(p, n):\n"
    "    i = cuda.grid(1)\n"
    "    if i < n:\n"
    "        p[i] += 1.5\n"
    "        p[-1 - i] = -p[i]\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def get(p, i):\n"
    "    return p[i]\n"
    "\n"
    "@cuda.jit\n"
    "def lazy(p, out):\n"
    "    i = cuda.grid(1)\n"
    "    out[i] = get(p, i) * 3\n";

static kjit_context *ctx;
static kjit_program *prog;

static kjit_launch_config block(uint32_t n) {
  kjit_launch_config c;
  kjit_launch_config_init(&c);
  c.block[0] = n;
  return c;
}

static kjit_kernel *kernel(const char *name) {
  kjit_kernel *k = NULL;
  CHECK(kjit_program_kernel(prog, name, &k) == KJIT_OK, "%s", kjit_last_error(ctx));
  return k;
}

/* p points at buf[4]: thread i adds 1.5 to p[i] = buf[4 + i], then writes
 * its negation at p[-1 - i] = buf[3 - i]: nothing wraps to the end. */
static void test_negative_index(void) {
  float buf[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  kjit_arg args[2] = {kjit_arg_pointer(KJIT_FLOAT32, buf + 4), kjit_arg_i64(4)};
  kjit_launch_config c = block(4);
  CHECK_STATUS(kjit_launch(kernel("around"), &c, args, 2), KJIT_OK);
  const float want[8] = {-8.5f, -7.5f, -6.5f, -5.5f, 5.5f, 6.5f, 7.5f, 8.5f};
  for (int i = 0; i < 8; i++)
    CHECK(buf[i] == want[i], "buf[%d] = %g, want %g", i, buf[i], want[i]);
}

/* Numba's launch takes a pointer-sized integer for a CPointer parameter. */
static void test_int_address(void) {
  float buf[2] = {10, 20};
  kjit_arg args[2] = {kjit_arg_i64((int64_t)(intptr_t)(buf + 1)), kjit_arg_i64(1)};
  kjit_launch_config c = block(1);
  CHECK_STATUS(kjit_launch(kernel("around"), &c, args, 2), KJIT_OK);
  CHECK(buf[1] == 21.5f && buf[0] == -21.5f, "buf = %g %g", buf[0], buf[1]);
}

/* float32* then int32*: two specializations, each reading its own type. */
static void test_lazy(void) {
  float f[3] = {0.5f, 1.5f, 2.5f};
  int32_t n[3] = {-1, 7, 1 << 30};
  double out[3];
  int64_t len = 3;
  kjit_array *o = NULL;
  CHECK_STATUS(kjit_array_wrap(ctx, KJIT_FLOAT64, 1, &len, NULL, out, &o), KJIT_OK);
  kjit_launch_config c = block(3);
  kjit_arg a1[2] = {kjit_arg_pointer(KJIT_FLOAT32, f), kjit_arg_array(o)};
  CHECK_STATUS(kjit_launch(kernel("lazy"), &c, a1, 2), KJIT_OK);
  CHECK(out[0] == 1.5 && out[1] == 4.5 && out[2] == 7.5, "out = %g %g %g", out[0], out[1], out[2]);
  kjit_arg a2[2] = {kjit_arg_pointer(KJIT_INT32, n), kjit_arg_array(o)};
  CHECK_STATUS(kjit_launch(kernel("lazy"), &c, a2, 2), KJIT_OK);
  /* int32 * 3 is int64 (Numba widens), so 3 * 2^30 does not wrap */
  CHECK(out[0] == -3 && out[1] == 21 && out[2] == 3221225472.0, "out = %g %g %g", out[0], out[1],
        out[2]);
  kjit_array_destroy(o);
}

/* kjit_call of a device function taking a pointer (the C ABI: a T *). */
static void test_call(void) {
  float f[3] = {0.5f, 1.5f, 2.5f};
  kjit_function *fn = NULL;
  CHECK_STATUS(kjit_program_function(prog, "get", &fn), KJIT_OK);
  kjit_arg args[2] = {kjit_arg_pointer(KJIT_FLOAT32, f), kjit_arg_i64(2)};
  kjit_value v;
  CHECK_STATUS(kjit_call(fn, args, 2, &v), KJIT_OK);
  CHECK(v.dtype == KJIT_FLOAT32 && v.value.f32 == 2.5f, "dtype %d", (int)v.dtype);
}

static void test_misuse(void) {
  double d[1] = {0};
  float f[1] = {0};
  kjit_launch_config c = block(1);
  kjit_arg wrong[2] = {kjit_arg_pointer(KJIT_FLOAT64, d), kjit_arg_i64(1)};
  CHECK_STATUS(kjit_launch(kernel("around"), &c, wrong, 2), KJIT_ERROR_TYPE);
  CHECK(strstr(kjit_last_error(ctx), "float64* does not match the signature's float32*") != NULL,
        "%s", kjit_last_error(ctx));
  kjit_arg bad = kjit_arg_pointer((kjit_dtype)99, f);
  CHECK(bad.dtype == KJIT_DTYPE_INVALID);
  kjit_arg args[2] = {bad, kjit_arg_i64(1)};
  CHECK_STATUS(kjit_launch(kernel("around"), &c, args, 2), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(kjit_last_error(ctx), "invalid pointer dtype") != NULL, "%s", kjit_last_error(ctx));
  int64_t one = 1;
  kjit_array *a = NULL;
  CHECK_STATUS(kjit_array_create(ctx, KJIT_FLOAT32, 1, &one, &a), KJIT_OK);
  kjit_arg arr[2] = {kjit_arg_array(a), kjit_arg_i64(1)};
  CHECK(kjit_launch(kernel("around"), &c, arr, 2) != KJIT_OK);
  CHECK(strstr(kjit_last_error(ctx), "float32*") != NULL, "%s", kjit_last_error(ctx));
  kjit_array_destroy(a);
}

/* ---- --gpu: device pointers on the cuda target ---- */

static kjit_array *device_copy(kjit_dtype dt, int64_t n, const void *host) {
  kjit_array *h = NULL, *d = NULL;
  CHECK_STATUS(kjit_array_create(ctx, dt, 1, &n, &h), KJIT_OK);
  if (h)
    memcpy(kjit_array_data(h), host, (size_t)n * (size_t)kjit_array_itemsize(h));
  CHECK_STATUS(kjit_array_to_device(ctx, h, &d), KJIT_OK);
  kjit_array_destroy(h);
  return d;
}

static void to_host(kjit_array *d, void *host, kjit_dtype dt, int64_t n) {
  kjit_array *h = NULL;
  CHECK_STATUS(kjit_array_create(ctx, dt, 1, &n, &h), KJIT_OK);
  CHECK_STATUS(kjit_array_copy(h, d), KJIT_OK);
  if (h)
    memcpy(host, kjit_array_data(h), (size_t)n * (size_t)kjit_array_itemsize(h));
  kjit_array_destroy(h);
}

static void gpu_tests(void) {
  float buf[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  kjit_array *d = device_copy(KJIT_FLOAT32, 8, buf);
  kjit_arg args[2] = {kjit_arg_pointer(KJIT_FLOAT32, (float *)kjit_array_data(d) + 4), kjit_arg_i64(4)};
  kjit_launch_config c = block(4);
  CHECK_STATUS(kjit_launch(kernel("around"), &c, args, 2), KJIT_OK);
  to_host(d, buf, KJIT_FLOAT32, 8);
  const float want[8] = {-8.5f, -7.5f, -6.5f, -5.5f, 5.5f, 6.5f, 7.5f, 8.5f};
  for (int i = 0; i < 8; i++)
    CHECK(buf[i] == want[i], "gpu: buf[%d] = %g, want %g", i, buf[i], want[i]);
  /* twice through the fast path: each launch passes its own address */
  float f1[3] = {1, 2, 3}, f2[3] = {10, 20, 30};
  kjit_array *p1 = device_copy(KJIT_FLOAT32, 3, f1), *p2 = device_copy(KJIT_FLOAT32, 3, f2);
  double z[3] = {0, 0, 0}, out[3];
  kjit_array *o = device_copy(KJIT_FLOAT64, 3, z);
  kjit_launch_config c3 = block(3);
  for (int r = 0; r < 3; r++) {
    kjit_array *p = r == 1 ? p2 : p1;
    kjit_arg a[2] = {kjit_arg_pointer(KJIT_FLOAT32, kjit_array_data(p)), kjit_arg_array(o)};
    CHECK_STATUS(kjit_launch(kernel("lazy"), &c3, a, 2), KJIT_OK);
    to_host(o, out, KJIT_FLOAT64, 3);
    const float *src = r == 1 ? f2 : f1;
    for (int i = 0; i < 3; i++)
      CHECK(out[i] == 3.0 * src[i], "gpu launch %d: out[%d] = %g", r, i, out[i]);
  }
  kjit_array_destroy(d), kjit_array_destroy(p1), kjit_array_destroy(p2), kjit_array_destroy(o);
}

int main(int argc, char **argv) {
  int gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = gpu ? KJIT_TARGET_CUDA : KJIT_TARGET_CPU;
  if (kjit_context_create(&o, &ctx) != KJIT_OK ||
      kjit_program_load_source(ctx, "pointer_test.py", src, &prog) != KJIT_OK) {
    fprintf(stderr, "setup failed: %s\n", ctx ? kjit_last_error(ctx) : "no context");
    return 1;
  }
  if (gpu) {
    gpu_tests();
  } else {
    test_negative_index();
    test_int_address();
    test_lazy();
    test_call();
    test_misuse();
  }
  kjit_context_destroy(ctx);
  printf("test_pointer_args: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
