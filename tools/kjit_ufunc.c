/* kjit_ufunc.c - `kjit run FILE.py:NAME ARG...` when NAME is a @vectorize
 * function: no grid or block (kjit chooses the launch), one VALUE per input
 * as for kernels, an optional `out=VALUE` array to write into, and the
 * result printed as "out: SUMMARY" (written with -o out=PATH.npy).  Uses
 * only the public header. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_output.h"
#include "cli_run.h"
#include "kjitaux.h"

typedef struct UfuncJob {
  kjit_context *ctx;
  kjit_ufunc *u;
  int nin;
  const char *spec[64];     /* per input, then out: the VALUE text or NULL */
  kjit_arg vals[64];
  int nvals;                /* inputs given */
  kjit_array *result;
} UfuncJob;

static const char *param(const UfuncJob *j, int i) {
  const char *n = "?";
  kjit_ufunc_param_name(j->u, i, &n);
  return n;
}

static int usage(const UfuncJob *j, const char *fmt, const char *what) {
  fputs("kjit: error: ", stderr);
  fprintf(stderr, fmt, what);
  fputs(" (inputs: ", stderr);
  for (int i = 0; i < j->nin; i++)
    fprintf(stderr, "%s%s", i ? ", " : "", param(j, i));
  fputs("; and optionally out)\nTry 'kjit run --help'.\n", stderr);
  return EXIT_USAGE;
}

static int find_input(const UfuncJob *j, const char *name) {
  for (int i = 0; i < j->nin; i++)
    if (strcmp(param(j, i), name) == 0)
      return i;
  return strcmp(name, "out") == 0 ? j->nin : -1;
}

/* Positional ARGs bind in order, NAME=VALUE by name; `out` is the output. */
static int bind(UfuncJob *j, const RunArg *args, int nargs) {
  for (int i = 0; i < nargs; i++) {
    int p = args[i].name ? find_input(j, args[i].name) : i;
    if (p < 0)
      return usage(j, "'%s' is not an input of the @vectorize function", args[i].name);
    if (!args[i].name && p >= j->nin)
      return usage(j, "too many values (from '%s' on); pass the output array as out=VALUE",
                   args[i].value);
    if (j->spec[p])
      return usage(j, "'%s' is given twice", param(j, p));
    j->spec[p] = args[i].value;
  }
  for (int p = 0; p < j->nin; p++)
    if (!j->spec[p])
      return usage(j, "missing input '%s'", param(j, p));
  return EXIT_OK;
}

static int parse_values(UfuncJob *j) {
  for (int p = 0; p <= j->nin; p++) {
    if (!j->spec[p])
      continue;
    const char *what = p < j->nin ? param(j, p) : "out";
    kjit_status st = kjitaux_arg_parse(j->ctx, j->spec[p], what, &j->vals[p]);
    if (st != KJIT_OK) {
      fputs(kjit_last_error(j->ctx), stderr);
      return st == KJIT_ERROR_INVALID_ARGUMENT ? EXIT_USAGE : EXIT_ERRORS;
    }
    if (j->vals[p].kind == KJIT_ARG_TUPLE) {
      kjitaux_arg_free(&j->vals[p]);
      return usage(j, "'%s' is a tuple; @vectorize inputs are arrays or scalars", j->spec[p]);
    }
    if (p == j->nin && j->vals[p].kind != KJIT_ARG_ARRAY)
      return usage(j, "out must be an array, not '%s'", j->spec[p]);
  }
  return EXIT_OK;
}

static int check_outs(const UfuncJob *j, const RunArg *outs, int nouts) {
  for (int i = 0; i < nouts; i++) {
    if (strcmp(outs[i].name, "out") != 0)
      return usage(j, "-o names '%s'; a @vectorize function writes only 'out'", outs[i].name);
    if (kjit_cli_out_check(j->ctx, outs[i].value) != 0)
      return EXIT_ERRORS;
  }
  return EXIT_OK;
}

static int finish(UfuncJob *j, const RunArg *outs, int nouts, int time) {
  kjit_array *arrs[64];
  const char *paths[64];
  int n = 0;
  for (int i = 0; i < nouts && n < 64; i++, n++)
    arrs[n] = j->result, paths[n] = outs[i].value;
  if (kjit_cli_save_arrays(j->ctx, arrs, paths, n, kjit_cli_watchdog_stop) != 0)
    return EXIT_ERRORS;
  char *s;
  if (kjitaux_array_summary(j->result, &s) != KJIT_OK) {
    fputs(kjit_last_error(j->ctx), stderr);
    return EXIT_ERRORS;
  }
  printf("out: %s\n", s);
  kjit_free(s);
  double compile_ms, copy_ms, run_ms;
  kjit_last_timing(j->ctx, &compile_ms, &copy_ms, &run_ms);
  if (time)
    printf("time: compile %.3f ms, copy %.3f ms, kernel %.3f ms\n", compile_ms, copy_ms, run_ms);
  return EXIT_OK;
}

int kjit_cli_run_ufunc(kjit_context *ctx, kjit_ufunc *u, const RunArg *args, int nargs,
                       const RunArg *outs, int nouts, int time) {
  UfuncJob j = {.ctx = ctx, .u = u};
  kjit_ufunc_param_count(u, &j.nin);
  if (j.nin >= 63 || nargs > 63)
    return usage(&j, "too many arguments%s", "");
  int rc = check_outs(&j, outs, nouts);
  if (rc == EXIT_OK) rc = bind(&j, args, nargs);
  if (rc == EXIT_OK) rc = parse_values(&j);
  if (rc != EXIT_OK)
    return rc;
  kjit_array *out = j.spec[j.nin] ? j.vals[j.nin].value.array : NULL;
  kjit_cli_watchdog_launching();
  kjit_status st = kjit_ufunc_call(u, j.vals, j.nin, out, &j.result);
  if (st != KJIT_OK) {
    fputs(kjit_last_error(ctx), stderr);
    return st == KJIT_ERROR_INVALID_ARGUMENT ? EXIT_USAGE : EXIT_ERRORS;
  }
  return finish(&j, outs, nouts, time);
}
