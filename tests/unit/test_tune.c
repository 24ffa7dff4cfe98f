/* test_tune.c - tuning records through the C API on the cpu target:
 * kjit_tuning_info_get (the key and what it is made of, the kernel facts
 * kjit tune reads), kjit_tuning_store / kjit_tuning_load (a round trip,
 * records refused by their values, another shape class or kernel finding
 * nothing), and kjit_launch_config_tuned (cover grids keep the caller's
 * threads, SM grids, dynamic shared scaled per thread). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kjit.h"

#include "check.h"

static kjit_context *ctx;

static const char src[] =
    "from numba import cuda, float32\n"
    "@cuda.jit\n"
    "def add(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = x[i] + 1.0\n"
    "@cuda.jit\n"
    "def add_b(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = x[i] + 2.0\n"
    "@cuda.jit\n"
    "def grid2(a):\n"
    "    i, j = cuda.grid(2)\n"
    "    if i < a.shape[0] and j < a.shape[1]:\n"
    "        a[i, j] = 1.0\n"
    "@cuda.jit\n"
    "def stride(a):\n"
    "    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):\n"
    "        a[i] = 2.0\n"
    "@cuda.jit\n"
    "def dyn(a):\n"
    "    s = cuda.shared.array(0, float32)\n"
    "    s[cuda.threadIdx.x] = 1.0\n"
    "    cuda.syncthreads()\n"
    "    a[cuda.grid(1)] = s[cuda.threadIdx.x]\n";

static kjit_kernel *kernel(kjit_program *p, const char *name) {
  kjit_kernel *k = NULL;
  CHECK_STATUS(kjit_program_kernel(p, name, &k), KJIT_OK);
  return k;
}

static kjit_array *array(int64_t n) {
  kjit_array *a = NULL;
  CHECK_STATUS(kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &a), KJIT_OK);
  return a;
}

static kjit_tuning record(uint32_t block, uint32_t ref) {
  kjit_tuning t;
  memset(&t, 0, sizeof t);
  t.block[0] = block, t.block[1] = t.block[2] = 1;
  t.ref_block[0] = ref, t.ref_block[1] = t.ref_block[2] = 1;
  t.median_ms = 0.5, t.spread_ms = 0.01;
  return t;
}

static void check_info(kjit_program *p) {
  kjit_array *x = array(1000), *out = array(1000);
  kjit_arg args[] = {kjit_arg_array(x), kjit_arg_array(out)};
  kjit_tuning_info a, b;
  CHECK_STATUS(kjit_tuning_info_get(kernel(p, "add"), args, 2, &a), KJIT_OK);
  CHECK(strlen(a.key) == 64 && strspn(a.key, "0123456789abcdef") == 64, "key %s", a.key);
  CHECK_STR(a.shapes, "(1024) (1024)");
  CHECK(strncmp(a.device, "cpu ", 4) == 0, "device %s", a.device);
  CHECK(a.dims == 1 && !a.grid_stride && !a.dynamic_shared && !a.grid_sync);
  CHECK(a.multiprocessors >= 1 && a.max_threads_per_block == 1024);
  CHECK_STATUS(kjit_tuning_info_get(kernel(p, "add_b"), args, 2, &b), KJIT_OK);
  CHECK(strcmp(a.key, b.key) != 0 && strcmp(a.kernel, b.kernel) != 0, "two kernels, one key");
  kjit_arg scal[] = {kjit_arg_array(x), kjit_arg_i64(3)};
  CHECK_STATUS(kjit_tuning_info_get(kernel(p, "add"), scal, 2, &b), KJIT_ERROR_TYPE);
  CHECK_STATUS(kjit_tuning_info_get(kernel(p, "add"), args, 1, &b), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_tuning_info_get(kernel(p, "stride"), args, 1, &b), KJIT_OK);
  CHECK(b.grid_stride && b.dims == 1);
  CHECK_STATUS(kjit_tuning_info_get(kernel(p, "dyn"), args, 1, &b), KJIT_OK);
  CHECK(b.dynamic_shared && !b.grid_stride);
  kjit_array *m = NULL;
  int64_t shape[2] = {100, 3};
  CHECK_STATUS(kjit_array_create(ctx, KJIT_FLOAT32, 2, shape, &m), KJIT_OK);
  kjit_arg marg = kjit_arg_array(m);
  CHECK_STATUS(kjit_tuning_info_get(kernel(p, "grid2"), &marg, 1, &b), KJIT_OK);
  CHECK(b.dims == 2, "dims %d", b.dims);
  CHECK_STR(b.shapes, "(128,4)");
}

static void check_store_load(kjit_program *p) {
  kjit_kernel *k = kernel(p, "add");
  kjit_array *x = array(1000), *out = array(1000);
  kjit_arg args[] = {kjit_arg_array(x), kjit_arg_array(out)};
  kjit_tuning t = record(128, 256), got;
  CHECK_STATUS(kjit_tuning_load(k, args, 2, &got), KJIT_ERROR_NOT_FOUND);
  CHECK(strstr(kjit_last_error(ctx), "E499") != NULL, "%s", kjit_last_error(ctx));
  CHECK_STATUS(kjit_tuning_store(k, args, 2, &t), KJIT_OK);
  CHECK_STATUS(kjit_tuning_load(k, args, 2, &got), KJIT_OK);
  CHECK(got.block[0] == 128 && got.ref_block[0] == 256 && got.grid_policy == KJIT_TUNE_GRID_COVER);
  CHECK(got.median_ms == 0.5 && got.spread_ms == 0.01);
  /* the same class (1000 and 600 round to 1024) finds it; 2000 does not; nor another kernel */
  kjit_array *x6 = array(600), *o6 = array(600), *x2 = array(2000), *o2 = array(2000);
  kjit_arg six[] = {kjit_arg_array(x6), kjit_arg_array(o6)};
  kjit_arg two[] = {kjit_arg_array(x2), kjit_arg_array(o2)};
  CHECK_STATUS(kjit_tuning_load(k, six, 2, &got), KJIT_OK);
  CHECK_STATUS(kjit_tuning_load(k, two, 2, &got), KJIT_ERROR_NOT_FOUND);
  CHECK_STATUS(kjit_tuning_load(kernel(p, "add_b"), args, 2, &got), KJIT_ERROR_NOT_FOUND);
  /* values a record cannot have */
  kjit_tuning bad = record(0, 256);
  CHECK_STATUS(kjit_tuning_store(k, args, 2, &bad), KJIT_ERROR_INVALID_ARGUMENT);
  bad = record(64, 256), bad.block[1] = 32;
  CHECK_STATUS(kjit_tuning_store(k, args, 2, &bad), KJIT_ERROR_INVALID_ARGUMENT);
  bad = record(64, 256), bad.grid_policy = KJIT_TUNE_GRID_SMS;
  CHECK_STATUS(kjit_tuning_store(k, args, 2, &bad), KJIT_ERROR_INVALID_ARGUMENT);
  bad = record(64, 256), bad.median_ms = -1;
  CHECK_STATUS(kjit_tuning_store(k, args, 2, &bad), KJIT_ERROR_INVALID_ARGUMENT);
  bad = record(64, 256), bad.shared_policy = 7;
  CHECK_STATUS(kjit_tuning_store(k, args, 2, &bad), KJIT_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kjit_tuning_load(k, args, 2, &got), KJIT_OK);
  CHECK(got.block[0] == 128, "a refused store replaced the record");
}

static void check_launch_option(kjit_program *p) {
  kjit_kernel *k = kernel(p, "add");
  kjit_array *x = array(1000), *out = array(1000);
  kjit_arg args[] = {kjit_arg_array(x), kjit_arg_array(out)};
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = 4, cfg.block[0] = 256;            /* the caller covers 1024 threads */
  CHECK_STATUS(kjit_launch_config_tuned(k, args, 2, &cfg), KJIT_OK);
  CHECK(cfg.block[0] == 128 && cfg.grid[0] == 8, "block %u grid %u", cfg.block[0], cfg.grid[0]);
  CHECK_STATUS(kjit_launch(k, &cfg, args, 2), KJIT_OK);
  /* no record: NOT_FOUND and cfg untouched */
  kjit_array *x2 = array(5000), *o2 = array(5000);
  kjit_arg two[] = {kjit_arg_array(x2), kjit_arg_array(o2)};
  kjit_launch_config c2;
  kjit_launch_config_init(&c2);
  c2.grid[0] = 20, c2.block[0] = 256;
  CHECK_STATUS(kjit_launch_config_tuned(k, two, 2, &c2), KJIT_ERROR_NOT_FOUND);
  CHECK(c2.grid[0] == 20 && c2.block[0] == 256);
  /* a grid by SM count, and dynamic shared memory scaled per thread */
  kjit_kernel *d = kernel(p, "dyn");
  kjit_arg one = kjit_arg_array(x);
  kjit_tuning t = record(64, 256);
  t.grid_policy = KJIT_TUNE_GRID_SMS, t.sm_multiple = 3;
  t.shared_policy = KJIT_TUNE_SHARED_PER_THREAD;
  CHECK_STATUS(kjit_tuning_store(d, &one, 1, &t), KJIT_OK);
  kjit_tuning_info info;
  CHECK_STATUS(kjit_tuning_info_get(d, &one, 1, &info), KJIT_OK);
  kjit_launch_config_init(&c2);
  c2.grid[0] = 4, c2.block[0] = 256, c2.shared_bytes = 1024;
  CHECK_STATUS(kjit_launch_config_tuned(d, &one, 1, &c2), KJIT_OK);
  CHECK(c2.block[0] == 64 && c2.grid[0] == 3u * (uint32_t)info.multiprocessors && c2.shared_bytes == 256,
        "block %u grid %u shared %zu", c2.block[0], c2.grid[0], c2.shared_bytes);
  CHECK_STATUS(kjit_launch_config_tuned(d, &one, 1, NULL), KJIT_ERROR_INVALID_ARGUMENT);
}

int main(void) {
  char dir[] = "/tmp/kjit-tune-test.XXXXXX";
  if (!mkdtemp(dir))
    return 1;
  setenv("KJIT_CACHE_DIR", dir, 1);
  setenv("XDG_CONFIG_HOME", dir, 1);
  unsetenv("KJIT_CACHE");
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  kjit_program *p = NULL;
  CHECK_STATUS(kjit_context_create(&o, &ctx), KJIT_OK);
  CHECK_STATUS(kjit_program_load_source(ctx, "tune.py", src, &p), KJIT_OK);
  if (p) {
    check_info(p);
    check_store_load(p);
    check_launch_option(p);
  }
  kjit_context_destroy(ctx);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "test_tune: could not remove %s\n", dir);
  printf("test_tune: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
