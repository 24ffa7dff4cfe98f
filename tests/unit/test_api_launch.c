/* test_api_launch.c - the launch API of include/kjit.h on the CPU target:
 * arrays (create, wrap without copy, strided wrap, .npy round trip),
 * kernel handles, launches (vector add, in-place update, shared memory,
 * scalars), and every misuse the API promises to catch before anything
 * runs: wrong argument count or type, unknown kernel, a destroyed array,
 * NULLs, zero grid, oversized block or shared memory; target resolution.
 * Uses only the public header.  Prints each failure; exit 1 if any. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kjit.h"
#include "kjitaux.h"

#include "check.h"

/* The status is `want` and the last error contains `text`. */
static void expect_error(kjit_context *ctx, kjit_status st, kjit_status want,
                         const char *text, int line) {
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
    "from numba import cuda, float32\n"
    "import numpy as np\n"
    "\n"
    "@cuda.jit(\"void(float32[::1], float32[::1], float32[::1])\")\n"
    "def add(x, y, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = x[i] + y[i]\n"
    "\n"
    "@cuda.jit\n"
    "def axpy(a, x, y):\n"
    "    i = cuda.grid(1)\n"
    "    if i < y.size:\n"
    "        y[i] += a * x[i]\n"
    "\n"
    "@cuda.jit\n"
    "def scale2d(m, f):\n"
    "    i, j = cuda.grid(2)\n"
    "    if i < m.shape[0] and j < m.shape[1]:\n"
    "        m[i, j] = m[i, j] * f\n"
    "\n"
    "@cuda.jit\n"
    "def block_sum(x, out):\n"
    "    s = cuda.shared.array(64, float32)\n"
    "    t = cuda.threadIdx.x\n"
    "    s[t] = x[cuda.blockIdx.x * 64 + t]\n"
    "    cuda.syncthreads()\n"
    "    stride = 32\n"
    "    while stride > 0:\n"
    "        if t < stride:\n"
    "            s[t] += s[t + stride]\n"
    "        cuda.syncthreads()\n"
    "        stride //= 2\n"
    "    if t == 0:\n"
    "        out[cuda.blockIdx.x] = s[0]\n"
    "\n"
    "@cuda.jit\n"
    "def dyn_reverse(x):\n"
    "    s = cuda.shared.array(0, np.int32)\n"
    "    t = cuda.threadIdx.x\n"
    "    n = cuda.blockDim.x\n"
    "    s[t] = x[t]\n"
    "    cuda.syncthreads()\n"
    "    x[t] = s[n - 1 - t]\n"
    "\n"
    "@cuda.jit\n"
    "def rows(m):\n"
    "    col = cuda.grid(1)\n"
    "    g = cuda.cg.this_grid()\n"
    "    for row in range(1, m.shape[0]):\n"
    "        m[row, col] = m[row - 1, m.shape[1] - col - 1] + 1\n"
    "        g.sync()\n";

static kjit_context *ctx;
static kjit_program *prog;

static kjit_array *new_array(kjit_dtype dt, int64_t n) {
  kjit_array *a = NULL;
  kjit_status st = kjit_array_create(ctx, dt, 1, &n, &a);
  CHECK(st == KJIT_OK, "create: %s", kjit_last_error(ctx));
  return a;
}

static kjit_kernel *get_kernel(const char *name) {
  kjit_kernel *k = NULL;
  kjit_status st = kjit_program_kernel(prog, name, &k);
  CHECK(st == KJIT_OK, "kernel %s: %s", name, kjit_last_error(ctx));
  return k;
}

static kjit_launch_config config(uint32_t grid, uint32_t block) {
  kjit_launch_config c;
  kjit_launch_config_init(&c);
  c.grid[0] = grid;
  c.block[0] = block;
  return c;
}

/* ------------------------------------------------------------ arrays --- */

static void test_dtypes(void) {
  CHECK(strcmp(kjit_dtype_name(KJIT_FLOAT32), "float32") == 0, "name");
  CHECK(strcmp(kjit_dtype_name(KJIT_COMPLEX128), "complex128") == 0, "name");
  CHECK(kjit_dtype_name((kjit_dtype)99) == NULL, "bad dtype name");
  CHECK(kjit_dtype_size(KJIT_FLOAT16) == 2 && kjit_dtype_size(KJIT_COMPLEX128) == 16 &&
        kjit_dtype_size(KJIT_BOOL) == 1 && kjit_dtype_size((kjit_dtype)-1) == 0, "sizes");
}

static void test_arrays(void) {
  int64_t shape[2] = {3, 5};
  kjit_array *a = NULL;
  CHECK(kjit_array_create(ctx, KJIT_INT16, 2, shape, &a) == KJIT_OK, "create 2-d");
  CHECK(kjit_array_ndim(a) == 2 && kjit_array_shape(a)[1] == 5, "shape");
  CHECK(kjit_array_strides(a)[0] == 10 && kjit_array_strides(a)[1] == 2, "C strides");
  CHECK(kjit_array_dtype(a) == KJIT_INT16 && kjit_array_size(a) == 15, "dtype/size");
  int16_t *d = kjit_array_data(a);
  int zero = 1;
  for (int i = 0; i < 15; i++)
    zero &= d[i] == 0;
  CHECK(zero, "created arrays are zeroed");
  kjit_array_destroy(a);
  CHECK(kjit_array_data(a) == NULL && kjit_array_ndim(a) == -1, "destroyed accessors");
  kjit_array_destroy(a); /* twice: ignored */

  int64_t bad = -1;
  EXPECT_ERROR(ctx, kjit_array_create(ctx, KJIT_FLOAT32, 1, &bad, &a),
               KJIT_ERROR_INVALID_ARGUMENT, "negative");
  EXPECT_ERROR(ctx, kjit_array_create(ctx, KJIT_FLOAT32, 9, shape, &a),
               KJIT_ERROR_INVALID_ARGUMENT, "0 to 8 dimensions");
  EXPECT_ERROR(ctx, kjit_array_create(ctx, (kjit_dtype)42, 1, shape, &a),
               KJIT_ERROR_INVALID_ARGUMENT, "not a kjit_dtype");
  int64_t huge[2] = {INT64_MAX / 2, 4};
  EXPECT_ERROR(ctx, kjit_array_create(ctx, KJIT_FLOAT64, 2, huge, &a),
               KJIT_ERROR_INVALID_ARGUMENT, "overflows");
  CHECK(kjit_array_create(NULL, KJIT_FLOAT32, 1, shape, &a) == KJIT_ERROR_INVALID_ARGUMENT, "NULL ctx");
  CHECK(kjit_array_create(ctx, KJIT_FLOAT32, 1, shape, NULL) == KJIT_ERROR_INVALID_ARGUMENT, "NULL out");
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT32, 1, shape, NULL, NULL, &a) == KJIT_ERROR_INVALID_ARGUMENT,
        "wrap NULL data");
  CHECK(kjit_array_data(NULL) == NULL && kjit_array_dtype(NULL) == KJIT_DTYPE_INVALID, "NULL accessors");
}

static void test_npy_round_trip(void) {
  char path[] = "/tmp/kjit-test-api-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0, "mkstemp");
  close(fd);
  char npy[64];
  snprintf(npy, sizeof npy, "%s.npy", path);
  kjit_arg v;
  CHECK(kjitaux_arg_parse(ctx, "arange:int32:2x3", "a", &v) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(v.kind == KJIT_ARG_ARRAY, "arange gives an array");
  CHECK(kjit_array_save_npy(v.value.array, npy) == KJIT_OK, "%s", kjit_last_error(ctx));
  kjit_array *back = NULL;
  CHECK(kjit_array_load_npy(ctx, npy, &back) == KJIT_OK, "%s", kjit_last_error(ctx));
  CHECK(back && kjit_array_ndim(back) == 2 && ((int32_t *)kjit_array_data(back))[5] == 5, "round trip");
  char *s = NULL;
  CHECK(kjitaux_array_summary(back, &s) == KJIT_OK && strstr(s, "int32[2x3] [0, 1, 2, 3, 4, 5] sum=15"),
        "summary: %s", s ? s : "(null)");
  kjit_free(s);
  kjit_array_destroy(back);
  kjit_array_destroy(v.value.array);
  EXPECT_ERROR(ctx, kjit_array_load_npy(ctx, "/nonexistent/x.npy", &back), KJIT_ERROR_IO,
               "/nonexistent/x.npy");
  EXPECT_ERROR(ctx, kjitaux_arg_parse(ctx, "zeros:float33:4", "x", &v), KJIT_ERROR_INVALID_ARGUMENT,
               "argument 'x'");
  CHECK(kjitaux_arg_parse(ctx, "-7", NULL, &v) == KJIT_OK && v.kind == KJIT_ARG_INT64 && v.value.i64 == -7,
        "bare int");
  CHECK(kjitaux_arg_parse(ctx, "2.5", NULL, &v) == KJIT_OK && v.kind == KJIT_ARG_FLOAT64, "bare float");
  CHECK(kjitaux_arg_parse(ctx, "float32:2.5", NULL, &v) == KJIT_OK && v.kind == KJIT_ARG_SCALAR &&
        v.dtype == KJIT_FLOAT32, "typed scalar");
  unlink(path);
  unlink(npy);
}

/* ---------------------------------------------------------- launches --- */

static void test_vector_add(void) {
  enum { N = 1000 };
  kjit_array *x = new_array(KJIT_FLOAT32, N), *y = new_array(KJIT_FLOAT32, N);
  kjit_array *out = new_array(KJIT_FLOAT32, N);
  float *px = kjit_array_data(x), *py = kjit_array_data(y);
  for (int i = 0; i < N; i++)
    px[i] = (float)i, py[i] = 2.0f * (float)i;
  kjit_kernel *k = get_kernel("add");
  kjit_kernel *k2 = get_kernel("add");
  CHECK(k == k2, "same handle for the same name");
  kjit_arg args[3] = {kjit_arg_array(x), kjit_arg_array(y), kjit_arg_array(out)};
  kjit_launch_config c = config((N + 255) / 256, 256);
  kjit_status st = kjit_launch(k, &c, args, 3);
  CHECK(st == KJIT_OK, "launch add: %s", kjit_last_error(ctx));
  float *po = kjit_array_data(out);
  int bad = -1;
  for (int i = 0; i < N && bad < 0; i++)
    if (po[i] != 3.0f * (float)i)
      bad = i;
  CHECK(bad < 0, "out[%d] = %g", bad, bad < 0 ? 0.0 : po[bad]);
  double cm = -1, cp = -1, rm = -1;
  CHECK(kjit_last_timing(ctx, &cm, &cp, &rm) == KJIT_OK && cm >= 0 && cp == 0 && rm >= 0,
        "timing %g %g %g", cm, cp, rm);
  st = kjit_launch(k, &c, args, 3);
  kjit_last_timing(ctx, &cm, NULL, NULL);
  CHECK(st == KJIT_OK && cm == 0, "second launch is a cache hit (compile %g ms)", cm);
  kjit_array_destroy(x);
  kjit_array_destroy(y);
  kjit_array_destroy(out);
}

/* A wrapped array is the caller's memory: the kernel's writes land in it;
 * a scalar float32 and an int64 scalar both work. */
static void test_wrap_no_copy(void) {
  enum { N = 300 };
  float *xs = malloc(N * sizeof *xs), *ys = malloc(N * sizeof *ys);
  for (int i = 0; i < N; i++)
    xs[i] = (float)i, ys[i] = 1.0f;
  int64_t n = N;
  kjit_array *x, *y;
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, xs, &x) == KJIT_OK, "wrap x");
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, ys, &y) == KJIT_OK, "wrap y");
  CHECK(kjit_array_data(y) == ys, "wrap keeps the pointer");
  float a = 2.0f;
  kjit_arg args[3] = {kjit_arg_scalar(KJIT_FLOAT32, &a), kjit_arg_array(x), kjit_arg_array(y)};
  kjit_launch_config c = config(3, 128);
  CHECK(kjit_launch(get_kernel("axpy"), &c, args, 3) == KJIT_OK, "axpy: %s", kjit_last_error(ctx));
  CHECK(ys[0] == 1.0f && ys[10] == 21.0f && ys[N - 1] == 1.0f + 2.0f * (N - 1),
        "caller memory updated: %g %g", ys[10], ys[N - 1]);
  args[0] = kjit_arg_i64(3);  /* int64 * float32 -> float64, stored into float32 */
  CHECK(kjit_launch(get_kernel("axpy"), &c, args, 3) == KJIT_OK, "axpy i64: %s", kjit_last_error(ctx));
  CHECK(ys[10] == 51.0f, "ys[10] = %g", ys[10]);
  kjit_array_destroy(x);
  kjit_array_destroy(y);
  CHECK(ys[10] == 51.0f, "destroying a wrapped array leaves the memory");
  free(xs);
  free(ys);
}

/* A Fortran-ordered 4x3 view of caller memory: strides (8, 32). */
static void test_strided_wrap(void) {
  double mem[12];
  for (int i = 0; i < 12; i++)
    mem[i] = i;
  int64_t shape[2] = {4, 3}, strides[2] = {8, 32};
  kjit_array *m;
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT64, 2, shape, strides, mem, &m) == KJIT_OK, "wrap F");
  kjit_arg args[2] = {kjit_arg_array(m), kjit_arg_f64(10.0)};
  kjit_launch_config c;
  kjit_launch_config_init(&c);
  c.block[0] = c.block[1] = 4;
  CHECK(kjit_launch(get_kernel("scale2d"), &c, args, 2) == KJIT_OK, "scale2d: %s", kjit_last_error(ctx));
  int ok = 1;
  for (int i = 0; i < 12; i++)
    ok &= mem[i] == 10.0 * i;
  CHECK(ok, "every element scaled once: mem[5] = %g", mem[5]);
  kjit_array_destroy(m);
}

static void test_shared_memory(void) {
  kjit_array *x = new_array(KJIT_FLOAT32, 256), *out = new_array(KJIT_FLOAT32, 4);
  float *px = kjit_array_data(x);
  for (int i = 0; i < 256; i++)
    px[i] = (float)(i % 7);
  kjit_arg args[2] = {kjit_arg_array(x), kjit_arg_array(out)};
  kjit_launch_config c = config(4, 64);
  CHECK(kjit_launch(get_kernel("block_sum"), &c, args, 2) == KJIT_OK, "block_sum: %s",
        kjit_last_error(ctx));
  float *po = kjit_array_data(out);
  for (int b = 0; b < 4; b++) {
    float want = 0;
    for (int i = 0; i < 64; i++)
      want += (float)((b * 64 + i) % 7);
    CHECK(po[b] == want, "block %d: %g, want %g", b, po[b], want);
  }
  kjit_array_destroy(x);
  kjit_array_destroy(out);

  kjit_array *r = new_array(KJIT_INT32, 32);
  int32_t *pr = kjit_array_data(r);
  for (int i = 0; i < 32; i++)
    pr[i] = i;
  kjit_arg a1 = kjit_arg_array(r);
  c = config(1, 32);
  c.shared_bytes = 32 * sizeof(int32_t);
  CHECK(kjit_launch(get_kernel("dyn_reverse"), &c, &a1, 1) == KJIT_OK, "dyn_reverse: %s",
        kjit_last_error(ctx));
  CHECK(pr[0] == 31 && pr[31] == 0, "reversed: %d %d", pr[0], pr[31]);
  kjit_array_destroy(r);
}

/* ------------------------------------------------------------ misuse --- */

static void test_misuse(void) {
  kjit_array *x = new_array(KJIT_FLOAT32, 64), *y = new_array(KJIT_FLOAT32, 64);
  kjit_array *out = new_array(KJIT_FLOAT32, 64);
  kjit_kernel *k = get_kernel("add");
  kjit_arg args[3] = {kjit_arg_array(x), kjit_arg_array(y), kjit_arg_array(out)};
  kjit_launch_config c = config(1, 64);
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 2), KJIT_ERROR_INVALID_ARGUMENT,
               "kernel 'add' takes 3 arguments (2 given)");
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 4), KJIT_ERROR_INVALID_ARGUMENT, "(4 given)");
  EXPECT_ERROR(ctx, kjit_launch(k, &c, NULL, 3), KJIT_ERROR_INVALID_ARGUMENT, "args is NULL");
  EXPECT_ERROR(ctx, kjit_launch(k, NULL, args, 3), KJIT_ERROR_INVALID_ARGUMENT, "configuration is NULL");
  CHECK(kjit_launch(NULL, &c, args, 3) == KJIT_ERROR_INVALID_ARGUMENT, "NULL kernel");

  c = config(0, 64);
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 3), KJIT_ERROR_INVALID_ARGUMENT, "grid.x is 0");
  c = config(1, 2048);
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 3), KJIT_ERROR_INVALID_ARGUMENT, "block.x is 2048");
  c = config(1, 64);
  c.block[1] = 32;
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 3), KJIT_ERROR_INVALID_ARGUMENT,
               "2048 threads exceeds the limit of 1024");
  c = config(1, 64);
  c.shared_bytes = 1u << 20;
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 3), KJIT_ERROR_INVALID_ARGUMENT, "shared memory");
  c = config(1, 64);

  /* Types: a float64 array where the signature wants float32, a scalar for
   * an array, a complex array for a lazy kernel's float arithmetic. */
  kjit_array *d = new_array(KJIT_FLOAT64, 64);
  args[1] = kjit_arg_array(d);
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 3), KJIT_ERROR_TYPE, "argument 2 ('y')");
  args[1] = kjit_arg_i64(1);
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 3), KJIT_ERROR_TYPE, "argument 2 ('y')");
  args[1] = kjit_arg_scalar((kjit_dtype)77, "x");
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 3), KJIT_ERROR_INVALID_ARGUMENT, "argument 2 ('y')");
  kjit_array *z = new_array(KJIT_COMPLEX64, 64);
  kjit_arg cargs[3] = {kjit_arg_f64(1.0), kjit_arg_array(z), kjit_arg_array(out)};
  kjit_status st = kjit_launch(get_kernel("axpy"), &c, cargs, 3);
  CHECK(st == KJIT_ERROR_TYPE,
        "complex into a float32 store: %s %s", kjit_status_name(st), kjit_last_error(ctx));

  /* Launch after destroy. */
  args[1] = kjit_arg_array(y);
  kjit_array_destroy(y);
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 3), KJIT_ERROR_INVALID_ARGUMENT,
               "argument 2 ('y'): array was destroyed");
  args[1].value.array = NULL;
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 3), KJIT_ERROR_INVALID_ARGUMENT,
               "argument 2 ('y'): the array is NULL");
  EXPECT_ERROR(ctx, kjit_array_save_npy(y, "/tmp/never-written.npy"), KJIT_ERROR_INVALID_ARGUMENT,
               "destroyed");
  CHECK(access("/tmp/never-written.npy", F_OK) != 0, "nothing written for a destroyed array");

  /* Unknown kernels: did you mean, device functions. */
  kjit_kernel *none = NULL;
  EXPECT_ERROR(ctx, kjit_program_kernel(prog, "addd", &none), KJIT_ERROR_NOT_FOUND, "did you mean 'add'");
  CHECK(none == NULL, "out untouched on error");
  CHECK(kjit_program_kernel(NULL, "add", &none) == KJIT_ERROR_INVALID_ARGUMENT, "NULL program");
  CHECK(kjit_program_kernel(prog, NULL, &none) == KJIT_ERROR_INVALID_ARGUMENT, "NULL name");

  int n;
  const char *name;
  CHECK(kjit_kernel_param_count(k, &n) == KJIT_OK && n == 3, "param count");
  CHECK(kjit_kernel_param_name(k, 2, &name) == KJIT_OK && strcmp(name, "out") == 0, "param name");
  CHECK(kjit_kernel_param_name(k, 3, &name) == KJIT_ERROR_NOT_FOUND, "param out of range");

  /* The kernel still works after all that. */
  args[1] = kjit_arg_array(x);
  CHECK(kjit_launch(k, &c, args, 3) == KJIT_OK, "launch after errors: %s", kjit_last_error(ctx));
  kjit_array_destroy(x);
  kjit_array_destroy(out);
  kjit_array_destroy(d);
  kjit_array_destroy(z);
}

/* Without a GPU (the build and CI machines) cuda fails with NO_DEVICE and
 * auto falls back to the CPU with a note; with one, both give CUDA. */
/* A kernel that syncs the grid: its limit (16384 threads on the CPU
 * target), a launch within it, one past it refused before running. */
static void test_cooperative(void) {
  int64_t shape[2] = {16, 64};
  kjit_array *m = NULL;
  CHECK(kjit_array_create(ctx, KJIT_INT32, 2, shape, &m) == KJIT_OK, "create: %s", kjit_last_error(ctx));
  memset(kjit_array_data(m), 0, 16 * 64 * sizeof(int32_t));
  kjit_kernel *k = get_kernel("rows");
  kjit_arg args[1] = {kjit_arg_array(m)};
  uint32_t block[3] = {32, 1, 1};
  int64_t max = -1;
  CHECK(kjit_kernel_max_cooperative_grid(k, args, 1, block, 0, &max) == KJIT_OK && max == 16384 / 32,
        "max cooperative grid %lld: %s", (long long)max, kjit_last_error(ctx));
  EXPECT_ERROR(ctx, kjit_kernel_max_cooperative_grid(k, args, 1, block, 0, NULL), KJIT_ERROR_INVALID_ARGUMENT, "");
  kjit_launch_config c = config(2, 32);
  CHECK(kjit_launch(k, &c, args, 1) == KJIT_OK, "launch rows: %s", kjit_last_error(ctx));
  const int32_t *pm = kjit_array_data(m);
  int bad = -1;
  for (int i = 0; i < 16 * 64 && bad < 0; i++)
    if (pm[i] != i / 64)
      bad = i;
  CHECK(bad < 0, "m[%d] = %d, want %d", bad, bad < 0 ? 0 : pm[bad], bad / 64);
  c = config(1024, 32);
  EXPECT_ERROR(ctx, kjit_launch(k, &c, args, 1), KJIT_ERROR_TYPE, "runs at most 16384 threads");
  kjit_array_destroy(m);
}

static void test_targets(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  CHECK(o.target == KJIT_TARGET_AUTO, "default target auto");
  o.target = KJIT_TARGET_CUDA;
  kjit_context *c2;
  CHECK(kjit_context_create(&o, &c2) == KJIT_OK, "cuda context creates (the device opens lazily)");
  kjit_target t;
  kjit_status st = kjit_context_target(c2, &t);
  int have_gpu = st == KJIT_OK;
  if (!have_gpu)
    EXPECT_ERROR(c2, st, KJIT_ERROR_NO_DEVICE, "use the cpu target");
  kjit_context_destroy(c2);
  o.target = KJIT_TARGET_AUTO;
  CHECK(kjit_context_create(&o, &c2) == KJIT_OK, "auto context");
  CHECK(kjit_context_target(c2, &t) == KJIT_OK &&
        t == (have_gpu ? KJIT_TARGET_CUDA : KJIT_TARGET_CPU), "auto resolves");
  if (!have_gpu)
    CHECK(strstr(kjit_last_diagnostics(c2), "running on the cpu target") != NULL,
          "note: %s", kjit_last_diagnostics(c2));
  /* Arrays left alive are released with their context (ASan/valgrind). */
  int64_t n = 10;
  kjit_array *leftover;
  kjit_array_create(c2, KJIT_UINT8, 1, &n, &leftover);
  kjit_context_destroy(c2);
  o.target = (kjit_target)7;
  CHECK(kjit_context_create(&o, &c2) == KJIT_ERROR_INVALID_ARGUMENT, "bad target");
}

/* The C API's fast path re-checks the grid32 launch fact (docs/internals.md):
 * after launches of a small grid took the fast path, one of 2^31 + 1024
 * threads in x must take the 64-bit variant (the last threads' indices are
 * past 2^31), and a small one the 32-bit variant again.  GPU only. */
static const char tail_src[] =
    "from numba import cuda\n"
    "@cuda.jit\n"
    "def tail(out, n):\n"
    "    i = cuda.grid(1)\n"
    "    if i >= n - 4 and i < n:\n"
    "        out[i - (n - 4)] = i\n";

static void check_tail(kjit_context *g, kjit_kernel *k, kjit_array *d, kjit_array *h, uint32_t grid,
                       int64_t n) {
  kjit_launch_config c = config(grid, 1024);
  kjit_arg args[2] = {kjit_arg_array(d), kjit_arg_i64(n)};
  for (int r = 0; r < 3; r++)                   /* the later ones: the fast path */
    CHECK(kjit_launch(k, &c, args, 2) == KJIT_OK, "tail grid %u: %s", grid, kjit_last_error(g));
  CHECK(kjit_synchronize(g) == KJIT_OK && kjit_array_copy(h, d) == KJIT_OK, "tail copy");
  const int64_t *v = kjit_array_data(h);
  for (int i = 0; i < 4; i++)
    CHECK(v[i] == n - 4 + i, "tail grid %u: out[%d] = %lld, want %lld", grid, i, (long long)v[i],
          (long long)(n - 4 + i));
}

static void gpu_grid32_fast_path(kjit_context *g) {
  kjit_program *p;
  kjit_kernel *k;
  kjit_array *d, *h;
  int64_t four = 4;
  CHECK(kjit_program_load_source(g, "tail.py", tail_src, &p) == KJIT_OK &&
        kjit_program_kernel(p, "tail", &k) == KJIT_OK, "tail: %s", kjit_last_error(g));
  CHECK(kjit_array_create_device(g, KJIT_INT64, 1, &four, &d) == KJIT_OK &&
        kjit_array_create(g, KJIT_INT64, 1, &four, &h) == KJIT_OK, "tail arrays");
  check_tail(g, k, d, h, 4, 100);
  check_tail(g, k, d, h, 2097153, ((int64_t)1 << 31) + 1024);
  check_tail(g, k, d, h, 4, 100);
}

/* Device arrays.  Without a GPU (and on a cpu context) creating one is a
 * clear NO_DEVICE; with one, arrays stay on the device, launches are
 * queued, kjit_synchronize and copies bring the results back. */
static void test_device_arrays(void) {
  int64_t n = 1000;
  kjit_array *d = NULL, *h = new_array(KJIT_FLOAT32, 1000);
  kjit_status st = kjit_array_create_device(ctx, KJIT_FLOAT32, 1, &n, &d);
  EXPECT_ERROR(ctx, st, KJIT_ERROR_NO_DEVICE, "device arrays need the cuda target");
  CHECK(d == NULL, "no array on failure");
  CHECK(kjit_array_is_device(h) == 0 && kjit_array_is_device(NULL) == -1, "is_device");
  CHECK(kjit_synchronize(ctx) == KJIT_OK, "synchronize on the cpu target");
  kjit_array *h2 = new_array(KJIT_FLOAT32, 1000);
  ((float *)kjit_array_data(h))[7] = 7.5f;
  CHECK(kjit_array_copy(h2, h) == KJIT_OK && ((float *)kjit_array_data(h2))[7] == 7.5f,
        "host->host copy: %s", kjit_last_error(ctx));
  kjit_array *small = new_array(KJIT_FLOAT32, 10);
  EXPECT_ERROR(ctx, kjit_array_copy(small, h), KJIT_ERROR_INVALID_ARGUMENT, "differ in dtype or shape");
  /* repeat on the cpu target: still one result, a run time */
  kjit_array *y = new_array(KJIT_FLOAT32, 1000);
  kjit_launch_config c = config(4, 256);
  c.repeat = 3;
  kjit_arg args[3] = {kjit_arg_array(h), kjit_arg_array(h2), kjit_arg_array(y)};
  CHECK(kjit_launch(get_kernel("add"), &c, args, 3) == KJIT_OK &&
        ((float *)kjit_array_data(y))[7] == 15.0f, "repeat 3 on cpu: %s", kjit_last_error(ctx));
  kjit_array_destroy(small);

  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CUDA;
  kjit_context *g;
  kjit_program *gp;
  CHECK(kjit_context_create(&o, &g) == KJIT_OK, "cuda context");
  st = kjit_array_create_device(g, KJIT_FLOAT32, 1, &n, &d);
  if (st != KJIT_OK) {                          /* no GPU here: the rest skips */
    EXPECT_ERROR(g, st, KJIT_ERROR_NO_DEVICE, "cpu");
    printf("test_api_launch: no CUDA device; device-array launches skipped\n");
    kjit_context_destroy(g);
    return;
  }
  CHECK(kjit_array_is_device(d) == 1 && kjit_array_size(d) == 1000, "device array");
  CHECK(kjit_program_load_source(g, "launch_test.py", src, &gp) == KJIT_OK, "load");
  kjit_kernel *k;
  CHECK(kjit_program_kernel(gp, "add", &k) == KJIT_OK, "kernel");
  kjit_array *hx, *hy, *hout;
  int64_t shape[1] = {1000};
  kjit_array_create(g, KJIT_FLOAT32, 1, shape, &hx);
  kjit_array_create(g, KJIT_FLOAT32, 1, shape, &hy);
  kjit_array_create(g, KJIT_FLOAT32, 1, shape, &hout);
  for (int i = 0; i < 1000; i++)
    ((float *)kjit_array_data(hx))[i] = (float)i, ((float *)kjit_array_data(hy))[i] = 1.0f;
  kjit_array *dx, *dy;
  CHECK(kjit_array_to_device(g, hx, &dx) == KJIT_OK && kjit_array_to_device(g, hy, &dy) == KJIT_OK,
        "to_device: %s", kjit_last_error(g));
  kjit_arg dargs[3] = {kjit_arg_array(dx), kjit_arg_array(dy), kjit_arg_array(d)};
  c.repeat = 1;
  for (int r = 0; r < 100; r++)                 /* the first compiles, the rest: fast path */
    CHECK(kjit_launch(k, &c, dargs, 3) == KJIT_OK, "device launch %d: %s", r, kjit_last_error(g));
  CHECK(kjit_synchronize(g) == KJIT_OK, "synchronize: %s", kjit_last_error(g));
  CHECK(kjit_array_copy(hout, d) == KJIT_OK && ((float *)kjit_array_data(hout))[999] == 1000.0f,
        "device results: %s", kjit_last_error(g));
  EXPECT_ERROR(g, kjit_array_save_npy(d, "/tmp/never.npy"), KJIT_ERROR_INVALID_ARGUMENT, "device array");
  c.repeat = 5;
  c.use_graph = 1;
  double rm = 0;
  CHECK(kjit_launch(k, &c, dargs, 3) == KJIT_OK && kjit_last_timing(g, NULL, NULL, &rm) == KJIT_OK &&
        rm > 0, "graph of 5: %s", kjit_last_error(g));
  kjit_arg mixed[3] = {kjit_arg_array(hx), kjit_arg_array(dy), kjit_arg_array(hout)};
  c.repeat = 1;
  c.use_graph = 0;
  CHECK(kjit_launch(k, &c, mixed, 3) == KJIT_OK && ((float *)kjit_array_data(hout))[10] == 11.0f,
        "host + device arrays: %s", kjit_last_error(g));
  gpu_grid32_fast_path(g);
  kjit_context_destroy(g);                      /* frees the device arrays */
}

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  if (kjit_context_create(&o, &ctx) != KJIT_OK ||
      kjit_program_load_source(ctx, "launch_test.py", src, &prog) != KJIT_OK) {
    fprintf(stderr, "setup failed: %s\n", ctx ? kjit_last_error(ctx) : "no context");
    return 1;
  }
  test_dtypes();
  test_arrays();
  test_npy_round_trip();
  test_vector_add();
  test_wrap_no_copy();
  test_strided_wrap();
  test_shared_memory();
  test_misuse();
  test_cooperative();
  test_targets();
  test_device_arrays();
  kjit_context_destroy(ctx);
  printf("test_api_launch: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
