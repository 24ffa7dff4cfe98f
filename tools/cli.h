/* cli.h - the command-line reading and reporting that the commands of the
 * `kjit` tool share (tools/kjit.c defines them; tools/kjit_compile.c's
 * ptx and check use them).  Exit statuses: 0 success, 1 errors (kernel
 * file, launch, I/O), 2 bad command line. */
#ifndef KJIT_TOOLS_CLI_H
#define KJIT_TOOLS_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "kjit.h"

enum { EXIT_OK = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2 };

/* One command's arguments as they are read. */
typedef struct Cli {
  const char *cmd;        /* "ptx", "check", ... for messages */
  int argc;
  char **argv;
  int i;                  /* next argument */
} Cli;

/* ------------------------------------------------------ option tables --- *
 * Each command lists its options once, in a CliOption table that both
 * kjit_cli_parse and kjit_cli_print_help read (tools/cli_option.c): an
 * option the parser knows always has its help line. */

typedef struct CliOption CliOption;

/* Stores an option's value (NULL for a flag) into the command's argument
 * struct `args`; returns an exit status (a usage error printed). */
typedef int (*CliSet)(Cli *c, const CliOption *o, void *args, const char *value);

/* How an option's value is written, besides "--name VALUE" and
 * "--name=VALUE". */
enum {
  CLI_SEPARATE = 0,       /* --name VALUE, --name=VALUE */
  CLI_JOINED,             /* also -IDIR (-I DIR as well) */
  CLI_EQ_ONLY,            /* only -std=STD */
  CLI_HELP,               /* -h, --help: kjit.c answers it before parsing */
};

/* One row: an option, or (name NULL) a heading line of the help. */
struct CliOption {
  const char *name;       /* "--grid", "-o"; NULL: `help` is a heading */
  const char *alias;      /* a short spelling ("-q"), or NULL */
  const char *metavar;    /* "X[,Y[,Z]]"; NULL: a flag, no value */
  int form;               /* CLI_SEPARATE, CLI_JOINED, ... */
  const char *help;       /* help text, lines separated by '\n' */
  CliSet set;             /* NULL: a flag sets the int at `field` to 1, a
                             value is stored as the const char * there */
  size_t field;           /* offsetof() the destination in args */
  int lo, hi;             /* range, for kjit_cli_set_int */
};

/* A command's help: head (usage, description), the table's rows, tail.
 * The table ends with a row of all zeros. */
typedef struct CliHelp {
  const char *head;
  const CliOption *options;
  const char *tail;
} CliHelp;

/* Every command's -h, --help row. */
#define CLI_HELP_ROW {.name = "--help", .alias = "-h", .form = CLI_HELP, .help = "show this help"}
/* `--path DIR` (repeatable), appended to the char * at field. */
#define CLI_PATH_ROW(Type, member)                                                        \
  {.name = "--path", .metavar = "DIR", .set = kjit_cli_set_path,                            \
   .field = offsetof(Type, member),                                                       \
   .help = "also search DIR for imported modules (repeatable;\n"                           \
           "after FILE.py's folder, before KJIT_PATH)"}

/* A command of the tool: its name, its help (and option table), its code. */
typedef struct CliCommand {
  const char *name;
  const CliHelp *help;
  int (*run)(Cli *c, kjit_context *ctx);
} CliCommand;

/* tools/cli_docs.c: the man page and the bash completion, made from the
 * commands' tables; colour on stderr.  kjit_cli_color_set takes auto,
 * always or never (NULL: auto: a terminal, NO_COLOR unset or empty, TERM
 * not dumb); kjit_cli_put_diag writes diagnostics text, coloured if so. */
void kjit_cli_print_man(FILE *f, const char *overview, const CliCommand *cmds, int n,
                        const char *version);
void kjit_cli_print_bash_completion(FILE *f, const CliCommand *cmds, int n);
int kjit_cli_color_set(const char *when);
void kjit_cli_put_diag(const char *text, FILE *f);

/* Handles a positional argument (not an option) of the command. */
typedef int (*CliPositional)(Cli *c, void *args, const char *arg);

/* Reads argv from c->i: options by the table (into args), the rest through
 * positional.  An argument is an option when it starts with '-', except
 * "-" and "-:KERNEL" (standard input) and a negative number (a value of
 * `kjit run`); "--" ends the options.  The first error's exit status. */
int kjit_cli_parse(Cli *c, const CliOption *opts, void *args, CliPositional positional);
/* The command's help, the options laid out in columns, to f. */
void kjit_cli_print_help(FILE *f, const CliHelp *h);

/* Setters for CliOption.set: an int from lo to hi; a --path folder
 * appended to the colon-separated char * (malloc'd). */
int kjit_cli_set_int(Cli *c, const CliOption *o, void *args, const char *value);
int kjit_cli_set_path(Cli *c, const CliOption *o, void *args, const char *value);

/* Prints "kjit: error: " fmt (with what, then the command's name) and the
 * "Try 'kjit CMD --help'." line; returns EXIT_USAGE. */
int kjit_cli_usage(const Cli *c, const char *fmt, const char *what);
/* An integer from lo to hi, or a usage error naming opt. */
int kjit_cli_parse_int(const Cli *c, const char *opt, const char *s, int lo, int hi, int *out);
int kjit_cli_is_help(const char *a);
/* The nearest of names[0..n) to name by the did-you-mean rule, or NULL. */
const char *kjit_cli_nearest(const char *name, const char *const *names, int n);
int kjit_cli_is_identifier(const char *s);

/* The context's diagnostics (warnings, notes) to stderr. */
void kjit_cli_print_diagnostics(const kjit_context *ctx);
/* After a library error's text: the command-line flag behind its hint
 * (--sig for E491, --target cpu for E060, ...). */
void kjit_cli_flag_hints(const char *err);
/* A library error: its message to stderr; the exit status for st. */
int kjit_cli_report(const kjit_context *ctx, kjit_status st);

/* "file.py:kernel" -> file (malloc'd) and kernel (set only when the tail
 * is a kernel name; "k.cu:scale<float>" too). */
void kjit_cli_split_target(const char *arg, char **file, const char **kernel);
/* --global NAME=VALUE: binds an array VALUE to the program's global. */
int kjit_cli_bind_global(kjit_context *ctx, kjit_program *prog, const char *name,
                         const char *value);

/* `kjit ptx` and `kjit check` (tools/kjit_compile.c), `kjit cache`
 * (tools/kjit_cache.c). */
extern const CliHelp kjit_ptx_help;
extern const CliHelp kjit_check_help;
extern const CliHelp kjit_cache_help;
int kjit_cli_ptx(Cli *c, kjit_context *ctx);
int kjit_cli_check(Cli *c, kjit_context *ctx);
int kjit_cli_cache(Cli *c, kjit_context *ctx);
/* `kjit aot` (tools/kjit_aot.c). */
extern const CliHelp kjit_aot_help;
int kjit_cli_aot(Cli *c, kjit_context *ctx);

#endif
