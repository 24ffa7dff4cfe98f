/* test_devices.c - device selection through the public API (kjit.h only):
 * the device list, the device option of a context and $KJIT_DEVICE, and
 * their errors.
 *
 * Runs everywhere.  Without a GPU (or a driver) it checks the error paths:
 * no devices listed, a bad ordinal refused with a message naming it, the
 * auto target falling back to the cpu.  Where GPUs exist it also binds a
 * context to every device in turn and runs a vector add with device arrays
 * there (launch, copy back, check).  An array of one context passed to
 * another context's launch is refused on every target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kjit.h"
#include "check.h"

static kjit_context *ctx; /* the one CHECK_STATUS prints the last error of */

static const char vadd[] =
    "from numba import cuda\n"
    "@cuda.jit\n"
    "def vadd(x, y, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = x[i] + y[i]\n";

/* A context with this target and device option (KJIT_DEVICE_DEFAULT: none). */
static kjit_context *make(kjit_target target, int device) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = target;
  o.device = device;
  kjit_context *c = NULL;
  CHECK(kjit_context_create(&o, &c) == KJIT_OK);
  return c;
}

static void test_listing(int count) {
  kjit_device_info info;
  CHECK_STATUS(kjit_device_count(NULL), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_device_get_info(0, NULL), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_device_get_info(-1, &info), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_device_get_info(count, &info), KJIT_ERROR_NO_DEVICE);
  for (int i = 0; i < count; i++) {
    memset(&info, 0xff, sizeof info);
    CHECK_STATUS(kjit_device_get_info(i, &info), KJIT_OK);
    CHECK(info.ordinal == i && info.name[0] && info.cc_major >= 3);
    CHECK(info.total_memory > 0 && info.multiprocessors > 0 && info.max_threads_per_block > 0);
    printf("device %d: %s, sm_%d%d, %.1f GiB\n", i, info.name, info.cc_major, info.cc_minor,
           (double)info.total_memory / (1 << 30));
  }
}

static void test_options(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  CHECK(o.device == KJIT_DEVICE_DEFAULT);
  kjit_context *c = NULL;
  o.device = -2;
  CHECK_STATUS(kjit_context_create(&o, &c), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(c == NULL);
  int d = -5;
  CHECK_STATUS(kjit_context_device(NULL, &d), KJIT_ERROR_INVALID_ARGUMENT);
  /* creating a context bound to a device that does not exist is cheap and
   * fine: nothing is probed before the target is resolved */
  c = make(KJIT_TARGET_CUDA, 1000);
  CHECK_STATUS(kjit_context_device(c, NULL), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_context_device(c, &d), KJIT_OK);
  CHECK(d == 1000);
  kjit_context_destroy(c);
}

/* $KJIT_DEVICE gives the default device; the option overrides it. */
static void test_environment(void) {
  int d = -5;
  unsetenv("KJIT_DEVICE");
  ctx = make(KJIT_TARGET_CPU, KJIT_DEVICE_DEFAULT);
  CHECK_STATUS(kjit_context_device(ctx, &d), KJIT_OK);
  CHECK(d == 0);
  setenv("KJIT_DEVICE", "7", 1);
  CHECK_STATUS(kjit_context_device(ctx, &d), KJIT_OK);
  CHECK(d == 7);
  setenv("KJIT_DEVICE", "abc", 1);
  CHECK_STATUS(kjit_context_device(ctx, &d), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(kjit_last_error(ctx), "KJIT_DEVICE='abc' is not a device number") != NULL);
  kjit_context_destroy(ctx);
  ctx = make(KJIT_TARGET_CPU, 3);
  CHECK_STATUS(kjit_context_device(ctx, &d), KJIT_OK);
  CHECK(d == 3);
  kjit_context_destroy(ctx);
  /* a KJIT_DEVICE that is no number fails the auto target too */
  ctx = make(KJIT_TARGET_AUTO, KJIT_DEVICE_DEFAULT);
  kjit_target t;
  CHECK_STATUS(kjit_context_target(ctx, &t), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(kjit_last_error(ctx), "KJIT_DEVICE='abc'") != NULL);
  kjit_context_destroy(ctx);
  ctx = NULL;
  unsetenv("KJIT_DEVICE");
}

/* A device past the machine's: an error naming it on the cuda target; on
 * auto too where GPUs exist, a fallback to the cpu where none does. */
static void test_bad_ordinal(int count) {
  kjit_target t = KJIT_TARGET_AUTO;
  char want[64];
  snprintf(want, sizeof want, "CUDA device %d ", count + 1);
  ctx = make(KJIT_TARGET_CUDA, count + 1);
  CHECK_STATUS(kjit_context_target(ctx, &t), KJIT_ERROR_NO_DEVICE);
  CHECK(strstr(kjit_last_error(ctx), want) != NULL);
  kjit_array *a = NULL;
  int64_t n = 4;
  CHECK_STATUS(kjit_array_create_device(ctx, KJIT_FLOAT32, 1, &n, &a), KJIT_ERROR_NO_DEVICE);
  kjit_context_destroy(ctx);
  ctx = make(KJIT_TARGET_AUTO, count + 1);
  if (count == 0) {
    CHECK_STATUS(kjit_context_target(ctx, &t), KJIT_OK);
    CHECK(t == KJIT_TARGET_CPU);
    CHECK(strstr(kjit_last_diagnostics(ctx), "running on the cpu target") != NULL);
  } else {
    CHECK_STATUS(kjit_context_target(ctx, &t), KJIT_ERROR_NO_DEVICE);
    CHECK(strstr(kjit_last_error(ctx), "does not exist") != NULL);
  }
  kjit_context_destroy(ctx);
  ctx = NULL;
}

/* Arrays belong to their context, hence to its device. */
static void test_foreign_array(void) {
  kjit_context *other = make(KJIT_TARGET_CPU, KJIT_DEVICE_DEFAULT);
  ctx = make(KJIT_TARGET_CPU, KJIT_DEVICE_DEFAULT);
  kjit_program *p = NULL;
  kjit_kernel *k = NULL;
  kjit_array *x = NULL, *y = NULL, *out = NULL;
  int64_t n = 8;
  CHECK_STATUS(kjit_program_load_source(ctx, "vadd.py", vadd, &p), KJIT_OK);
  CHECK_STATUS(kjit_program_kernel(p, "vadd", &k), KJIT_OK);
  CHECK_STATUS(kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &x), KJIT_OK);
  CHECK_STATUS(kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &y), KJIT_OK);
  CHECK_STATUS(kjit_array_create(other, KJIT_FLOAT32, 1, &n, &out), KJIT_OK);
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.block[0] = 8;
  kjit_arg args[] = {kjit_arg_array(x), kjit_arg_array(y), kjit_arg_array(out)};
  if (k) {
    CHECK_STATUS(kjit_launch(k, &cfg, args, 3), KJIT_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(kjit_last_error(ctx), "belongs to another context") != NULL);
  }
  kjit_context_destroy(ctx);
  kjit_context_destroy(other);
  ctx = NULL;
}

/* out = x + y on device `dev` through device arrays bound to it. */
static void run_on_device(int dev) {
  enum { N = 1000 };
  float hx[N], hy[N], hout[N];
  for (int i = 0; i < N; i++) {
    hx[i] = (float)i;
    hy[i] = 0.5f * (float)(dev + 1);
  }
  ctx = make(KJIT_TARGET_CUDA, dev);
  int64_t n = N;
  kjit_program *p = NULL;
  kjit_kernel *k = NULL;
  kjit_array *x = NULL, *y = NULL, *dx = NULL, *dy = NULL, *dout = NULL, *out = NULL;
  CHECK_STATUS(kjit_program_load_source(ctx, "vadd.py", vadd, &p), KJIT_OK);
  CHECK_STATUS(kjit_program_kernel(p, "vadd", &k), KJIT_OK);
  CHECK_STATUS(kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, hx, &x), KJIT_OK);
  CHECK_STATUS(kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, hy, &y), KJIT_OK);
  CHECK_STATUS(kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, hout, &out), KJIT_OK);
  CHECK_STATUS(kjit_array_to_device(ctx, x, &dx), KJIT_OK);
  CHECK_STATUS(kjit_array_to_device(ctx, y, &dy), KJIT_OK);
  CHECK_STATUS(kjit_array_create_device(ctx, KJIT_FLOAT32, 1, &n, &dout), KJIT_OK);
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = (N + 127) / 128;
  cfg.block[0] = 128;
  kjit_arg args[] = {kjit_arg_array(dx), kjit_arg_array(dy), kjit_arg_array(dout)};
  if (k && dx && dy && dout && out) {
    CHECK_STATUS(kjit_launch(k, &cfg, args, 3), KJIT_OK);
    CHECK_STATUS(kjit_array_copy(out, dout), KJIT_OK);
    int bad = 0;
    for (int i = 0; i < N; i++)
      bad += hout[i] != hx[i] + hy[i];
    CHECK(bad == 0);
  }
  int d = -1;
  CHECK_STATUS(kjit_context_device(ctx, &d), KJIT_OK);
  CHECK(d == dev);
  kjit_context_destroy(ctx);
  ctx = NULL;
}

int main(void) {
  int count = -1;
  CHECK_STATUS(kjit_device_count(&count), KJIT_OK);
  CHECK(count >= 0);
  printf("devices: %d\n", count);
  test_listing(count);
  test_options();
  test_environment();
  test_bad_ordinal(count);
  test_foreign_array();
  for (int i = 0; i < count; i++)
    run_on_device(i);
  printf("test_devices: %d checks, %d failed%s\n", checks, failures,
         count ? "" : " (no GPU: the per-device launches were not run)");
  return failures ? 1 : 0;
}
