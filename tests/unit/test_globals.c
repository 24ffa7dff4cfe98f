/* test_globals.c - kjit_program_set_global on the CPU target: a NumPy
 * array global frozen at bind time (a strided source packed in C order,
 * later changes to the source not seen, rebinding seen only by new
 * specializations), a device array global captured by reference (kernel
 * writes land in the caller's array), the unbound error, and every misuse
 * the API promises to refuse.  Uses only the public header. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kjit.h"

#include "check.h"

static const char src[] =
    "import numpy as np\n"
    "from numba import cuda\n"
    "\n"
    "N = 4\n"
    "W = np.random.rand(2, 3)\n"
    "ACC = cuda.device_array(N, np.int32)\n"
    "C = cuda.to_device(np.arange(N))\n"
    "\n"
    "@cuda.jit\n"
    "def read_c(out):\n"
    "    i = cuda.grid(1)\n"
    "    out[i] = C[i]\n"
    "\n"
    "@cuda.jit\n"
    "def inc_c(k):\n"
    "    i = cuda.grid(1)\n"
    "    C[i] += k\n"
    "\n"
    "@cuda.jit\n"
    "def read_w(out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = W[i // 3, i % 3]\n"
    "\n"
    "@cuda.jit\n"
    "def bump(k):\n"
    "    i = cuda.grid(1)\n"
    "    if i < ACC.size:\n"
    "        ACC[i] += k * i\n";

static kjit_context *ctx;
static kjit_program *prog;

static void launch(const char *name, kjit_arg arg, int threads) {
  kjit_kernel *k = NULL;
  kjit_launch_config c;
  kjit_launch_config_init(&c);
  c.block[0] = (uint32_t)threads;
  kjit_status st = kjit_program_kernel(prog, name, &k);
  if (st == KJIT_OK)
    st = kjit_launch(k, &c, &arg, 1);
  CHECK(st == KJIT_OK, "%s: %s", name, kjit_last_error(ctx));
}

/* W bound to the Fortran-ordered view of 0..5 (element [r][c] = r + 2c):
 * the kernel sees it packed in C order, frozen at bind time. */
static void test_frozen(void) {
  double f[6] = {0, 1, 2, 3, 4, 5};
  int64_t shape[2] = {2, 3}, strides[2] = {8, 16}, n = 6;
  kjit_array *w = NULL, *out = NULL;
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT64, 2, shape, strides, f, &w) == KJIT_OK, "wrap");
  CHECK(kjit_array_create(ctx, KJIT_FLOAT64, 1, &n, &out) == KJIT_OK, "out");
  CHECK(kjit_program_set_global(prog, "W", w) == KJIT_OK, "bind W: %s", kjit_last_error(ctx));
  f[0] = 100; /* after the bind: not seen */
  launch("read_w", kjit_arg_array(out), 6);
  const double *o = kjit_array_data(out), want[6] = {0, 2, 4, 1, 3, 5};
  for (int i = 0; i < 6; i++)
    CHECK(o[i] == want[i], "out[%d] = %g, want %g", i, o[i], want[i]);
  kjit_array_destroy(w);
  kjit_array_destroy(out);
}

/* ACC bound to caller memory: the kernel's writes land in it. */
static void test_by_reference(void) {
  int32_t acc[4] = {10, 20, 30, 40};
  int64_t n = 4;
  kjit_array *a = NULL;
  CHECK(kjit_array_wrap(ctx, KJIT_INT32, 1, &n, NULL, acc, &a) == KJIT_OK, "wrap");
  CHECK(kjit_program_set_global(prog, "ACC", a) == KJIT_OK, "bind ACC: %s", kjit_last_error(ctx));
  launch("bump", kjit_arg_i64(2), 4);
  launch("bump", kjit_arg_i64(1), 4);
  CHECK(acc[0] == 10 && acc[1] == 23 && acc[2] == 36 && acc[3] == 49,
        "acc = %d %d %d %d", acc[0], acc[1], acc[2], acc[3]);
  kjit_array_destroy(a);
}

static void expect(kjit_status st, kjit_status want, const char *text, int line);

/* C = cuda.to_device(np.arange(N)): the folded constant while unbound
 * (read-only: a store does not compile), the host's array once bound. */
static void test_device_constant(void) {
  int64_t n = 4, c[4] = {10, 20, 30, 40};
  kjit_array *out = NULL, *a = NULL;
  CHECK(kjit_array_create(ctx, KJIT_INT64, 1, &n, &out) == KJIT_OK, "out");
  launch("read_c", kjit_arg_array(out), 4);
  const int64_t *o = kjit_array_data(out);
  CHECK(o[0] == 0 && o[3] == 3, "frozen: %lld %lld", (long long)o[0], (long long)o[3]);
  kjit_kernel *k = NULL;
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.block[0] = 4;
  kjit_arg one = kjit_arg_i64(1);
  kjit_program_kernel(prog, "inc_c", &k);
  expect(kjit_launch(k, &cfg, &one, 1), KJIT_ERROR_TYPE, "readonly", __LINE__);
  CHECK(kjit_array_wrap(ctx, KJIT_INT64, 1, &n, NULL, c, &a) == KJIT_OK, "wrap");
  CHECK(kjit_program_set_global(prog, "C", a) == KJIT_OK, "bind C: %s", kjit_last_error(ctx));
  launch("inc_c", kjit_arg_i64(2), 4);
  CHECK(c[0] == 12 && c[3] == 42, "by reference: %lld %lld", (long long)c[0], (long long)c[3]);
  kjit_array_destroy(a);
  kjit_array_destroy(out);
}

static void expect(kjit_status st, kjit_status want, const char *text, int line) {
  checks++;
  if (st != want || !strstr(kjit_last_error(ctx), text)) {
    failures++;
    fprintf(stderr, "line %d: got %s, want %s with \"%s\":\n%s\n", line, kjit_status_name(st),
            kjit_status_name(want), text, kjit_last_error(ctx));
  }
}

static void test_misuse(void) {
  int64_t n = 4;
  kjit_array *a = NULL, *h = NULL, *other = NULL;
  kjit_array_create(ctx, KJIT_FLOAT16, 1, &n, &h);
  kjit_array_create(ctx, KJIT_FLOAT64, 1, &n, &a);
  expect(kjit_program_set_global(prog, "N", a), KJIT_ERROR_NOT_FOUND, "compile-time constant",
         __LINE__);
  expect(kjit_program_set_global(prog, "nope", a), KJIT_ERROR_NOT_FOUND,
         "not a global of 'globals_test.py'", __LINE__);
  expect(kjit_program_set_global(prog, "W", h), KJIT_ERROR_INVALID_ARGUMENT, "float16",
         __LINE__);
  CHECK(kjit_program_set_global(prog, "W", NULL) == KJIT_ERROR_INVALID_ARGUMENT, "NULL array");
  CHECK(kjit_program_set_global(NULL, "W", a) == KJIT_ERROR_INVALID_ARGUMENT, "NULL program");
  int64_t big = 8193;
  kjit_array_create(ctx, KJIT_FLOAT64, 1, &big, &other);
  expect(kjit_program_set_global(prog, "W", other), KJIT_ERROR_INVALID_ARGUMENT,
         "at most 65536 bytes", __LINE__);
  kjit_array_destroy(a);
  expect(kjit_program_set_global(prog, "W", a), KJIT_ERROR_INVALID_ARGUMENT, "destroyed",
         __LINE__);
  kjit_array_destroy(h);
  kjit_array_destroy(other);
}

/* A fresh program: a launch before any bind names the global and the call. */
static void test_unbound(void) {
  kjit_program *p = NULL;
  kjit_kernel *k = NULL;
  CHECK(kjit_program_load_source(ctx, "globals_test.py", src, &p) == KJIT_OK, "load");
  CHECK(kjit_program_kernel(p, "bump", &k) == KJIT_OK, "kernel");
  kjit_launch_config c;
  kjit_launch_config_init(&c);
  kjit_arg arg = kjit_arg_i64(1);
  expect(kjit_launch(k, &c, &arg, 1), KJIT_ERROR_TYPE,
         "kjit_program_set_global(prog, \"ACC\", array)", __LINE__);
  kjit_program_destroy(p);
}

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  if (kjit_context_create(&o, &ctx) != KJIT_OK ||
      kjit_program_load_source(ctx, "globals_test.py", src, &prog) != KJIT_OK) {
    fprintf(stderr, "setup failed: %s\n", ctx ? kjit_last_error(ctx) : "no context");
    return 1;
  }
  test_frozen();
  test_by_reference();
  test_misuse();
  test_device_constant();
  test_unbound();
  kjit_context_destroy(ctx);
  printf("test_globals: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
