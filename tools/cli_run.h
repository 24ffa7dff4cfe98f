/* cli_run.h - what `kjit run` (tools/kjit.c) hands to its helpers in other
 * files of the tool: the ARGs and -o outputs as parsed, nothing more. */
#ifndef KJIT_TOOLS_CLI_RUN_H
#define KJIT_TOOLS_CLI_RUN_H

#include "kjit.h"

/* One ARG of `kjit run`: NAME=VALUE, or VALUE alone (name NULL); also one
 * -o NAME=PATH. */
typedef struct RunArg {
  const char *name;
  const char *value;
} RunArg;

/* `kjit run FILE.py:NAME` for a @vectorize function (tools/kjit_ufunc.c):
 * binds args to the inputs (and `out`), calls it, prints "out: SUMMARY",
 * writes -o out=PATH.npy.  Returns the exit status. */
int kjit_cli_run_ufunc(kjit_context *ctx, kjit_ufunc *u, const RunArg *args, int nargs,
                       const RunArg *outs, int nouts, int time);

#endif
