/* test_dispatch_api.c - Numba's choice among eager signatures through the
 * public API on the CPU target (language.md, "Several eager signatures"):
 * kjit_launch with typed scalars, a tie reported as KJIT_ERROR_TYPE naming
 * both signatures, arrays the command line cannot make (a Fortran-ordered
 * one, which Numba types F: only safe to a [:] parameter; a strided one,
 * exact for [:]), a float refused for an integer parameter, and kjit_call
 * of an eager device function.  Each kernel
 * stores x % 10, so 2**53 + 1 gives 3 as int64 and 2 as float64.  Uses only
 * the public header; prints each failure, exit 1 if any. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kjit.h"

#include "check.h"

static const char src[] =
    "from numba import cuda\n"
    "\n"
    "@cuda.jit([\"void(float64[::1], float64)\", \"void(float64[::1], int64)\"])\n"
    "def fi(out, x):\n"
    "    out[0] = x % 10\n"
    "\n"
    "@cuda.jit([\"void(float64[:, :], float64[::1], float64)\",\n"
    "           \"void(float64[:, :], float64[:], int64)\"])\n"
    "def mix(m, v, x):\n"
    "    m[0, 0] = x % 10\n"
    "\n"
    "@cuda.jit([\"void(float64[:, :], float64[::1], int32)\",\n"
    "           \"void(float64[:, :], float64[:], int64)\"])\n"
    "def fw(m, v, x):\n"
    "    m[0, 0] = x\n"
    "\n"
    "@cuda.jit(\"void(float64[::1], int32)\")\n"
    "def ione(out, n):\n"
    "    out[0] = n\n"
    "\n"
    "@cuda.jit([\"float64(float64)\", \"int64(int64)\"], device=True)\n"
    "def mod10(x):\n"
    "    return x % 10\n";

static kjit_context *ctx;
static kjit_program *prog;
static const int64_t big = (INT64_C(1) << 53) + 1; /* odd: lost as a float64 */

static kjit_status launch(const char *name, const kjit_arg *args, int n) {
  kjit_kernel *k = NULL;
  kjit_launch_config c;
  kjit_launch_config_init(&c);
  if (kjit_program_kernel(prog, name, &k) != KJIT_OK)
    return KJIT_ERROR_NOT_FOUND;
  return kjit_launch(k, &c, args, n);
}

/* Scalars: int64 exact for int64; int32 promotes to int64 (safe to
 * float64); bool converts safely to both: an error naming both. */
static void test_scalars(void) {
  double out[1] = {0};
  int64_t n = 1;
  kjit_array *a = NULL;
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT64, 1, &n, NULL, out, &a) == KJIT_OK, "wrap");
  kjit_arg args[2] = {kjit_arg_array(a), kjit_arg_i64(big)};
  CHECK(launch("fi", args, 2) == KJIT_OK && out[0] == 3, "int64: %g %s", out[0], kjit_last_error(ctx));
  int32_t i32 = 13;
  args[1] = kjit_arg_scalar(KJIT_INT32, &i32);
  CHECK(launch("fi", args, 2) == KJIT_OK && out[0] == 3, "int32: %g", out[0]);
  args[1] = kjit_arg_f64(2.5);
  CHECK(launch("fi", args, 2) == KJIT_OK && out[0] == 2.5, "float64: %g", out[0]);
  unsigned char t = 1;
  args[1] = kjit_arg_scalar(KJIT_BOOL, &t);
  kjit_status st = launch("fi", args, 2);
  CHECK(st == KJIT_ERROR_TYPE && strstr(kjit_last_error(ctx), "equally well") &&
            strstr(kjit_last_error(ctx), "(float64[::1], int64)"),
        "bool: %s %s", kjit_status_name(st), kjit_last_error(ctx));
  kjit_array_destroy(a);
}

/* m strided (every other column): exact for [:, :], so the first pass
 * finds the float64 signature (v exact, int64 -> float64 safe).  m
 * Fortran-ordered: exact for nothing, so both signatures are rated with
 * every conversion and tie (two safe each): an error, as in Numba. */
static void test_layouts(void) {
  static double m[3 * 8], v[4];
  int64_t shape[2] = {3, 4}, n = 4;
  int64_t strided[2] = {8 * 8, 2 * 8}, fortran[2] = {8, 3 * 8};
  kjit_array *ms = NULL, *mf = NULL, *va = NULL;
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT64, 2, shape, strided, m, &ms) == KJIT_OK, "wrap");
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT64, 2, shape, fortran, m, &mf) == KJIT_OK, "wrap");
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT64, 1, &n, NULL, v, &va) == KJIT_OK, "wrap");
  kjit_arg args[3] = {kjit_arg_array(ms), kjit_arg_array(va), kjit_arg_i64(big)};
  CHECK(launch("mix", args, 3) == KJIT_OK && m[0] == 2, "strided: %g %s", m[0], kjit_last_error(ctx));
  args[0] = kjit_arg_array(mf);
  kjit_status st = launch("mix", args, 3);
  CHECK(st == KJIT_ERROR_TYPE && strstr(kjit_last_error(ctx), "equally well"), "fortran: %s %s",
        kjit_status_name(st), kjit_last_error(ctx));
  /* fw: strided m runs int32 (first pass: the only exact layouts), a
   * Fortran-ordered m int64 (second pass: (0 unsafe, 2 safe) beats (1, 1)) */
  args[0] = kjit_arg_array(ms);
  args[2] = kjit_arg_i64(INT64_C(2147483653));
  CHECK(launch("fw", args, 3) == KJIT_OK && m[0] == -2147483643.0, "fw strided: %g %s", m[0],
        kjit_last_error(ctx));
  args[0] = kjit_arg_array(mf);
  CHECK(launch("fw", args, 3) == KJIT_OK && m[0] == 2147483653.0, "fw fortran: %g %s", m[0],
        kjit_last_error(ctx));
  kjit_array_destroy(ms);
  kjit_array_destroy(mf);
  kjit_array_destroy(va);
}

/* A float for an integer parameter: refused, as Numba's launch refuses it
 * (ctypes); a bool is passed as 1, as Python's True is. */
static void test_marshal(void) {
  double out[1] = {0};
  int64_t n = 1;
  kjit_array *a = NULL;
  CHECK(kjit_array_wrap(ctx, KJIT_FLOAT64, 1, &n, NULL, out, &a) == KJIT_OK, "wrap");
  kjit_arg args[2] = {kjit_arg_array(a), kjit_arg_f64(2.5)};
  kjit_status st = launch("ione", args, 2);
  CHECK(st == KJIT_ERROR_TYPE && strstr(kjit_last_error(ctx), "a float64 value for the int32"),
        "float: %s %s", kjit_status_name(st), kjit_last_error(ctx));
  unsigned char t = 1;
  args[1] = kjit_arg_scalar(KJIT_BOOL, &t);
  CHECK(launch("ione", args, 2) == KJIT_OK && out[0] == 1, "bool: %g %s", out[0], kjit_last_error(ctx));
  kjit_array_destroy(a);
}

/* kjit_call: the launch rule picks int64(int64) for an int32. */
static void test_call(void) {
  int32_t i32 = 2147483647;
  kjit_arg arg = kjit_arg_scalar(KJIT_INT32, &i32);
  kjit_value r;
  kjit_function *mod10;
  kjit_status st = kjit_program_function(prog, "mod10", &mod10);
  if (st == KJIT_OK)
    st = kjit_call(mod10, &arg, 1, &r);
  CHECK(st == KJIT_OK && r.dtype == KJIT_INT64 && r.value.i64 == 7, "call: %s %s",
        kjit_status_name(st), kjit_last_error(ctx));
}

int main(void) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  if (kjit_context_create(&o, &ctx) != KJIT_OK ||
      kjit_program_load_source(ctx, "dispatch_test.py", src, &prog) != KJIT_OK) {
    fprintf(stderr, "setup failed: %s\n", ctx ? kjit_last_error(ctx) : "no context");
    return 1;
  }
  test_scalars();
  test_layouts();
  test_marshal();
  test_call();
  kjit_context_destroy(ctx);
  printf("test_dispatch_api: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
