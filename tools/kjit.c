/* kjit.c - the `kjit` command-line tool.
 *
 * A client of the public API like any other: it includes only <kjit.h>.
 * Commands: ptx (compile to KIR / LLVM IR / PTX), check, version, help.
 * Exit status: 0 success, 1 errors in the kernel file (diagnostics on
 * stderr), 2 bad command line.  Output files are written to a temporary
 * file and renamed, so a failed compile never leaves a partial file. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kjit.h"

enum { EXIT_OK = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2 };

/* --------------------------------------------------------------- help --- */

static const char main_help[] =
    "usage: kjit COMMAND [ARGS...]\n"
    "\n"
    "Compile Numba-style CUDA kernels (Python files using @cuda.jit) without Python.\n"
    "\n"
    "commands:\n"
    "  ptx FILE.py[:KERNEL]  compile kernels to PTX (or --emit kir|llvm)\n"
    "  check FILE.py         parse and type-check every eager signature\n"
    "  version               print the version\n"
    "  help [COMMAND]        show this help, or a command's\n"
    "\n"
    "Run 'kjit COMMAND --help' for a command's options.\n"
    "exit status: 0 success, 1 errors in the kernel file, 2 bad command line\n";

static const char ptx_help[] =
    "usage: kjit ptx FILE.py[:KERNEL] [options]\n"
    "\n"
    "Compile a kernel file.  With :KERNEL, compile that kernel (for each of its\n"
    "eager signatures, or for --sig); without, every kernel that has an eager\n"
    "signature (@cuda.jit(\"void(...)\")), all in one module.\n"
    "\n"
    "options:\n"
    "  --sig SIG            argument types, e.g. \"void(float32[::1], int64)\";\n"
    "                       required for a lazy kernel (plain @cuda.jit)\n"
    "  --arch sm_XX         GPU architecture, sm_50 .. sm_90a (default sm_80)\n"
    "  --emit kir|llvm|ptx  what to print: kjit IR, optimized LLVM IR, or PTX\n"
    "                       (default ptx)\n"
    "  -o FILE              write the output to FILE ('-' or none: stdout);\n"
    "                       FILE is only written when the compile succeeds\n"
    "  --opt N              optimization level 0..3 (default: the decorator's\n"
    "                       opt=, else 3)\n"
    "  --fastmath           fast-math float arithmetic (as fastmath=True)\n"
    "  --lineinfo           source line information in the PTX (as lineinfo=True)\n"
    "  --max-registers N    registers per thread, 1..255 (0 = no limit; default:\n"
    "                       the decorator's max_registers=)\n"
    "  -h, --help           show this help\n"
    "\n"
    "examples:\n"
    "  kjit ptx vector_add.py --arch sm_90 -o vector_add.ptx\n"
    "  kjit ptx saxpy.py:saxpy --sig \"void(float32, float32[:], float32[:])\"\n"
    "  kjit ptx vector_add.py:add_kernel --emit kir\n";

static const char check_help[] =
    "usage: kjit check FILE.py [options]\n"
    "\n"
    "Parse FILE.py and type-check every eager signature of every decorated\n"
    "function (kernels and device functions).  Prints the diagnostics and\n"
    "\"FILE.py: ok\" when there are none; exit status 1 when there are errors.\n"
    "\n"
    "options:\n"
    "  -h, --help   show this help\n";

static const char version_help[] =
    "usage: kjit version\n"
    "\n"
    "Print kjit's version.\n";

/* ------------------------------------------------------- command line --- */

typedef struct Cli {
  const char *cmd;        /* "ptx", "check", ... for messages */
  const char *help;
  int argc;
  char **argv;
  int i;                  /* next argument */
} Cli;

static int report_usage(const Cli *c, const char *fmt, const char *what) {
  fputs("kjit: error: ", stderr);
  fprintf(stderr, fmt, what, c->cmd);
  fprintf(stderr, "\nTry 'kjit %s --help'.\n", c->cmd);
  return EXIT_USAGE;
}

/* Matches "--name VALUE" and "--name=VALUE"; *err is set for a missing
 * value. */
static int take_value(Cli *c, const char *name, const char **value, int *err) {
  const char *a = c->argv[c->i];
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0)
    return 0;
  if (a[n] == '=') {
    *value = a + n + 1;
    c->i++;
    return 1;
  }
  if (a[n] != '\0')
    return 0;
  if (c->i + 1 >= c->argc) {
    *err = report_usage(c, "option '%s' of '%s' needs a value", name);
    return 1;
  }
  *value = c->argv[c->i + 1];
  c->i += 2;
  return 1;
}

static int parse_int(const Cli *c, const char *opt, const char *s, int lo, int hi,
                     int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi) {
    fprintf(stderr, "kjit: error: %s expects an integer from %d to %d, not '%s'\n"
                    "Try 'kjit %s --help'.\n", opt, lo, hi, s, c->cmd);
    return EXIT_USAGE;
  }
  *out = (int)v;
  return EXIT_OK;
}

static int is_help(const char *a) {
  return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0;
}

/* --------------------------------------------------------- reporting --- */

static void print_diagnostics(const kjit_context *ctx) {
  const char *d = kjit_last_diagnostics(ctx);
  fputs(d, stderr);
}

/* Library errors: the diagnostics, then the exit status for the status. */
static int report(const kjit_context *ctx, kjit_status st) {
  const char *e = kjit_last_error(ctx);
  if (*e)
    fputs(e, stderr);
  else
    fprintf(stderr, "kjit: error: %s\n", kjit_status_name(st));
  return st == KJIT_ERROR_INVALID_ARGUMENT ? EXIT_USAGE : EXIT_ERRORS;
}

/* ------------------------------------------------------------ output --- */

static int write_all(FILE *f, const char *text, size_t len) {
  return fwrite(text, 1, len, f) == len && fflush(f) == 0;
}

static int write_stream(FILE *f, const char *name, const char *text, size_t len) {
  if (write_all(f, text, len))
    return EXIT_OK;
  fprintf(stderr, "kjit: error: cannot write %s: %s\n", name, strerror(errno));
  return EXIT_ERRORS;
}

/* Something that is not a regular file (/dev/null, a FIFO) is written in
 * place: renaming over it would replace it. */
static int write_special(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "kjit: error: cannot open '%s': %s\n", path, strerror(errno));
    return EXIT_ERRORS;
  }
  int rc = write_stream(f, path, text, len);
  fclose(f);
  return rc;
}

/* Writes via a temporary file in the same directory and renames it, so the
 * destination is either the old file or the complete new one. */
static int write_output(const char *path, const char *text, size_t len) {
  if (!path || strcmp(path, "-") == 0)
    return write_stream(stdout, "standard output", text, len);
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return write_special(path, text, len);
  size_t n = strlen(path);
  char *tmp = malloc(n + 16);
  if (!tmp)
    return EXIT_ERRORS;
  snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    fprintf(stderr, "kjit: error: cannot create '%s': %s\n", path, strerror(errno));
    free(tmp);
    return EXIT_ERRORS;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  FILE *f = fdopen(fd, "wb");
  int ok = f && write_all(f, text, len);
  int err = errno;
  if (f ? fclose(f) != 0 : close(fd) != 0)
    ok = 0;
  if (ok && rename(tmp, path) != 0)
    ok = 0, err = errno;
  if (!ok) {
    fprintf(stderr, "kjit: error: cannot write '%s': %s\n", path, strerror(err));
    unlink(tmp);
  }
  free(tmp);
  return ok ? EXIT_OK : EXIT_ERRORS;
}

/* ---------------------------------------------------------- commands --- */

typedef struct PtxArgs {
  char *file;             /* FILE.py (KERNEL split off) */
  const char *kernel;     /* NULL: every kernel with eager signatures */
  const char *sig;
  const char *out;
  kjit_emit emit;
  kjit_compile_options opts;
} PtxArgs;

static int is_identifier(const char *s) {
  if (!*s || (*s >= '0' && *s <= '9'))
    return 0;
  for (; *s; s++)
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || (unsigned char)*s >= 0x80))
      return 0;
  return 1;
}

/* "file.py:kernel" -> file, kernel (only when the tail is an identifier). */
static void split_target(const char *arg, PtxArgs *a) {
  a->file = strdup(arg);
  char *colon = strrchr(a->file, ':');
  if (colon && colon != a->file && is_identifier(colon + 1)) {
    *colon = '\0';
    a->kernel = colon + 1;
  }
}

static int parse_emit(const Cli *c, const char *v, kjit_emit *out) {
  if (strcmp(v, "kir") == 0) *out = KJIT_EMIT_KIR;
  else if (strcmp(v, "llvm") == 0) *out = KJIT_EMIT_LLVM;
  else if (strcmp(v, "ptx") == 0) *out = KJIT_EMIT_PTX;
  else {
    fprintf(stderr, "kjit: error: unknown --emit value '%s' (expected kir, llvm or ptx)\n"
                    "Try 'kjit %s --help'.\n", v, c->cmd);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/* One option of `kjit ptx` at c->i; returns an exit status on error. */
static int parse_ptx_option(Cli *c, PtxArgs *a) {
  const char *v = NULL;
  int err = EXIT_OK;
  const char *arg = c->argv[c->i];
  if (take_value(c, "--sig", &a->sig, &err)) return err;
  if (take_value(c, "--arch", &a->opts.arch, &err)) return err;
  if (take_value(c, "-o", &a->out, &err)) return err;
  if (take_value(c, "--emit", &v, &err))
    return err ? err : parse_emit(c, v, &a->emit);
  if (take_value(c, "--opt", &v, &err))
    return err ? err : parse_int(c, "--opt", v, 0, 3, &a->opts.opt_level);
  if (take_value(c, "--max-registers", &v, &err))
    return err ? err : parse_int(c, "--max-registers", v, 0, 255, &a->opts.max_registers);
  if (strcmp(arg, "--fastmath") == 0) {
    a->opts.fastmath = 1;
  } else if (strcmp(arg, "--lineinfo") == 0) {
    a->opts.lineinfo = 1;
  } else if (arg[0] == '-' && arg[1] != '\0') {
    return report_usage(c, "unknown option '%s' for '%s'", arg);
  } else if (!a->file) {
    split_target(arg, a);
  } else {
    return report_usage(c, "unexpected argument '%s' for '%s'", arg);
  }
  c->i++;
  return EXIT_OK;
}

static int parse_ptx_args(Cli *c, PtxArgs *a) {
  kjit_compile_options_init(&a->opts);
  a->emit = KJIT_EMIT_PTX;
  while (c->i < c->argc) {
    int rc = parse_ptx_option(c, a);
    if (rc != EXIT_OK)
      return rc;
  }
  if (!a->file)
    return report_usage(c, "missing FILE.py%s for '%s'", "[:KERNEL]");
  return EXIT_OK;
}

static int cmd_ptx(Cli *c, kjit_context *ctx) {
  PtxArgs a = {0};
  int rc = parse_ptx_args(c, &a);
  if (rc != EXIT_OK) {
    free(a.file);
    return rc;
  }
  kjit_program *prog = NULL;
  char *text = NULL;
  size_t len = 0;
  kjit_status st = kjit_program_load_file(ctx, a.file, &prog);
  if (st == KJIT_OK)
    st = kjit_program_emit(prog, a.kernel, a.sig, &a.opts, a.emit, &text, &len);
  if (st != KJIT_OK) {
    rc = report(ctx, st);
  } else {
    print_diagnostics(ctx); /* warnings */
    rc = write_output(a.out, text, len);
  }
  kjit_free(text);
  kjit_program_destroy(prog);
  free(a.file);
  return rc;
}

static int cmd_check(Cli *c, kjit_context *ctx) {
  const char *file = NULL;
  for (; c->i < c->argc; c->i++) {
    const char *arg = c->argv[c->i];
    if (arg[0] == '-' && arg[1] != '\0')
      return report_usage(c, "unknown option '%s' for '%s'", arg);
    if (file)
      return report_usage(c, "unexpected argument '%s' for '%s'", arg);
    file = arg;
  }
  if (!file)
    return report_usage(c, "missing FILE.py%s for '%s'", "");
  kjit_program *prog = NULL;
  kjit_status st = kjit_program_load_file(ctx, file, &prog);
  if (st == KJIT_OK)
    st = kjit_program_check(prog);
  int rc;
  if (st != KJIT_OK) {
    rc = report(ctx, st);
  } else {
    print_diagnostics(ctx);
    printf("%s: ok\n", file);
    rc = EXIT_OK;
  }
  kjit_program_destroy(prog);
  return rc;
}

static int cmd_version(Cli *c, kjit_context *ctx) {
  (void)ctx;
  if (c->i < c->argc)
    return report_usage(c, "unexpected argument '%s' for '%s'", c->argv[c->i]);
  printf("kjit %s\n", kjit_version());
  return EXIT_OK;
}

typedef struct Command {
  const char *name;
  const char *help;
  int (*run)(Cli *c, kjit_context *ctx);
} Command;

static const Command commands[] = {
    {"ptx", ptx_help, cmd_ptx},
    {"check", check_help, cmd_check},
    {"version", version_help, cmd_version},
};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static const Command *find_command(const char *name) {
  for (int i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

static int has_help_flag(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0)
      return 0;
    if (is_help(argv[i]))
      return 1;
  }
  return 0;
}

static int cmd_help(const char *topic) {
  if (!topic) {
    fputs(main_help, stdout);
    return EXIT_OK;
  }
  const Command *cmd = find_command(topic);
  if (!cmd) {
    fprintf(stderr, "kjit: error: unknown command '%s'\nTry 'kjit --help'.\n", topic);
    return EXIT_USAGE;
  }
  fputs(cmd->help, stdout);
  return EXIT_OK;
}

static int run_command(const Command *cmd, int argc, char **argv) {
  Cli c = {cmd->name, cmd->help, argc, argv, 2};
  kjit_context *ctx = NULL;
  kjit_status st = kjit_context_create(NULL, &ctx);
  if (st != KJIT_OK) {
    fprintf(stderr, "kjit: error: cannot create a context: %s\n", kjit_status_name(st));
    return EXIT_ERRORS;
  }
  int rc = cmd->run(&c, ctx);
  kjit_context_destroy(ctx);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(main_help, stderr);
    return EXIT_USAGE;
  }
  const char *name = argv[1];
  if (is_help(name) || strcmp(name, "help") == 0)
    return cmd_help(argc > 2 && !is_help(name) ? argv[2] : NULL);
  if (strcmp(name, "--version") == 0)
    name = "version";
  const Command *cmd = find_command(name);
  if (!cmd) {
    fprintf(stderr, "kjit: error: unknown %s '%s'\nTry 'kjit --help'.\n",
            name[0] == '-' ? "option" : "command", name);
    return EXIT_USAGE;
  }
  if (has_help_flag(argc - 2, argv + 2)) {
    fputs(cmd->help, stdout);
    return EXIT_OK;
  }
  return run_command(cmd, argc, argv);
}
