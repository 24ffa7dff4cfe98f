/* cli.h - the command-line reading and reporting that the commands of the
 * `kjit` tool share (tools/kjit.c defines them; tools/kjit_compile.c's
 * ptx and check use them).  Exit statuses: 0 success, 1 errors (kernel
 * file, launch, I/O), 2 bad command line. */
#ifndef KJIT_TOOLS_CLI_H
#define KJIT_TOOLS_CLI_H

#include "kjit.h"

enum { EXIT_OK = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2 };

/* One command's arguments as they are read. */
typedef struct Cli {
  const char *cmd;        /* "ptx", "check", ... for messages */
  const char *help;
  int argc;
  char **argv;
  int i;                  /* next argument */
} Cli;

/* Prints "kjit: error: " fmt (with what, then the command's name) and the
 * "Try 'kjit CMD --help'." line; returns EXIT_USAGE. */
int kjit_cli_usage(const Cli *c, const char *fmt, const char *what);
/* Matches "--name VALUE" and "--name=VALUE" at c->i (advancing past it);
 * *err is set for a missing value.  0 when argv[c->i] is another option. */
int kjit_cli_take_value(Cli *c, const char *name, const char **value, int *err);
/* `--path DIR` (repeatable), appended to the colon-separated *acc
 * (malloc'd). */
int kjit_cli_take_path(Cli *c, char **acc, int *err);
/* An integer from lo to hi, or a usage error naming opt. */
int kjit_cli_parse_int(const Cli *c, const char *opt, const char *s, int lo, int hi, int *out);
int kjit_cli_is_help(const char *a);
int kjit_cli_is_identifier(const char *s);

/* The context's diagnostics (warnings, notes) to stderr. */
void kjit_cli_print_diagnostics(const kjit_context *ctx);
/* A library error: its message to stderr; the exit status for st. */
int kjit_cli_report(const kjit_context *ctx, kjit_status st);

/* "file.py:kernel" -> file (malloc'd) and kernel (set only when the tail
 * is a kernel name; "k.cu:scale<float>" too). */
void kjit_cli_split_target(const char *arg, char **file, const char **kernel);
/* --global NAME=VALUE: binds an array VALUE to the program's global. */
int kjit_cli_bind_global(kjit_context *ctx, kjit_program *prog, const char *name,
                         const char *value);

/* `kjit ptx` and `kjit check` (tools/kjit_compile.c). */
extern const char kjit_ptx_help[];
extern const char kjit_check_help[];
int kjit_cli_ptx(Cli *c, kjit_context *ctx);
int kjit_cli_check(Cli *c, kjit_context *ctx);

#endif
