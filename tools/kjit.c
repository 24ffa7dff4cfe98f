/* kjit.c - the `kjit` command-line tool.
 *
 * A client of the public API like any other: it includes only <kjit.h>.
 * Commands: run (launch a kernel on .npy or generated arrays), info,
 * version, help, and the dispatch to ptx and check (tools/kjit_compile.c)
 * and cache (tools/kjit_cache.c); the shared option readers are declared in
 * tools/cli.h.
 * Exit status: 0 success, 1 errors in the kernel file, the launch or I/O
 * (diagnostics on stderr), 2 bad command line.  Output files are written to a temporary
 * file and renamed, so a failed compile never leaves a partial file. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_output.h"
#include "cli_run.h"
#include "kjit.h"
#include "kjitaux.h"


/* --------------------------------------------------------------- help --- */

static const char main_help[] =
    "usage: kjit COMMAND [ARGS...]\n"
    "\n"
    "Compile Numba-style CUDA kernels (Python files using @cuda.jit) without Python.\n"
    "\n"
    "commands:\n"
    "  run FILE.py:KERNEL    run a kernel on arrays (.npy files or generated)\n"
    "  tune FILE.py:KERNEL   time its launch configurations, store the fastest\n"
    "                        (kjit run --block tuned uses it)\n"
    "  ptx FILE.py[:KERNEL]... compile kernels to PTX (or --emit kir|llvm)\n"
    "  aot FILE.py[:KERNEL]... -o DIR  kernels ahead of time: a C library with\n"
    "                        typed launchers, cubins and CPU code (no libkjit)\n"
    "  check FILE.py...      parse and type-check every eager signature\n"
    "                        (FILE.cu: CUDA C kernels, compiled by NVRTC)\n"
    "  cache ACTION          the disk cache: stats, clear, prune\n"
    "  info                  kjit, LLVM, CUDA driver, devices, cache location\n"
    "  version               print the version (also --version, -V)\n"
    "  help [COMMAND]        show this help, or a command's (--man: the man\n"
    "                        page, --bash-completion: the completion script)\n"
    "\n"
    "--color[=auto|always|never] colours diagnostics (auto: on a terminal,\n"
    "unless NO_COLOR is set); any command takes it.\n"
    "\n"
    "Run 'kjit COMMAND --help' for a command's options.\n"
    "exit status: 0 success, 1 errors (kernel file, launch, I/O), 2 bad command line,\n"
    "  3 a run stopped by --timeout\n";

static const char run_help_head[] =
    "usage: kjit run FILE.py:KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [options] ARG...\n"
    "\n"
    "Run a kernel: compile it for the argument types, launch it over the grid,\n"
    "then print one summary line per array argument (dtype, shape, first and\n"
    "last values, sum, CRC-32 of the bytes).\n"
    "\n"
    "FILE '-' reads the kernel file from standard input: kjit run -:KERNEL ...\n"
    "\n"
    "arguments (one per kernel parameter):\n"
    "  NAME=VALUE or VALUE   VALUE alone binds in parameter order; positional\n"
    "                        ARGs come before NAME=VALUE ones\n"
    "values:\n"
    "  PATH.npy                          a NumPy array file\n"
    "  zeros:DTYPE:SHAPE                 zero-filled array\n"
    "  full:DTYPE:SHAPE:V                every element V\n"
    "  arange:DTYPE:SHAPE                0, 1, 2, ... in C order\n"
    "  rand:DTYPE:SHAPE[:SEED]           uniform [0,1) (ints: 0..99), seed 0\n"
    "  randint:DTYPE:SHAPE:LO:HI[:SEED]  integers LO <= v < HI\n"
    "  xoroshiro:N:SEED[:SUBSEQ]         numba.cuda.random states, uint64 (N, 2)\n"
    "  DTYPE:V                           typed scalar, e.g. float32:2.5\n"
    "  NUMBER                            int -> int64, float -> float64 (as Numba)\n"
    "  ptr:VALUE                         the address of array VALUE (types.CPointer)\n"
    "  SHAPE is N or up to 8 extents (AxB, AxBxC, ...); DTYPE float32 (f32, f4), int64 (i64),\n"
    "  uint8, bool, float16, complex64, ...\n"
    "\n";

static const char tune_help_head[] =
    "usage: kjit tune FILE.py:KERNEL --grid X[,Y[,Z]]|cover:NAME --block X[,Y[,Z]]\n"
    "                 [--budget SECONDS] [options] ARG...\n"
    "\n"
    "Find the fastest launch configuration of a kernel for these arguments and\n"
    "store it: the block sizes (and 2-D/3-D shapes) the kernel's indices and\n"
    "resources allow, grids by SM count for grid-stride kernels, dynamic shared\n"
    "sizes when it takes --shared.  The configuration given is the first\n"
    "candidate; every other must give the same arrays (a kernel whose results\n"
    "depend on the geometry is refused), then each is timed (warm-up, then\n"
    "CUDA events or the host clock; median and spread).  A table goes to\n"
    "stdout, one progress line per candidate to stderr; the fastest is stored\n"
    "in the disk cache for this kernel source, device and shape class, and\n"
    "`kjit run --block tuned` uses it.  ARGs are kjit run's.\n"
    "\n";

static const char tune_help_tail[] =
    "\n"
    "--repeat N times each candidate N times (at most 200; default: as the budget\n"
    "allows, at least 5).  -o, --time, --profile and --graph are kjit run's.\n"
    "\n"
    "examples:\n"
    "  kjit tune examples/vector_add.py:add_kernel --grid cover:x --block 256 --budget 2 \\\n"
    "      x=rand:float32:1000000 y=rand:float32:1000000 out=zeros:float32:1000000\n"
    "  kjit run examples/vector_add.py:add_kernel --grid cover:x --block tuned \\\n"
    "      x=rand:float32:1000000 y=rand:float32:1000000 out=zeros:float32:1000000\n"
    "\n"
    "exit status: 0 success, 1 errors (a kernel whose results depend on the launch\n"
    "geometry included), 2 bad command line\n";

static const char run_help_tail[] =
    "\n"
    "reductions: when KERNEL is a @cuda.reduce function, give no --grid/--block;\n"
    "  the first VALUE is the 1-d array, init=V the initial value (default 0),\n"
    "  and the value is printed as \"result: DTYPE VALUE\"\n"
    "\n"
    "examples:\n"
    "  kjit run examples/vector_add.py:add_kernel --grid 4 --block 256 \\\n"
    "      x=arange:float32:1024 y=full:float32:1024:2 out=zeros:float32:1024\n"
    "  kjit run docs/examples/saxpy.py:saxpy --grid 4 --block 256 float32:2.0 \\\n"
    "      x=arange:float32:1000 out=full:float32:1000:1 -o out=out.npy\n"
    "  kjit run examples/double_matrix.cu:doublify --grid 1 --block 4,4 a=rand:float32:4x4\n"
    "\n"
    "exit status: 0 success, 1 errors (kernel file, launch, I/O), 2 bad command line,\n"
    "3 --timeout reached\n";

/* info and version take no option but -h, --help. */
static const CliOption no_options[] = {
    {.help = "options:"},
    CLI_HELP_ROW,
    {0},
};

static const CliHelp version_help = {
    "usage: kjit version | kjit --version | kjit -V\n"
    "\n"
    "Print kjit's version.\n"
    "\n",
    no_options, ""};

/* ------------------------------------------------------- command line --- */


int kjit_cli_usage(const Cli *c, const char *fmt, const char *what) {
  char msg[1024];
  int n = snprintf(msg, sizeof msg, "kjit: error: ");
  snprintf(msg + n, sizeof msg - (size_t)n, fmt, what, c->cmd);
  kjit_cli_put_diag(msg, stderr);
  fprintf(stderr, "\nTry 'kjit %s --help'.\n", c->cmd);
  return EXIT_USAGE;
}

int kjit_cli_parse_int(const Cli *c, const char *opt, const char *s, int lo, int hi, int *out) {
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

int kjit_cli_is_help(const char *a) {
  return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0;
}

/* --------------------------------------------------------- reporting --- */

void kjit_cli_print_diagnostics(const kjit_context *ctx) {
  kjit_cli_put_diag(kjit_last_diagnostics(ctx), stderr);
}

/* The library words its hints for every caller ("give its argument
 * types"); the tool adds, by diagnostic code, the flag that does it. */
static const struct {
  const char *code;       /* as rendered: "error[E491]" */
  const char *hint;
} flag_hints[] = {
    {"error[E491]", "hint: on the command line the signature is --sig SIG "
                    "(FILE:NAME --sig SIG for one function of several)"},
    {"error[E060]", "hint: on the command line, --target cpu"},
    {"error[E504]", "hint: on the command line, an older --arch sm_XX"},
};

void kjit_cli_flag_hints(const char *err) {
  for (size_t i = 0; i < sizeof flag_hints / sizeof flag_hints[0]; i++)
    if (strstr(err, flag_hints[i].code)) {
      kjit_cli_put_diag(flag_hints[i].hint, stderr);
      fputc('\n', stderr);
    }
}

/* Library errors: the diagnostics, then the exit status for the status. */
int kjit_cli_report(const kjit_context *ctx, kjit_status st) {
  const char *e = kjit_last_error(ctx);
  if (*e)
    kjit_cli_put_diag(e, stderr);
  else
    fprintf(stderr, "kjit: error: %s\n", kjit_status_name(st));
  kjit_cli_flag_hints(e);
  return st == KJIT_ERROR_INVALID_ARGUMENT ? EXIT_USAGE : EXIT_ERRORS;
}

/* ---------------------------------------------------------- commands --- */

/* --global NAME=VALUE (run and ptx): VALUE is an array, bound before
 * anything compiles; the array lives as long as the context. */
int kjit_cli_bind_global(kjit_context *ctx, kjit_program *prog, const char *name,
                         const char *value) {
  char what[160];
  snprintf(what, sizeof what, "global '%s'", name);
  kjit_arg v;
  kjit_status st = kjitaux_arg_parse(ctx, value, what, &v);
  if (st == KJIT_OK && v.kind != KJIT_ARG_ARRAY) {
    kjitaux_arg_free(&v);
    fprintf(stderr, "kjit: error: --global %s=%s: a global is bound to an array (x.npy, "
                    "arange:f32:16, ...), not a scalar or tuple\n", name, value);
    return EXIT_USAGE;
  }
  if (st == KJIT_OK)
    st = kjit_program_set_global(prog, name, v.value.array);
  if (st != KJIT_OK) {
    fputs(kjit_last_error(ctx), stderr);
    return st == KJIT_ERROR_INVALID_ARGUMENT || st == KJIT_ERROR_NOT_FOUND ? EXIT_USAGE
                                                                           : EXIT_ERRORS;
  }
  return EXIT_OK;
}

int kjit_cli_is_identifier(const char *s) {
  if (!*s || (*s >= '0' && *s <= '9'))
    return 0;
  for (; *s; s++)
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || (unsigned char)*s >= 0x80))
      return 0;
  return 1;
}

/* A kernel name: an identifier, or a kernel of an imported module
 * ("pkg.util.k": dotted identifiers, not a file name ending in .py). */
static int is_kernel_name(const char *s) {
  size_t n = strlen(s);
  if (n > 3 && strcmp(s + n - 3, ".py") == 0)
    return 0;
  char part[256];
  for (const char *p = s;; p++) {
    const char *dot = strchr(p, '.');
    size_t len = dot ? (size_t)(dot - p) : strlen(p);
    if (len >= sizeof part)
      return 0;
    memcpy(part, p, len);
    part[len] = '\0';
    if (!kjit_cli_is_identifier(part))
      return 0;
    if (!dot)
      return 1;
    p = dot;
  }
}

/* "file.py:kernel" -> file (malloc'd), kernel (only when the tail is a
 * kernel name, a factory call "file.py:make_blur(2)" or a kernel defined in a
 * host function called so, "file.py:run(3).k"; else left as it was). */
void kjit_cli_split_target(const char *arg, char **file, const char **kernel) {
  *file = strdup(arg);
  size_t n = 0;
  if (*file && kjit_cli_split_cuda_target(arg, &n)) { /* k.cu:scale<float> */
    (*file)[n] = '\0';
    *kernel = *file + n + 1;
    return;
  }
  char *call = *file ? strstr(*file, ".py:") : NULL; /* file.py:'make_blur(2)' */
  char *close = call ? strrchr(call + 4, ')') : NULL;  /* or 'run(3).kernel' */
  if (call && strchr(call + 4, '(') && close &&
      (!close[1] || (close[1] == '.' && is_kernel_name(close + 2)))) {
    call[3] = '\0';
    *kernel = call + 4;
    return;
  }
  char *colon = strrchr(*file, ':');
  if (colon && colon != *file && is_kernel_name(colon + 1)) {
    *colon = '\0';
    *kernel = colon + 1;
  }
}

static const CliHelp info_help = {
    "usage: kjit info\n"
    "\n"
    "Describe this installation: kjit and LLVM versions, the CUDA driver, its\n"
    "devices (compute capability, memory) and the disk cache's location.\n"
    "Works on machines without a GPU (it says so).\n"
    "\n",
    no_options, ""};

static int no_argument(Cli *c, void *args, const char *arg) {
  (void)args;
  return kjit_cli_usage(c, "unexpected argument '%s' for '%s'", arg);
}

static int cmd_info(Cli *c, kjit_context *ctx) {
  (void)ctx;
  int rc = kjit_cli_parse(c, no_options, NULL, no_argument);
  if (rc != EXIT_OK)
    return rc;
  char *text = NULL;
  if (kjit_info(&text) != KJIT_OK) {
    fputs("kjit: error: out of memory\n", stderr);
    return EXIT_ERRORS;
  }
  fputs(text, stdout);
  kjit_free(text);
  return EXIT_OK;
}

static int cmd_version(Cli *c, kjit_context *ctx) {
  (void)ctx;
  int rc = kjit_cli_parse(c, no_options, NULL, no_argument);
  if (rc != EXIT_OK)
    return rc;
  printf("kjit %s\n", kjit_version());
  return EXIT_OK;
}

/* ------------------------------------------------------------ kjit run --- */


typedef struct RunArgs {
  char *file;             /* FILE.py (KERNEL split off) */
  const char *kernel;
  kjit_launch_config cfg;
  int have_grid, have_block;
  int block_auto;         /* --block auto: the best occupancy's block */
  int block_tuned;        /* --block tuned: kjit tune's record */
  int tune;               /* the command is kjit tune */
  double budget;          /* kjit tune --budget SECONDS; 0: not given */
  const char *cover;      /* --grid cover:NAME: the array the grid covers */
  kjit_target target;
  int have_target;        /* --target given */
  int device;             /* --device N; -1: none (KJIT_DEVICE, else 0) */
  int repeat;             /* >= 1 */
  int time;               /* --time */
  int profile;            /* --profile: time, bandwidth, occupancy */
  int graph;              /* --graph */
  int debug;              /* --debug: bounds checks (a context option) */
  int verbose;            /* -v: the reason behind the cpu-target note */
  int lineinfo;           /* --lineinfo: line tables (a context option) */
  double timeout;         /* --timeout SECONDS; 0: none */
  RunArg *args;           /* argc entries at most */
  int nargs;
  RunArg *outs;           /* -o NAME=PATH */
  int nouts;
  RunArg *globals;        /* --global NAME=VALUE */
  int nglobals;
  char *path;             /* --path folders, colon-separated (malloc'd) */
  CliCuda cu;             /* NVRTC options (.cu files) */
} RunArgs;

/* The kernel, its parameters and the values bound to them. */
typedef struct RunJob {
  kjit_context *ctx;
  kjit_program *prog;
  kjit_kernel *kernel;
  kjit_ufunc *ufunc;      /* set instead of kernel for a @vectorize function */
  kjit_reduction *reduction; /* KERNEL names a @cuda.reduce function */
  int nparams;
  const char **params;    /* parameter names */
  const char **specs;     /* per parameter: the VALUE text, or NULL */
  kjit_arg *vals;         /* per parameter, after parsing */
  unsigned char *is_ptr;  /* per parameter: given as ptr:VALUE (tools/kjit_ptr.c) */
  kjit_arg *lvals;        /* what the launch takes: vals, with raw pointers
                             for the ptr: arrays */
  kjit_array **dev;       /* per parameter: the device copy behind a pointer */
  int nvals;              /* how many are passed (positional-only: as given) */
  char *note;             /* the cpu-target note, printed as the launch
                             starts (never before an argument error) */
} RunJob;

/* "X[,Y[,Z]]" of positive integers into dims (missing ones are 1). */
static int parse_dims(const Cli *c, const char *opt, const char *s, uint32_t dims[3]) {
  const char *p = s;
  for (int d = 0; d < 3; d++)
    dims[d] = 1;
  for (int d = 0; d < 3; d++) {
    char *end;
    errno = 0;
    unsigned long long v = (*p >= '0' && *p <= '9') ? strtoull(p, &end, 10) : 0;
    if (v == 0 || errno || v > 0xffffffffull || (*end && *end != ',')) break;
    dims[d] = (uint32_t)v;
    if (!*end)
      return EXIT_OK;
    p = end + 1;
  }
  fprintf(stderr, "kjit: error: %s expects X[,Y[,Z]] (positive integers), not '%s'\n"
                  "Try 'kjit %s --help'.\n", opt, s, c->cmd);
  return EXIT_USAGE;
}

static int parse_target(const Cli *c, const char *v, kjit_target *out) {
  if (strcmp(v, "auto") == 0) *out = KJIT_TARGET_AUTO;
  else if (strcmp(v, "cpu") == 0) *out = KJIT_TARGET_CPU;
  else if (strcmp(v, "cuda") == 0) *out = KJIT_TARGET_CUDA;
  else {
    fprintf(stderr, "kjit: error: unknown --target '%s' (expected auto, cpu or cuda)\n"
                    "Try 'kjit %s --help'.\n", v, c->cmd);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

static int parse_size(const Cli *c, const char *opt, const char *s, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = (*s >= '0' && *s <= '9') ? strtoull(s, &end, 10) : 1;
  if (!(*s >= '0' && *s <= '9') || *end || errno) {
    fprintf(stderr, "kjit: error: %s expects a number of bytes, not '%s'\n"
                    "Try 'kjit %s --help'.\n", opt, s, c->cmd);
    return EXIT_USAGE;
  }
  *out = (size_t)v;
  return EXIT_OK;
}

/* A positive number of seconds (fractions allowed), at most a day. */
static int parse_seconds(const Cli *c, const char *opt, const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || *end || errno || !(v > 0 && v <= 86400)) {
    fprintf(stderr, "kjit: error: %s expects a number of seconds above 0 and at most 86400, "
                    "not '%s'\nTry 'kjit %s --help'.\n", opt, s, c->cmd);
    return EXIT_USAGE;
  }
  *out = v;
  return EXIT_OK;
}

/* "NAME=REST" with NAME an identifier: splits (NAME malloc'd). */
static int split_named(const char *arg, char **name, const char **rest) {
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg)
    return 0;
  char *n = strndup(arg, (size_t)(eq - arg));
  if (!n || !kjit_cli_is_identifier(n)) {
    free(n);
    return 0;
  }
  *name = n;
  *rest = eq + 1;
  return 1;
}

/* ------------------------------------------------- kjit run's options --- */

static int set_grid(Cli *c, const CliOption *o, void *args, const char *v) {
  RunArgs *a = args;
  a->have_grid = 1;
  a->cover = strncmp(v, "cover:", 6) == 0 && v[6] ? v + 6 : NULL;
  return a->cover ? EXIT_OK : parse_dims(c, o->name, v, a->cfg.grid);
}

static int set_block(Cli *c, const CliOption *o, void *args, const char *v) {
  RunArgs *a = args;
  a->have_block = 1;
  a->block_auto = strcmp(v, "auto") == 0;
  a->block_tuned = strcmp(v, "tuned") == 0;
  return a->block_auto || a->block_tuned ? EXIT_OK : parse_dims(c, o->name, v, a->cfg.block);
}

static int set_shared(Cli *c, const CliOption *o, void *args, const char *v) {
  return parse_size(c, o->name, v, &((RunArgs *)args)->cfg.shared_bytes);
}

static int set_target(Cli *c, const CliOption *o, void *args, const char *v) {
  (void)o;
  RunArgs *a = args;
  a->have_target = 1;
  return parse_target(c, v, &a->target);
}

static int set_budget(Cli *c, const CliOption *o, void *args, const char *v) {
  return parse_seconds(c, o->name, v, &((RunArgs *)args)->budget);
}

static int set_timeout(Cli *c, const CliOption *o, void *args, const char *v) {
  return parse_seconds(c, o->name, v, &((RunArgs *)args)->timeout);
}

static int set_out(Cli *c, const CliOption *o, void *args, const char *v) {
  (void)o;
  RunArgs *a = args;
  char *name;
  const char *path;
  if (!split_named(v, &name, &path) || !*path)
    return kjit_cli_usage(c, "-o expects NAME=PATH.npy, not '%s' (for '%s')", v);
  a->outs[a->nouts++] = (RunArg){name, path};
  return EXIT_OK;
}

static int set_global(Cli *c, const CliOption *o, void *args, const char *v) {
  (void)o;
  RunArgs *a = args;
  char *name;
  const char *value;
  if (!split_named(v, &name, &value) || !*value)
    return kjit_cli_usage(c, "--global expects NAME=VALUE, not '%s' (for '%s')", v);
  a->globals[a->nglobals++] = (RunArg){name, value};
  return EXIT_OK;
}

/* FILE.py:KERNEL, then the ARGs: NAME=VALUE or VALUE. */
static int add_run_value(Cli *c, void *args, const char *arg) {
  RunArgs *a = args;
  char *name = NULL;
  const char *value = arg;
  if (!a->file) {
    kjit_cli_split_target(arg, &a->file, &a->kernel);
    return EXIT_OK;
  }
  if (split_named(arg, &name, &value)) {
    a->args[a->nargs++] = (RunArg){name, value};
    return EXIT_OK;
  }
  if (a->nargs && a->args[a->nargs - 1].name)
    return kjit_cli_usage(c, "positional argument '%s' after NAME=VALUE arguments (for '%s')", arg);
  a->args[a->nargs++] = (RunArg){NULL, arg};
  return EXIT_OK;
}

static const CliOption run_options[] = {
    {.help = "options:"},
    {.name = "--grid", .metavar = "X[,Y[,Z]]", .set = set_grid,
     .help = "blocks per grid (required); cover:NAME: enough\n"
             "blocks of --block to cover array NAME's shape,\n"
             "per dimension ((n + block - 1) / block)"},
    {.name = "--block", .metavar = "X[,Y[,Z]]|auto|tuned", .set = set_block,
     .help = "threads per block, at most 1024 in all (required);\n"
             "auto: the x size with the best occupancy for the\n"
             "kernel's resources (GPU present, else sm_80);\n"
             "tuned: kjit tune's record for this kernel, device\n"
             "and shape class (else auto, with a note)"},
    {.name = "--budget", .metavar = "SECONDS", .set = set_budget,
     .help = "kjit tune: stop measuring after SECONDS (default\n"
             "10); the fastest candidate measured is stored"},
    {.name = "--shared", .metavar = "BYTES", .set = set_shared,
     .help = "dynamic shared memory per block (default 0)"},
    {.name = "--target", .metavar = "auto|cpu|cuda", .set = set_target,
     .help = "where to run (default: $KJIT_TARGET, else auto:\n"
             "the GPU when there is one, else the CPU with a\n"
             "one-line note; none for an explicit auto)"},
    {.name = "--device", .metavar = "N", .set = kjit_cli_set_int,
     .field = offsetof(RunArgs, device), .lo = 0, .hi = 1000000,
     .help = "run on CUDA device N (0-based, as 'kjit info' lists\n"
             "them; implies --target cuda; default: $KJIT_DEVICE,\n"
             "else 0)"},
    {.name = "--global", .metavar = "NAME=VALUE", .set = set_global,
     .help = "bind module global NAME, whose value the host computes\n"
             "(A = np.random.rand(16)), to the array VALUE before\n"
             "compiling (repeatable; see docs/cli.md)"},
    {.name = "-o", .metavar = "NAME=PATH.npy", .set = set_out,
     .help = "after a successful run, write array argument NAME\n"
             "to PATH.npy (repeatable); nothing is written when\n"
             "the run fails"},
    {.name = "--repeat", .metavar = "N", .set = kjit_cli_set_int,
     .field = offsetof(RunArgs, repeat), .lo = 1, .hi = 1000000,
     .help = "launch N times on the same arrays (default 1);\n"
             "in-place updates accumulate; on the cuda target\n"
             "host arrays are copied in once and out once"},
    {.name = "--graph", .field = offsetof(RunArgs, graph),
     .help = "cuda target, with --repeat: capture the N launches\n"
             "in one CUDA graph and replay it (ignored on cpu)"},
    {.name = "--debug", .field = offsetof(RunArgs, debug),
     .help = "check every array index and assert (as debug=True);\n"
             "a failing one fails the run with its source line"},
    {.name = "--verbose", .alias = "-v", .field = offsetof(RunArgs, verbose),
     .help = "say why the cpu target was chosen when there is\n"
             "no GPU (the library's note, with the reason)"},
    {.name = "--lineinfo", .field = offsetof(RunArgs, lineinfo),
     .help = "source line information in every kernel (as\n"
             "lineinfo=True), for compute-sanitizer and the profilers"},
    {.name = "--timeout", .metavar = "SECONDS", .set = set_timeout,
     .help = "stop the run when the launch (compile, copies and\n"
             "the kernel) takes longer: the error names the\n"
             "kernel and kjit exits with status 3"},
    {.name = "--profile", .field = offsetof(RunArgs, profile),
     .help = "print the kernel time, the effective bandwidth of\n"
             "its array arguments and, on the cuda target, the\n"
             "occupancy of the launch"},
    {.name = "--time", .field = offsetof(RunArgs, time),
     .help = "print compile, copy and kernel times in ms (the\n"
             "kernel time is the median over --repeat runs,\n"
             "timed with CUDA events on the cuda target), and\n"
             "whether the kernel was compiled or read from the\n"
             "disk cache; on the cuda target also the kernel's\n"
             "registers and memory, as the driver reports them"},
    CLI_PATH_ROW(RunArgs, path),
    CLI_HELP_ROW,
    {.help = "NVRTC options of a CUDA C file (FILE.cu:KERNEL, run on the cuda target;\n"
             "arguments are checked against the kernel's C parameters):"},
    CLI_CUDA_ROWS(RunArgs, cu),
    {0},
};

static const CliHelp run_help = {run_help_head, run_options, run_help_tail};
static const CliHelp tune_help = {tune_help_head, run_options, tune_help_tail};

/* --device N asks for a GPU: it means --target cuda (so a machine without
 * that GPU gets an error, never a silent run on the CPU), and contradicts
 * --target cpu. */
static int device_target(Cli *c, RunArgs *a) {
  if (a->device < 0)
    return EXIT_OK;
  if (a->have_target && a->target == KJIT_TARGET_CPU)
    return kjit_cli_usage(c, "--device selects a GPU; it cannot be combined with %s (for '%s')",
                        "--target cpu");
  a->target = KJIT_TARGET_CUDA;
  return EXIT_OK;
}

static int parse_run_args(Cli *c, RunArgs *a) {
  kjit_launch_config_init(&a->cfg);
  a->repeat = 1;
  a->device = -1;
  a->args = calloc((size_t)c->argc, sizeof *a->args);
  a->outs = calloc((size_t)c->argc, sizeof *a->outs);
  a->globals = calloc((size_t)c->argc, sizeof *a->globals);
  if (!a->args || !a->outs || !a->globals)
    return EXIT_ERRORS;
  int rc = kjit_cli_parse(c, run_options, a, add_run_value);
  if (rc != EXIT_OK)
    return rc;
  if (!a->file)
    return kjit_cli_usage(c, "missing FILE.py%s for '%s'", ":KERNEL");
  if (!a->kernel)
    return kjit_cli_usage(c, "missing :KERNEL after '%s' (kjit run FILE.py:KERNEL) for '%s'", a->file);
  if (!a->tune && a->budget > 0)
    return kjit_cli_usage(c, "%s is an option of kjit tune, not of '%s'", "--budget");
  if (a->tune && (a->nouts || a->time || a->profile || a->graph || a->block_tuned))
    return kjit_cli_usage(c, "%s is an option of kjit run, not of '%s'",
                          a->nouts ? "-o" : a->time ? "--time" : a->profile ? "--profile"
                                   : a->graph ? "--graph" : "--block tuned");
  return device_target(c, a);  /* --grid/--block: checked once KERNEL is known */
}

/* What KERNEL names: a kernel needs --grid and --block; kjit chooses the
 * launch of a @vectorize or @cuda.reduce function, which take neither (nor
 * -o for a reduction, whose result is a printed value). */
typedef enum RunKind { RUN_KERNEL, RUN_UFUNC, RUN_REDUCE } RunKind;

static int check_geometry(const RunArgs *a, RunKind kind) {
  const char *cmd = a->tune ? "tune" : "run";
  if (kind != RUN_KERNEL && a->tune) {
    fprintf(stderr, "kjit: error: '%s' is a %s function: kjit chooses its launch, so there is "
                    "nothing to tune\nTry 'kjit tune --help'.\n", a->kernel,
            kind == RUN_UFUNC ? "@vectorize" : "@cuda.reduce");
    return EXIT_USAGE;
  }
  if (kind != RUN_KERNEL && (a->have_grid || a->have_block || (kind == RUN_REDUCE && a->nouts))) {
    fprintf(stderr, "kjit: error: '%s' is a %s function: kjit chooses its launch; drop --grid "
                    "and --block%s\nTry 'kjit run --help'.\n", a->kernel,
            kind == RUN_UFUNC ? "@vectorize" : "@cuda.reduce",
            kind == RUN_REDUCE ? " (and -o: the result is printed)" : "");
    return EXIT_USAGE;
  }
  if (kind == RUN_KERNEL && (!a->have_grid || !a->have_block)) {
    fprintf(stderr, "kjit: error: missing %s for '%s'\nTry 'kjit %s --help'.\n",
            !a->have_grid ? "--grid X[,Y[,Z]]" : "--block X[,Y[,Z]]", cmd, cmd);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/* `kjit run FILE.py:F` on a @cuda.reduce function: tools/kjit_reduce.c. */
int kjit_cli_reduce(kjit_context *ctx, kjit_reduction *r, const char *fname, int nargs,
                    const char *const *names, const char *const *values, int time);

static int run_reduction(const RunArgs *a, RunJob *j) {
  int rc = EXIT_OK;
  const char **names = calloc((size_t)a->nargs + 1, sizeof *names);
  const char **values = calloc((size_t)a->nargs + 1, sizeof *values);
  if (!names || !values)
    rc = EXIT_ERRORS;
  for (int i = 0; rc == EXIT_OK && i < a->nargs; i++)
    names[i] = a->args[i].name, values[i] = a->args[i].value;
  if (rc == EXIT_OK)
    rc = kjit_cli_reduce(j->ctx, j->reduction, a->kernel, a->nargs, names, values, a->time);
  free(names);
  free(values);
  return rc;
}

static void free_run_args(RunArgs *a) {
  for (int i = 0; i < a->nargs; i++)
    free((char *)a->args[i].name);
  for (int i = 0; i < a->nouts; i++)
    free((char *)a->outs[i].name);
  for (int i = 0; i < a->nglobals; i++)
    free((char *)a->globals[i].name);
  free(a->args);
  free(a->outs);
  free(a->globals);
  free(a->file);
  free(a->path);
  kjit_cli_cuda_free(&a->cu);
}

/* "x, y, out" */
static void print_params(FILE *f, const RunJob *j) {
  for (int i = 0; i < j->nparams; i++)
    fprintf(f, "%s%s", i ? ", " : "", j->params[i]);
}

static int find_param(const RunJob *j, const char *name) {
  for (int i = 0; i < j->nparams; i++)
    if (strcmp(j->params[i], name) == 0)
      return i;
  return -1;
}

static int report_param(const RunJob *j, const char *fmt, const char *what) {
  const char *kname;
  kjit_kernel_name(j->kernel, &kname);
  fputs("kjit: error: ", stderr);
  fprintf(stderr, fmt, what, kname);
  fputs(" (parameters: ", stderr);
  print_params(stderr, j);
  fputs(")\nTry 'kjit run --help'.\n", stderr);
  return EXIT_USAGE;
}

/* Binds ARGs to parameters: positional ones first, then by name.  With
 * positional ARGs only, they are passed as given (kjit_launch reports a
 * count mismatch). */
static int bind_args(const RunArgs *a, RunJob *j) {
  int named = 0;
  for (int i = 0; i < a->nargs; i++) {
    const RunArg *r = &a->args[i];
    if (!r->name) {
      if (i >= j->nparams)
        continue;                      /* too many: kjit_launch says so */
      j->specs[i] = r->value;
      continue;
    }
    named = 1;
    int p = find_param(j, r->name);
    if (p < 0)
      return report_param(j, "unknown parameter '%s' of kernel '%s'", r->name);
    if (j->specs[p])
      return report_param(j, "parameter '%s' of kernel '%s' is given twice", r->name);
    j->specs[p] = r->value;
  }
  j->nvals = a->nargs;
  if (!named)
    return EXIT_OK;
  if (a->nargs > j->nparams)
    return report_param(j, "%s arguments given; kernel '%s' has fewer parameters", "too many");
  for (int p = 0; p < j->nparams; p++)
    if (!j->specs[p])
      return report_param(j, "missing argument '%s' of kernel '%s'", j->params[p]);
  j->nvals = j->nparams;
  return EXIT_OK;
}

/* Two paths naming one file: the same text, or (existing) one inode. */
static int same_file(const char *a, const char *b) {
  struct stat x, y;
  return strcmp(a, b) == 0 ||
         (stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino);
}

/* -o NAME=PATH: NAME is a parameter; PATH's folder exists and is writable
 * (checked before the launch, so a typo costs no run). */
static int check_outputs(const RunArgs *a, const RunJob *j) {
  for (int i = 0; i < a->nouts; i++) {
    if (find_param(j, a->outs[i].name) < 0)
      return report_param(j, "-o names '%s', not a parameter of kernel '%s'", a->outs[i].name);
    char *dir = strdup(a->outs[i].value);
    char *slash = dir ? strrchr(dir, '/') : NULL;
    const char *d = !slash ? "." : slash == dir ? "/" : (*slash = '\0', dir);
    int ok = dir && access(d, W_OK | X_OK) == 0;
    int err = errno;
    free(dir);
    if (!ok) {
      fprintf(stderr, "kjit: error: cannot write '%s': %s\n", a->outs[i].value, strerror(err));
      return EXIT_ERRORS;
    }
    if (kjit_cli_out_check(j->ctx, a->outs[i].value) != 0)
      return EXIT_ERRORS;
    for (int k = 0; k < i; k++)
      if (same_file(a->outs[k].value, a->outs[i].value)) {
        fprintf(stderr, "kjit: error: -o %s=%s and -o %s=%s write one file: ambiguous\n"
                        "  hint: give each output its own file\n",
                a->outs[k].name, a->outs[k].value, a->outs[i].name, a->outs[i].value);
        return EXIT_ERRORS;
      }
  }
  return EXIT_OK;
}

/* Parses every bound VALUE (the .npy files are read here). */
static int make_values(RunJob *j, const RunArgs *a) {
  for (int i = 0; i < j->nvals; i++) {
    const char *spec = i < j->nparams ? j->specs[i] : a->args[i].value;
    const char *what = i < j->nparams ? j->params[i] : NULL;
    const char *ptr = kjit_cli_ptr_value(spec);
    j->is_ptr[i] = ptr != NULL;
    kjit_status st = kjitaux_arg_parse(j->ctx, ptr ? ptr : spec, what, &j->vals[i]);
    if (st != KJIT_OK) {
      fputs(kjit_last_error(j->ctx), stderr);
      if (st != KJIT_ERROR_INVALID_ARGUMENT)
        return EXIT_ERRORS;
      fputs("Try 'kjit run --help'.\n", stderr);
      return EXIT_USAGE;
    }
  }
  for (int i = 0; i < a->nouts; i++) {
    int p = find_param(j, a->outs[i].name);
    if (p < j->nvals && j->vals[p].kind != KJIT_ARG_ARRAY)
      return report_param(j, "-o names '%s', a scalar argument of kernel '%s', not an array",
                          a->outs[i].name);
  }
  int prc = kjit_cli_ptr_args(j->ctx, j->vals, j->is_ptr, j->nvals, j->params, j->lvals, j->dev);
  if (prc)
    return prc == 2 ? EXIT_USAGE : EXIT_ERRORS;
  return EXIT_OK;
}

/* Launch times: the first launch's compile, the last one's copies, the
 * median kernel time. */
typedef struct RunTimes {
  double compile_ms, copy_ms, run_ms;
  int graph;              /* the runs were replayed from a CUDA graph */
} RunTimes;

/* --timeout: the clock for the whole run, started before anything is read
 * (kjit_cli_watchdog_stop ends it, before -o files are renamed). */
static int start_watchdog(const RunArgs *a) {
  char what[160];
  snprintf(what, sizeof what, "kernel '%s'", a->kernel ? a->kernel : "?");
  if (a->timeout > 0 &&
      kjit_cli_watchdog_start(a->timeout, what, a->target == KJIT_TARGET_CUDA ? "cuda" : "cpu") != 0) {
    fputs("kjit: error: cannot start the --timeout watchdog thread\n", stderr);
    return EXIT_ERRORS;
  }
  return EXIT_OK;
}

/* Once the context and KERNEL are known: what the timeout message names. */
static void describe_watchdog(const RunArgs *a, RunJob *j) {
  kjit_target tg = KJIT_TARGET_CPU;
  kjit_context_target(j->ctx, &tg);
  char what[160];
  snprintf(what, sizeof what, "%s '%s'", j->ufunc ? "@vectorize function" :
           j->reduction ? "@cuda.reduce function" : "kernel", a->kernel);
  kjit_cli_watchdog_describe(what, tg == KJIT_TARGET_CUDA ? "cuda" : "cpu");
}

/* One kjit_launch running the kernel `repeat` times (the runtime copies
 * host arrays in once and out once on the cuda target, times each run with
 * CUDA events, and with --graph replays one CUDA graph), then fills *t. */
static int launch_all(RunJob *j, const RunArgs *a, RunTimes *t) {
  kjit_launch_config cfg = a->cfg;
  cfg.repeat = a->repeat;
  cfg.use_graph = a->graph;
  kjit_target tg = KJIT_TARGET_CPU;
  kjit_context_target(j->ctx, &tg);
  kjit_cli_watchdog_launching();
  kjit_status st = kjit_launch(j->kernel, &cfg, j->lvals, j->nvals);
  if (st == KJIT_OK)                   /* warnings (the disk cache's), once, as kjit ptx prints them */
    kjit_cli_print_diagnostics(j->ctx);
  if (st == KJIT_OK)
    st = kjit_synchronize(j->ctx);     /* the copies back are inside the bound too */
  if (st != KJIT_OK) {
    fputs(kjit_last_error(j->ctx), stderr);
    return EXIT_ERRORS;
  }
  if (kjit_cli_ptr_back(j->ctx, j->vals, j->dev, j->nvals))
    return EXIT_ERRORS;
  kjit_last_timing(j->ctx, &t->compile_ms, &t->copy_ms, &t->run_ms);
  t->graph = a->graph && tg == KJIT_TARGET_CUDA;
  return EXIT_OK;
}

/* Every -o file or none (tools/kjit_output.c). */
static int write_outputs(const RunArgs *a, RunJob *j) {
  kjit_array **arrs = calloc((size_t)a->nouts + 1, sizeof *arrs);
  const char **paths = calloc((size_t)a->nouts + 1, sizeof *paths);
  int rc = arrs && paths ? EXIT_OK : EXIT_ERRORS;
  for (int i = 0; rc == EXIT_OK && i < a->nouts; i++) {
    arrs[i] = j->vals[find_param(j, a->outs[i].name)].value.array;
    paths[i] = a->outs[i].value;
  }
  if (rc == EXIT_OK && kjit_cli_save_arrays(j->ctx, arrs, paths, a->nouts, kjit_cli_watchdog_stop) != 0)
    rc = EXIT_ERRORS;
  free(arrs);
  free(paths);
  return rc;
}

/* "name: summary"; a record array's summary has one more line per field
 * (".x: float32[4] ..."), printed as "name.x: ...". */
static void print_summary(const char *name, const char *s) {
  printf("%s: ", name);
  for (const char *p = s; *p; p++) {
    putchar(*p);
    if (*p == '\n' && p[1] == '.')
      fputs(name, stdout);
  }
  putchar('\n');
}

/* Arrays inside a tuple argument, named as Python indexes them: t[0],
 * t[1][2]. */
static int print_tuple_arrays(const kjit_arg *t, const char *name) {
  for (int k = 0; k < t->value.tuple.count; k++) {
    const kjit_arg *e = &t->value.tuple.elems[k];
    char sub[256], *s;
    snprintf(sub, sizeof sub, "%s[%d]", name, k);
    if (e->kind == KJIT_ARG_TUPLE && print_tuple_arrays(e, sub) != EXIT_OK)
      return EXIT_ERRORS;
    if (e->kind != KJIT_ARG_ARRAY)
      continue;
    if (kjitaux_array_summary(e->value.array, &s) != KJIT_OK)
      return EXIT_ERRORS;
    print_summary(sub, s);
    kjit_free(s);
  }
  return EXIT_OK;
}

/* The summaries of the top-level number arrays are computed side by side,
 * one thread per array past the first, when they are large enough for it
 * to pay (each is a few passes over the array: a run's summaries of three
 * 4 MiB arrays took 5 ms in a row); record arrays (whose fields the
 * library views) and tuples' arrays are summarised in order as printed. */
enum { SUMMARY_THREADS = 8, SUMMARY_PARALLEL_BYTES = 1 << 20 };

typedef struct SummaryJob {
  kjit_array *array;
  char *text;
  kjit_status st;
  pthread_t thread;
  int started;
} SummaryJob;

static void *summary_thread(void *p) {
  SummaryJob *s = p;
  s->st = kjitaux_array_summary(s->array, &s->text);
  return NULL;
}

static int parallel_summary(const kjit_arg *v) {
  if (v->kind != KJIT_ARG_ARRAY || kjit_array_dtype(v->value.array) == KJIT_RECORD)
    return 0;
  return kjit_array_size(v->value.array) * kjit_array_itemsize(v->value.array) >=
         SUMMARY_PARALLEL_BYTES;
}

static int print_summaries(RunJob *j) {
  SummaryJob jobs[SUMMARY_THREADS];
  int nj = 0, slot[SUMMARY_THREADS];
  for (int i = 0; i < j->nvals && i < j->nparams && nj < SUMMARY_THREADS; i++)
    if (parallel_summary(&j->vals[i])) {
      jobs[nj] = (SummaryJob){.array = j->vals[i].value.array, .st = KJIT_OK};
      slot[nj++] = i;
    }
  for (int k = 1; k < nj; k++)
    jobs[k].started = pthread_create(&jobs[k].thread, NULL, summary_thread, &jobs[k]) == 0;
  for (int k = 0; k < nj; k++)            /* the first, and any thread that did not start */
    if (k == 0 || !jobs[k].started)
      summary_thread(&jobs[k]);
  for (int k = 1; k < nj; k++)
    if (jobs[k].started)
      pthread_join(jobs[k].thread, NULL);
  int rc = EXIT_OK, next = 0;
  for (int i = 0; rc == EXIT_OK && i < j->nvals && i < j->nparams; i++) {
    char *s = NULL;
    if (j->vals[i].kind == KJIT_ARG_TUPLE && print_tuple_arrays(&j->vals[i], j->params[i]) != EXIT_OK)
      rc = EXIT_ERRORS;
    if (rc != EXIT_OK || j->vals[i].kind != KJIT_ARG_ARRAY)
      continue;
    if (next < nj && slot[next] == i) {
      SummaryJob *sj = &jobs[next++];
      if (sj->st != KJIT_OK)
        rc = EXIT_ERRORS;
      s = sj->text, sj->text = NULL;
    } else if (kjitaux_array_summary(j->vals[i].value.array, &s) != KJIT_OK) {
      rc = EXIT_ERRORS;
    }
    if (s)
      print_summary(j->params[i], s);
    kjit_free(s);
  }
  for (int k = next; k < nj; k++)
    kjit_free(jobs[k].text);
  return rc;
}

/* The context (with the requested target), the program and the kernel. */
static int open_kernel(const RunArgs *a, RunJob *j) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = a->target;
  o.debug = a->debug;
  o.lineinfo = a->lineinfo;
  o.fault_policy = KJIT_FAULT_RESET;   /* the process is kjit's own */
  if (a->device >= 0)
    o.device = a->device;
  kjit_target t;
  if (kjit_context_create(&o, &j->ctx) != KJIT_OK) {
    fputs("kjit: error: cannot create a context\n", stderr);
    return EXIT_ERRORS;
  }
  kjit_status st = kjit_context_target(j->ctx, &t);
  if (st != KJIT_OK)
    return kjit_cli_report(j->ctx, st), EXIT_ERRORS;
  /* --target auto by default and no GPU: one short line; -v gives the
   * library's note with the reason; none for an explicit --target auto. */
  const char *d = kjit_last_diagnostics(j->ctx);
  if (*d && (a->verbose || (t == KJIT_TARGET_CPU && !a->have_target)))
    j->note = strdup(a->verbose ? d : "kjit: note: no CUDA device; running on the cpu target "
                                      "(-v or 'kjit info' says why)\n");
  st = kjit_context_set_search_path(j->ctx, a->path);
  int usage = 0;
  if (st == KJIT_OK)
    st = kjit_cli_load(j->ctx, a->file, &a->cu, &j->prog, &usage);
  if (st == KJIT_OK)
    kjit_cli_print_diagnostics(j->ctx);         /* the load's warnings (a bad setting) */
  if (usage)
    return usage > 0 ? EXIT_USAGE : EXIT_ERRORS;
  if (st == KJIT_OK && kjit_program_ufunc(j->prog, a->kernel, &j->ufunc) == KJIT_OK)
    return check_geometry(a, RUN_UFUNC);
  j->ufunc = NULL;
  if (st == KJIT_OK && kjit_program_reduction(j->prog, a->kernel, &j->reduction) == KJIT_OK)
    return check_geometry(a, RUN_REDUCE);
  j->reduction = NULL;
  if (st == KJIT_OK)
    st = kjit_program_kernel(j->prog, a->kernel, &j->kernel);
  if (st == KJIT_OK && check_geometry(a, RUN_KERNEL) != EXIT_OK)
    return EXIT_USAGE;
  if (st == KJIT_OK)
    st = kjit_kernel_param_count(j->kernel, &j->nparams);
  if (st != KJIT_OK)
    return kjit_cli_report(j->ctx, st), EXIT_ERRORS;
  int n = j->nparams + a->nargs + 1;
  j->params = calloc((size_t)n, sizeof *j->params);
  j->specs = calloc((size_t)n, sizeof *j->specs);
  j->vals = calloc((size_t)n, sizeof *j->vals);
  j->is_ptr = calloc((size_t)n, 1);
  j->lvals = calloc((size_t)n, sizeof *j->lvals);
  j->dev = calloc((size_t)n, sizeof *j->dev);
  if (!j->params || !j->specs || !j->vals || !j->is_ptr || !j->lvals || !j->dev)
    return EXIT_ERRORS;
  for (int i = 0; i < j->nparams; i++)
    kjit_kernel_param_name(j->kernel, i, &j->params[i]);
  return EXIT_OK;
}

static void print_times(const RunArgs *a, const RunTimes *t) {
  printf("time: compile %.3f ms, copy %.3f ms, kernel %.3f ms", t->compile_ms, t->copy_ms,
         t->run_ms);
  if (a->repeat > 1 && t->graph)
    printf(" (mean of %d runs replayed from one CUDA graph)", a->repeat);
  else if (a->repeat > 1)
    printf(" (median of %d runs)", a->repeat);
  putchar('\n');
}

/* --time: whether this process compiled the kernel or read it from the
 * disk cache (and whether it waited for another process compiling it). */
static void print_cache(kjit_context *ctx) {
  kjit_cache_info ci;
  if (kjit_cache_stats(ctx, &ci) != KJIT_OK)
    return;
  const char *what = !ci.enabled ? "off" : ci.misses ? "compiled" : ci.hits ? "read" : "not used";
  printf("cache: %s (hits %llu, misses %llu, waits %llu)\n", what, (unsigned long long)ci.hits,
         (unsigned long long)ci.misses, (unsigned long long)ci.waits);
}

/* --global NAME=VALUE of `kjit run`. */
static int bind_globals(const RunArgs *a, RunJob *j) {
  for (int i = 0; i < a->nglobals; i++) {
    int rc = kjit_cli_bind_global(j->ctx, j->prog, a->globals[i].name, a->globals[i].value);
    if (rc != EXIT_OK)
      return rc;
  }
  return EXIT_OK;
}

static void print_note(RunJob *j) {
  if (j->note)
    kjit_cli_put_diag(j->note, stderr);
  free(j->note);
  j->note = NULL;
}

/* kjit tune, once the arguments are bound and the configuration as given
 * is resolved (tools/kjit_tune.c). */
static int tune_job(const RunArgs *a, RunJob *j) {
  const char *kname = a->kernel;
  kjit_kernel_name(j->kernel, &kname);
  int p = a->cover ? find_param(j, a->cover) : -1;
  const kjit_arg *cover = p >= 0 && p < j->nvals ? &j->vals[p] : NULL;
  CliTune t = {.ctx = j->ctx, .kernel = j->kernel, .kname = kname, .vals = j->lvals,
               .nvals = j->nvals, .params = j->params, .ref = a->cfg,
               .cover_array = cover && cover->kind == KJIT_ARG_ARRAY ? cover->value.array : NULL,
               .budget = a->budget > 0 ? a->budget : 10.0, .repeat = a->repeat > 1 ? a->repeat : 0};
  print_note(j);
  return kjit_cli_tune(&t);
}

static int run_job_bounded(const RunArgs *a, RunJob *j) {
  int rc = open_kernel(a, j);
  if (j->ctx && (j->kernel || j->ufunc || j->reduction))
    describe_watchdog(a, j);
  if (rc == EXIT_OK)
    rc = bind_globals(a, j);
  if (rc == EXIT_OK && (j->ufunc || j->reduction)) {
    print_note(j);
    rc = j->ufunc ? kjit_cli_run_ufunc(j->ctx, j->ufunc, a->args, a->nargs, a->outs, a->nouts, a->time)
                  : run_reduction(a, j);
    if (rc == EXIT_OK && a->time)
      print_cache(j->ctx);
    return rc;
  }
  if (rc == EXIT_OK) rc = bind_args(a, j);
  if (rc == EXIT_OK) rc = check_outputs(a, j);
  if (rc == EXIT_OK) rc = make_values(j, a);
  RunArgs covered = *a;                 /* --block tuned/auto, --grid cover:NAME, now that
                                           the arguments have types and shapes */
  int tuned = 0;                        /* kjit_cli_tuned_block's *found */
  if (rc == EXIT_OK && a->block_tuned) {
    const char *kname = a->kernel;
    kjit_kernel_name(j->kernel, &kname);
    rc = kjit_cli_tuned_block(j->ctx, j->kernel, kname, j->lvals, j->nvals, !a->cover, &covered.cfg,
                              &tuned);
    covered.block_auto = !tuned;        /* no record: --block auto */
    a = &covered;
  }
  if (rc == EXIT_OK && a->block_auto) {
    const char *kname = a->kernel;
    kjit_kernel_name(j->kernel, &kname);
    rc = kjit_cli_auto_block(j->ctx, j->prog, kname, j->lvals, j->nvals, a->cfg.shared_bytes,
                             covered.cfg.block);
    a = &covered;
  }
  if (rc == EXIT_OK && a->cover && tuned != 2) {
    int p = find_param(j, a->cover);
    rc = kjit_cli_cover_grid(a->cover, p >= 0 && p < j->nvals ? &j->vals[p] : NULL, covered.cfg.block,
                             covered.cfg.grid);
    a = &covered;
  }
  if (rc == EXIT_OK && a->tune)
    return tune_job(a, j);
  RunTimes t = {0};
  if (rc == EXIT_OK) print_note(j);
  if (rc == EXIT_OK) rc = launch_all(j, a, &t);
  if (rc == EXIT_OK) rc = write_outputs(a, j);
  if (rc == EXIT_OK) rc = print_summaries(j);
  if (rc == EXIT_OK && a->profile)
    kjit_cli_print_profile(j->ctx, j->vals, j->nvals, a->cfg.block, a->cfg.shared_bytes, t.run_ms);
  if (rc == EXIT_OK && a->time) {
    print_times(a, &t);
    print_cache(j->ctx);
    kjit_resources res;                 /* a GPU launch: the driver's view */
    if (kjit_last_resources(j->ctx, &res) == KJIT_OK)
      kjit_cli_print_resources(stdout, &res);
  }
  return rc;
}

/* The whole run under --timeout: reading and generating the arguments
 * (a FIFO, a costly generator), compiling, launching, writing. */
static int run_job(const RunArgs *a, RunJob *j) {
  if (start_watchdog(a) != EXIT_OK)
    return EXIT_ERRORS;
  int rc = run_job_bounded(a, j);
  kjit_cli_watchdog_stop();
  return rc;
}

/* `kjit run` and `kjit tune` make their own context: the target is a
 * context option. */
static int run_or_tune(Cli *c, int tune) {
  RunArgs a = {.tune = tune};
  RunJob j = {0};
  int rc = parse_run_args(c, &a);
  if (rc == EXIT_OK)
    rc = run_job(&a, &j);
  fflush(stdout);
  kjit_context_destroy(j.ctx);         /* its arrays and program too */
  for (int i = 0; j.vals && i < j.nvals; i++)
    kjitaux_arg_free(&j.vals[i]);   /* tuples' element lists */
  free(j.params);
  free(j.specs);
  free(j.vals);
  free(j.is_ptr);
  free(j.lvals);
  free(j.dev);
  free(j.note);
  free_run_args(&a);
  return rc;
}

static int cmd_run(Cli *c, kjit_context *unused) {
  (void)unused;
  return run_or_tune(c, 0);
}

static int cmd_tune(Cli *c, kjit_context *unused) {
  (void)unused;
  return run_or_tune(c, 1);
}

typedef CliCommand Command;

static const Command commands[] = {
    {"run", &run_help, cmd_run},
    {"tune", &tune_help, cmd_tune},
    {"ptx", &kjit_ptx_help, kjit_cli_ptx},
    {"aot", &kjit_aot_help, kjit_cli_aot},
    {"check", &kjit_check_help, kjit_cli_check},
    {"cache", &kjit_cache_help, kjit_cli_cache},
    {"info", &info_help, cmd_info},
    {"version", &version_help, cmd_version},
};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static const Command *find_command(const char *name) {
  for (int i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

/* "unknown command 'rnu'", with the nearest command (kjit_cli_nearest). */
static int unknown_command(const char *name) {
  const char *names[NCOMMANDS + 1];
  for (int i = 0; i < NCOMMANDS; i++)
    names[i] = commands[i].name;
  names[NCOMMANDS] = "help";
  const char *near = kjit_cli_nearest(name, names, NCOMMANDS + 1);
  fprintf(stderr, "kjit: error: unknown %s '%s'\n", name[0] == '-' ? "option" : "command", name);
  if (near)
    fprintf(stderr, "hint: did you mean '%s'?\n", near);
  fputs("Try 'kjit --help'.\n", stderr);
  return EXIT_USAGE;
}

static int has_help_flag(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0)
      return 0;
    if (kjit_cli_is_help(argv[i]))
      return 1;
  }
  return 0;
}

static int cmd_help(const char *topic) {
  if (topic && strcmp(topic, "--man") == 0) {        /* kjit.1, installed */
    kjit_cli_print_man(stdout, main_help, commands, NCOMMANDS, kjit_version());
    return EXIT_OK;
  }
  if (topic && strcmp(topic, "--bash-completion") == 0) {
    kjit_cli_print_bash_completion(stdout, commands, NCOMMANDS);
    return EXIT_OK;
  }
  if (!topic || kjit_cli_is_help(topic) || strcmp(topic, "help") == 0) {
    fputs(main_help, stdout);
    return EXIT_OK;
  }
  const Command *cmd = find_command(topic);
  if (!cmd)
    return unknown_command(topic);
  kjit_cli_print_help(stdout, cmd->help);
  return EXIT_OK;
}

static int run_command(const Command *cmd, int argc, char **argv) {
  Cli c = {cmd->name, argc, argv, 2};
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

/* --color[=WHEN] anywhere before "--" (WHEN auto, always, never; the
 * option alone is always), taken out of argv; the last one counts. */
static int take_color(int *argc, char **argv) {
  const char *when = NULL;
  int n = 1;
  for (int i = 1, end = 0; i < *argc; i++) {
    end |= strcmp(argv[i], "--") == 0;
    if (!end && (strcmp(argv[i], "--color") == 0 || strncmp(argv[i], "--color=", 8) == 0))
      when = argv[i][7] ? argv[i] + 8 : "always";
    else
      argv[n++] = argv[i];
  }
  *argc = n;
  argv[n] = NULL;
  return kjit_cli_color_set(when);
}

int main(int argc, char **argv) {
  if (take_color(&argc, argv) != EXIT_OK)
    return EXIT_USAGE;
  if (argc < 2) {
    fputs(main_help, stderr);
    return EXIT_USAGE;
  }
  const char *name = argv[1];
  if (kjit_cli_is_help(name) || strcmp(name, "help") == 0)
    return cmd_help(argc > 2 && !kjit_cli_is_help(name) ? argv[2] : NULL);
  if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
    name = "version";
  const Command *cmd = find_command(name);
  if (!cmd)
    return unknown_command(name);
  if (has_help_flag(argc - 2, argv + 2)) {
    kjit_cli_print_help(stdout, cmd->help);
    return EXIT_OK;
  }
  kjit_cli_signals_install();          /* -o temporary files go with the process */
  return run_command(cmd, argc, argv);
}
