/* kjit_reduce.c - `kjit run FILE.py:F ARRAY [init=V]` where F is a
 * @cuda.reduce function: reduce the array and print the value.
 *
 * Part of the `kjit` tool (tools/kjit.c hands a run over to this file when
 * the name is a reduction) and, like it, a client of the public API only.
 * The value is printed as "result: DTYPE VALUE", floats in the shortest
 * form that reads back to the same value. */
#include <stdio.h>
#include <string.h>

#include "kjit.h"
#include "kjitaux.h"
#include "cli_output.h"

int kjit_cli_reduce(kjit_context *ctx, kjit_reduction *r, const char *fname, int nargs,
                    const char *const *names, const char *const *values, int time);

enum { OK = 0, ERRORS = 1, USAGE = 2 };

static int usage(const char *fmt, const char *a, const char *b) {
  fputs("kjit: error: ", stderr);
  fprintf(stderr, fmt, a, b);
  fputs("\nTry 'kjit run --help'.\n", stderr);
  return USAGE;
}

/* The array is the first value not named init=; init the one named so, or
 * the second positional value. */
static int pick(const char *f, int n, const char *const *names, const char *const *values,
                const char **array, const char **init) {
  *array = *init = NULL;
  for (int i = 0; i < n; i++) {
    const char **slot = names[i] && strcmp(names[i], "init") == 0 ? init : !*array ? array : init;
    if (*slot)
      return usage("too many arguments for reduction '%s'%s (it takes an array and init=V)", f, "");
    *slot = values[i];
  }
  if (!*array)
    return usage("reduction '%s' needs an array to reduce%s (e.g. x=arange:float32:1000)", f, "");
  return OK;
}

static void print_float(const char *dt, double v, int max_digits, int is_f32) {
  char buf[64];
  if (v == (double)(long long)v && v > -1e15 && v < 1e15) { /* whole numbers in full */
    printf("result: %s %.0f\n", dt, v);
    return;
  }
  for (int prec = 1; prec <= max_digits; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    double back;
    sscanf(buf, "%lf", &back);
    if (is_f32 ? (float)back == (float)v : back == v)
      break;
  }
  printf("result: %s %s\n", dt, buf);
}

static void print_value(const kjit_value *v) {
  const char *dt = kjit_dtype_name(v->dtype);
  switch (v->dtype) {
  case KJIT_FLOAT32: print_float(dt, v->value.f32, 9, 1); break;
  case KJIT_FLOAT64: print_float(dt, v->value.f64, 17, 0); break;
  case KJIT_UINT8: case KJIT_UINT16: case KJIT_UINT32: case KJIT_UINT64:
    printf("result: %s %llu\n", dt, (unsigned long long)v->value.u64);
    break;
  default: printf("result: %s %lld\n", dt, (long long)v->value.i64); break;
  }
}

static int parse(kjit_context *ctx, const char *spec, const char *what, kjit_arg *out) {
  kjit_status st = kjitaux_arg_parse(ctx, spec, what, out);
  if (st == KJIT_OK && out->kind == KJIT_ARG_TUPLE) {
    kjitaux_arg_free(out);
    fprintf(stderr, "kjit: error: argument '%s': a reduction takes an array and a scalar, not a tuple\n",
            what ? what : spec);
    return USAGE;
  }
  if (st == KJIT_OK)
    return OK;
  fputs(kjit_last_error(ctx), stderr);
  if (st != KJIT_ERROR_INVALID_ARGUMENT)
    return ERRORS;
  fputs("Try 'kjit run --help'.\n", stderr);
  return USAGE;
}

int kjit_cli_reduce(kjit_context *ctx, kjit_reduction *r, const char *f, int nargs,
                    const char *const *names, const char *const *values, int time) {
  const char *array_spec, *init_spec;
  int rc = pick(f, nargs, names, values, &array_spec, &init_spec);
  kjit_arg a = {0}, init = {0};
  if (rc == OK)
    rc = parse(ctx, array_spec, "array", &a);
  if (rc == OK && a.kind != KJIT_ARG_ARRAY)
    rc = usage("reduction '%s' reduces an array, not the scalar '%s'", f, array_spec);
  if (rc == OK && init_spec)
    rc = parse(ctx, init_spec, "init", &init);
  kjit_value v;
  kjit_cli_watchdog_launching();
  if (rc == OK && kjit_reduce(r, a.value.array, init_spec ? &init : NULL, &v) != KJIT_OK) {
    fputs(kjit_last_error(ctx), stderr);
    rc = ERRORS;
  }
  if (rc == OK)
    print_value(&v);
  double compile_ms, copy_ms, run_ms;
  if (rc == OK && time && kjit_last_timing(ctx, &compile_ms, &copy_ms, &run_ms) == KJIT_OK)
    printf("time: last launch: compile %.3f ms, copy %.3f ms, kernel %.3f ms\n", compile_ms,
           copy_ms, run_ms);
  if (init_spec && init.kind == KJIT_ARG_ARRAY)
    kjit_array_destroy(init.value.array);
  if (a.kind == KJIT_ARG_ARRAY)
    kjit_array_destroy(a.value.array);
  return rc;
}
