/* kjit_compile.c - `kjit ptx` and `kjit check`: compile or check one or
 * several kernel files ("-" is standard input), each on its own, so one
 * broken file does not hide the others' errors or outputs (as `gcc -S
 * a.c b.c` does).  Several outputs go to standard output in the order of
 * the inputs, or to one file per input in an -o DIRECTORY; never two to
 * one file.  Written against <kjit.h> only, like the rest of the tool. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_output.h"
#include "cli_run.h"

/* ----------------------------------------------------------- inputs --- */

/* One FILE[:KERNEL] of the command line. */
typedef struct Input {
  char *file;             /* FILE (KERNEL split off; "-" standard input) */
  const char *kernel;     /* NULL: every kernel with eager signatures */
  char *out;              /* -o DIR: DIR/NAME.EXT (malloc'd); else NULL */
  char *skipped;          /* ptx of several files: why nothing of this one
                             compiles without --sig (malloc'd); else NULL */
} Input;

typedef struct Inputs {
  Input *v;               /* argc entries at most */
  int n;
  int any_cuda;           /* some input is a .cu file: NVRTC options go to those */
  int quiet;              /* check -q: no "FILE: ok" lines */
} Inputs;

static int add_input(Inputs *in, const char *arg, int split) {
  Input *x = &in->v[in->n++];
  if (split)
    kjit_cli_split_target(arg, &x->file, &x->kernel);
  else
    x->file = strdup(arg);
  if (!x->file) {
    fputs("kjit: error: out of memory\n", stderr);
    return EXIT_ERRORS;
  }
  in->any_cuda |= kjit_cli_is_cuda_file(x->file);
  return EXIT_OK;
}

static void free_inputs(Inputs *in) {
  for (int i = 0; in->v && i < in->n; i++) {
    free(in->v[i].file);
    free(in->v[i].out);
    free(in->v[i].skipped);
  }
  free(in->v);
}

/* Standard input can be read once: "-" twice is a usage error. */
static int check_stdin_once(const Cli *c, const Inputs *in) {
  int seen = 0;
  for (int i = 0; i < in->n; i++)
    if (kjit_cli_is_stdin(in->v[i].file) && seen++)
      return kjit_cli_usage(c, "'%s' (standard input) is given twice for '%s'; it can be read once",
                            "-");
  return EXIT_OK;
}

/* NVRTC options with several inputs and no .cu file among them: one usage
 * error, not one per input (a single input reports them as it loads). */
static int check_cuda_options(const Cli *c, const Inputs *in, const CliCuda *cu) {
  if (cu->n && in->n > 1 && !in->any_cuda)
    return kjit_cli_usage(c, "'%s' is an NVRTC option, for CUDA C files; no input of '%s' is a "
                             ".cu file", cu->opts[0]);
  return EXIT_OK;
}

/* A Python file gets no NVRTC option when a .cu file among the inputs
 * takes them; alone, it gets them and refuses them. */
static const CliCuda *cuda_options_for(const Inputs *in, const Input *x, const CliCuda *cu) {
  static const CliCuda none = {0};
  return kjit_cli_is_cuda_file(x->file) || !in->any_cuda ? cu : &none;
}

/* Whether the line (len bytes) already names the file. */
static int mentions(const char *line, size_t len, const char *name) {
  size_t n = strlen(name);
  for (size_t i = 0; i + n <= len; i++)
    if (strncmp(line + i, name, n) == 0)
      return 1;
  return 0;
}

/* The length of a location-less diagnostic's header, "kjit: error[E490]: "
 * ("kjit: note: " has no code), or 0 when the line has none. */
static size_t header_len(const char *line) {
  static const char *const heads[] = {"kjit: error", "kjit: warning", "kjit: note"};
  for (int k = 0; k < 3; k++) {
    size_t n = strlen(heads[k]);
    if (strncmp(line, heads[k], n) != 0)
      continue;
    if (line[n] == '[' && line[n + 1] == 'E' && strspn(line + n + 2, "0123456789") == 3 &&
        line[n + 5] == ']')
      n += 6;
    return strncmp(line + n, ": ", 2) == 0 ? n + 2 : 0;
  }
  return 0;
}

/* Prints a library error of one of several inputs.  A message without a
 * place in a file ("kjit: error[E491]: kernel 'k' has no eager signature")
 * gets the input's name, "kjit: error[E491]: FILE: ...", so each error says
 * which file it is about; located ones already start with it. */
static int report_for(const kjit_context *ctx, kjit_status st, const char *file, int several) {
  const char *e = kjit_last_error(ctx);
  if (!several || !*e)
    return kjit_cli_report(ctx, st);
  const char *name = kjit_cli_is_stdin(file) ? "<stdin>" : file;
  for (const char *line = e; *line;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
    size_t head = mentions(line, len, name) ? 0 : header_len(line);
    char buf[4096];
    if (len + strlen(name) + 8 < sizeof buf) {
      snprintf(buf, sizeof buf, "%.*s%s%s%.*s", (int)head, line, head ? name : "",
               head ? ": " : "", (int)(len - head), line + head);
      kjit_cli_put_diag(buf, stderr);
    } else {
      fprintf(stderr, "%.*s%s%s%.*s", (int)head, line, head ? name : "", head ? ": " : "",
              (int)(len - head), line + head);
    }
    line += len;
  }
  kjit_cli_flag_hints(e);
  return st == KJIT_ERROR_INVALID_ARGUMENT ? EXIT_USAGE : EXIT_ERRORS;
}

/* Loads one input with its NVRTC options; the exit status, reported. */
static int load_input(kjit_context *ctx, const Inputs *in, const Input *x, const CliCuda *cu,
                      kjit_program **prog) {
  int usage = 0;
  kjit_status st = kjit_cli_load(ctx, x->file, cuda_options_for(in, x, cu), prog, &usage);
  if (usage)
    return usage > 0 ? EXIT_USAGE : EXIT_ERRORS;
  return st == KJIT_OK ? EXIT_OK : report_for(ctx, st, x->file, in->n > 1);
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

/* Writes via a temporary file in the same directory and renames it, so the
 * destination is either the old file or the complete new one; only a
 * regular file (or a new one) is written: "-" is standard output. */
static int write_output(const char *path, const char *text, size_t len) {
  if (!path || strcmp(path, "-") == 0)
    return write_stream(stdout, "standard output", text, len);
  if (kjit_cli_text_check(path) != 0)
    return EXIT_ERRORS;
  char *tmp;
  int fd = kjit_cli_out_begin(path, &tmp);
  if (fd < 0)
    return EXIT_ERRORS;
  FILE *f = fdopen(fd, "wb");
  int ok = f && write_all(f, text, len);
  int err = errno;
  if (f ? fclose(f) != 0 : close(fd) != 0)
    ok = 0;
  if (!ok) {
    fprintf(stderr, "kjit: error: cannot write '%s': %s\n", path, strerror(err));
    kjit_cli_out_abort(tmp);
    return EXIT_ERRORS;
  }
  return kjit_cli_out_commit(tmp, path) == 0 ? EXIT_OK : EXIT_ERRORS;
}

/* ---------------------------------------------------------- kjit ptx --- */

typedef struct PtxArgs {
  Inputs in;
  const char *sig;
  const char *out;        /* -o FILE or DIR; NULL or "-": standard output */
  kjit_emit emit;
  int stats;              /* --stats: resource usage instead of the text */
  kjit_compile_options opts;
  char *path;             /* --path folders, colon-separated (malloc'd) */
  const char *globals[16]; /* --global NAME=VALUE, as written */
  int nglobals;
  CliCuda cu;             /* NVRTC options (.cu files) */
} PtxArgs;

static int parse_emit(const Cli *c, const char *v, kjit_emit *out) {
  if (strcmp(v, "kir") == 0) *out = KJIT_EMIT_KIR;
  else if (strcmp(v, "llvm") == 0) *out = KJIT_EMIT_LLVM;
  else if (strcmp(v, "ptx") == 0) *out = KJIT_EMIT_PTX;
  else if (strcmp(v, "cubin") == 0) *out = KJIT_EMIT_CUBIN;
  else {
    fprintf(stderr, "kjit: error: unknown --emit value '%s' (expected kir, llvm, ptx or cubin)\n"
                    "Try 'kjit %s --help'.\n", v, c->cmd);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/* ------------------------------------------------- kjit ptx's options --- */

static int set_emit(Cli *c, const CliOption *o, void *args, const char *v) {
  (void)o;
  return parse_emit(c, v, &((PtxArgs *)args)->emit);
}

static int set_ptx_global(Cli *c, const CliOption *o, void *args, const char *v) {
  (void)o;
  PtxArgs *a = args;
  if (a->nglobals == 16 || !strchr(v, '=') || v[0] == '=')
    return kjit_cli_usage(c, "--global expects NAME=VALUE (16 at most), not '%s' (for '%s')", v);
  a->globals[a->nglobals++] = v;
  return EXIT_OK;
}

/* FILE[:KERNEL] */
static int add_ptx_input(Cli *c, void *args, const char *arg) {
  (void)c;
  return add_input(&((PtxArgs *)args)->in, arg, 1);
}

static const CliOption ptx_options[] = {
    {.help = "options:"},
    {.name = "--sig", .metavar = "SIG", .field = offsetof(PtxArgs, sig),
     .help = "argument types, e.g. \"void(float32[::1], int64)\";\n"
             "required for a lazy kernel (plain @cuda.jit)"},
    {.name = "--arch", .metavar = "sm_XX", .field = offsetof(PtxArgs, opts.arch),
     .help = "GPU architecture, sm_50 .. sm_90a (default: the GPU present, else sm_80)"},
    {.name = "--emit", .metavar = "kir|llvm|ptx|cubin", .set = set_emit,
     .help = "what to print: kjit IR, optimized LLVM IR, PTX\n"
             "(default), or a cubin linked with the link= CUDA C\n"
             "files (NVRTC + nvJitLink; binary, use -o)"},
    {.name = "--stats", .field = offsetof(PtxArgs, stats),
     .help = "print each kernel's resource usage (registers, stack\n"
             "and spill bytes, static shared memory, largest block,\n"
             "PTX and SASS size) from the cubin nvJitLink links"},
    {.name = "-o", .metavar = "OUT|DIR", .field = offsetof(PtxArgs, out),
     .help = "write the output to OUT ('-' or none: stdout); OUT\n"
             "is only written when the compile succeeds.  A\n"
             "directory DIR gets one file per input, DIR/NAME.ptx\n"
             "for NAME.py (.kir, .ll, .cubin); it is made when\n"
             "missing if DIR ends in /, or with several inputs\n"
             "unless DIR ends in .ptx, .kir, .ll or .cubin"},
    {.name = "--opt", .metavar = "N", .set = kjit_cli_set_int,
     .field = offsetof(PtxArgs, opts.opt_level), .lo = 0, .hi = 3,
     .help = "optimization level 0..3 (default: the decorator's\n"
             "opt=, else 3)"},
    {.name = "--fastmath", .field = offsetof(PtxArgs, opts.fastmath),
     .help = "fast-math float arithmetic (as fastmath=True)"},
    {.name = "--lineinfo", .field = offsetof(PtxArgs, opts.lineinfo),
     .help = "source line information in the PTX (as lineinfo=True)"},
    {.name = "--file-prefix-map", .metavar = "OLD=NEW", .field = offsetof(PtxArgs, opts.file_prefix_map),
     .help = "record source paths under OLD as under NEW in the\n"
             "line information (NEW empty: relative to OLD)"},
    {.name = "--debug", .field = offsetof(PtxArgs, opts.debug),
     .help = "check every array index and assert (as debug=True):\n"
             "a failing one prints its message and traps"},
    {.name = "--fits32", .field = offsetof(PtxArgs, opts.fits32),
     .help = "the variant launches pick when every array argument's\n"
             "extents and byte span are below 2^31 (32-bit offsets)"},
    {.name = "--grid32", .field = offsetof(PtxArgs, opts.grid32),
     .help = "the variant launches pick when gridDim * blockDim is\n"
             "below 2^31 in every dimension (32-bit cuda.grid())"},
    {.name = "--max-registers", .metavar = "N", .set = kjit_cli_set_int,
     .field = offsetof(PtxArgs, opts.max_registers), .lo = 0, .hi = 255,
     .help = "registers per thread, 1..255 (0 = no limit; default:\n"
             "the decorator's max_registers=)"},
    CLI_PATH_ROW(PtxArgs, path),
    {.name = "--global", .metavar = "NAME=VALUE", .set = set_ptx_global,
     .help = "bind a global the host computes to an array VALUE\n"
             "(as kjit run takes it; repeatable)"},
    CLI_HELP_ROW,
    {.help = "CUDA C files (FILE.cu[:KERNEL], KERNEL a name expression such as\n"
             "'scale<float>'): --emit ptx|cubin, no --sig, and NVRTC options"},
    CLI_CUDA_ROWS(PtxArgs, cu),
    {0},
};

const CliHelp kjit_ptx_help = {
    "usage: kjit ptx FILE.py[:KERNEL]... [options]\n"
    "\n"
    "Compile kernel files.  With :KERNEL, compile that kernel (for each of its\n"
    "eager signatures, or for --sig); without, every kernel that has an eager\n"
    "signature (@cuda.jit(\"void(...)\")), all in one module.  FILE '-' reads\n"
    "a Python kernel file from standard input.  Several FILEs are compiled\n"
    "each on its own: their outputs go to standard output in order, or with\n"
    "-o DIR to DIR/NAME.ptx (.kir, .ll, .cubin) each; a whole file with\n"
    "nothing that compiles without a signature (lazy kernels, @vectorize,\n"
    "@cuda.reduce) is skipped and listed at the end, not an error.\n"
    "\n",
    ptx_options,
    "\n"
    "examples:\n"
    "  kjit ptx examples/vector_add.py --arch sm_90 -o vector_add.ptx\n"
    "  kjit ptx examples/vector_add.cu --arch sm_90\n"
    "  kjit ptx docs/examples/saxpy.py:saxpy --sig \"void(float32, float32[:], float32[:])\"\n"
    "  kjit ptx examples/vector_add.py:add_kernel --emit kir\n"
    "  kjit ptx examples/vector_add.py:add_kernel --sig \"void(float32[:], float32[:], float32[:])\" --stats\n"
    "  kjit ptx examples/*.py --arch sm_90 -o build/ptx\n"
    "  cat examples/vector_add.py | kjit ptx - --arch sm_80\n"};

static int is_directory(const char *path) {
  struct stat st;
  return path && strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* -o DIR: DIR/NAME.EXT for each input, NAME its file name without .py,
 * .cu or .cuh.  Standard input has no name; two inputs of one NAME would
 * write one file: both are usage errors, before anything compiles. */
static int name_outputs(const Cli *c, PtxArgs *a) {
  static const char *const ext[] = {[KJIT_EMIT_KIR] = ".kir", [KJIT_EMIT_LLVM] = ".ll",
                                    [KJIT_EMIT_PTX] = ".ptx", [KJIT_EMIT_CUBIN] = ".cubin"};
  for (int i = 0; i < a->in.n; i++) {
    Input *x = &a->in.v[i];
    if (kjit_cli_is_stdin(x->file))
      return kjit_cli_usage(c, "-o names a directory, and standard input ('%s') has no file "
                               "name to write there (for '%s'); give -o FILE", "-");
    const char *base = strrchr(x->file, '/') ? strrchr(x->file, '/') + 1 : x->file;
    const char *dot = strrchr(base, '.');
    int len = dot && dot != base && (!strcmp(dot, ".py") || !strcmp(dot, ".cu") ||
                                     !strcmp(dot, ".cuh")) ? (int)(dot - base) : (int)strlen(base);
    size_t n = strlen(a->out) + (size_t)len + 16;
    if (!(x->out = malloc(n)))
      return EXIT_ERRORS;
    snprintf(x->out, n, "%s%s%.*s%s", a->out, a->out[strlen(a->out) - 1] == '/' ? "" : "/", len,
             base, ext[a->emit]);
    for (int k = 0; k < i; k++)
      if (strcmp(a->in.v[k].out, x->out) == 0) {
        fprintf(stderr, "kjit: error: '%s' and '%s' would both be written to '%s'\n"
                        "hint: compile them into different -o directories\n",
                a->in.v[k].file, x->file, x->out);
        return EXIT_USAGE;
      }
  }
  return EXIT_OK;
}

/* mkdir -p DIR: each missing folder of the path made in turn. */
static int make_directory(const char *dir) {
  char *p = strdup(dir);
  int ok = p != NULL;
  for (char *q = p ? p + 1 : NULL; ok; q++) {
    if (*q && *q != '/')
      continue;
    char save = *q;
    *q = '\0';
    ok = mkdir(p, 0777) == 0 || errno == EEXIST;
    *q = save;
    if (!save)
      break;
  }
  if (!ok)
    fprintf(stderr, "kjit: error: cannot make the directory '%s': %s\n", dir, strerror(errno));
  free(p);
  return ok && is_directory(dir) ? EXIT_OK : EXIT_ERRORS;
}

/* Where the outputs go: -o DIR names one file per input; -o FILE takes
 * one input (several would overwrite each other); a binary cubin of
 * several inputs needs a directory.  A DIR that does not exist yet is
 * made when there are several inputs or it ends in '/'. */
static int plan_outputs(const Cli *c, PtxArgs *a) {
  struct stat st;
  size_t n = a->out ? strlen(a->out) : 0;
  const char *dot = n ? strrchr(a->out, '.') : NULL;
  int file_name = dot && !strchr(dot, '/') && (!strcmp(dot, ".ptx") || !strcmp(dot, ".kir") ||
                                               !strcmp(dot, ".ll") || !strcmp(dot, ".cubin"));
  if (n && strcmp(a->out, "-") != 0 && ((a->in.n > 1 && !file_name) || a->out[n - 1] == '/') &&
      stat(a->out, &st) != 0 && errno == ENOENT && make_directory(a->out) != EXIT_OK)
    return EXIT_ERRORS;
  if (is_directory(a->out))
    return name_outputs(c, a);
  if (a->in.n > 1 && a->out && strcmp(a->out, "-") != 0)
    return kjit_cli_usage(c, "-o '%s' is not a directory, and several inputs cannot be written to "
                             "one file (for '%s'); give -o DIR, or no -o for standard output",
                          a->out);
  if (a->in.n > 1 && a->emit == KJIT_EMIT_CUBIN)
    return kjit_cli_usage(c, "--emit cubin of several inputs needs -o DIR (one binary file "
                             "each)%s (for '%s')", "");
  return EXIT_OK;
}

static int parse_ptx_args(Cli *c, PtxArgs *a) {
  kjit_compile_options_init(&a->opts);
  a->emit = KJIT_EMIT_PTX;
  if (!(a->in.v = calloc((size_t)c->argc, sizeof *a->in.v)))
    return EXIT_ERRORS;
  int rc = kjit_cli_parse(c, ptx_options, a, add_ptx_input);
  if (rc != EXIT_OK)
    return rc;
  if (!a->in.n)
    return kjit_cli_usage(c, "missing FILE.py%s for '%s'", "[:KERNEL]");
  rc = check_stdin_once(c, &a->in);
  if (rc == EXIT_OK)
    rc = check_cuda_options(c, &a->in, &a->cu);
  return rc != EXIT_OK ? rc : plan_outputs(c, a);
}

/* --global NAME=VALUE, bound to each input's program. */
static int bind_ptx_globals(kjit_context *ctx, kjit_program *prog, const PtxArgs *a) {
  int rc = EXIT_OK;
  for (int i = 0; rc == EXIT_OK && i < a->nglobals; i++) {
    const char *eq = strchr(a->globals[i], '=');
    char *name = strndup(a->globals[i], (size_t)(eq - a->globals[i]));
    rc = name ? kjit_cli_bind_global(ctx, prog, name, eq + 1) : EXIT_ERRORS;
    free(name);
  }
  return rc;
}

/* Of several whole files (no :KERNEL, no --sig), one whose functions all
 * need a signature (E491: lazy kernels, @vectorize, @cuda.reduce, device
 * functions only) is skipped, not an error: x->skipped says why. */
static int skip_lazy(kjit_context *ctx, const PtxArgs *a, Input *x, const kjit_program *prog) {
  if (a->in.n < 2 || x->kernel || a->sig || !strstr(kjit_last_error(ctx), "error[E491]"))
    return 0;
  int n = 0;
  kjit_program_kernel_count(prog, &n);
  char list[256] = "";
  for (int i = 0; i < n && strlen(list) < 200; i++) {
    const char *name;
    kjit_program_kernel_name(prog, i, &name);
    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", name);
  }
  char why[400];
  if (n)
    snprintf(why, sizeof why, "lazy kernel%s %s: compile %s with %s:%s --sig \"void(...)\"",
             n > 1 ? "s" : "", list, n > 1 ? "each" : "it", x->file, n > 1 ? "KERNEL" : list);
  else
    snprintf(why, sizeof why, "no @cuda.jit kernel (a @vectorize or @cuda.reduce function, or "
             "device functions): compile one with %s:NAME --sig \"...\"", x->file);
  x->skipped = strdup(why);
  return x->skipped != NULL;
}

/* --stats: one line per kernel (malloc'd text in *out). */
static kjit_status ptx_stats(kjit_program *prog, const PtxArgs *a, const Input *x, char **out,
                             size_t *len) {
  enum { MAX = 16 };
  kjit_resources r[MAX];
  int n = 0;
  kjit_status st = kjit_program_resources(prog, x->kernel, a->sig, &a->opts, r, MAX, &n);
  FILE *f = st == KJIT_OK ? open_memstream(out, len) : NULL;
  if (st == KJIT_OK && !f)
    return KJIT_ERROR_OUT_OF_MEMORY;
  for (int i = 0; f && i < n && i < MAX; i++) {
    kjit_cli_print_resources(f, &r[i]);
    kjit_cli_print_occupancy(f, &r[i]);
  }
  if (f)
    fclose(f);
  return st;
}

/* Compiles one input and writes its output; the exit status, reported. */
static int ptx_one(kjit_context *ctx, const PtxArgs *a, Input *x) {
  kjit_program *prog = NULL;
  char *text = NULL;
  size_t len = 0;
  int rc = load_input(ctx, &a->in, x, &a->cu, &prog);
  if (rc == EXIT_OK)
    rc = bind_ptx_globals(ctx, prog, a);
  if (rc == EXIT_OK) {
    kjit_status st = a->stats ? ptx_stats(prog, a, x, &text, &len)
                              : kjit_program_emit(prog, x->kernel, a->sig, &a->opts, a->emit, &text, &len);
    if (st != KJIT_OK && skip_lazy(ctx, a, x, prog)) {
      rc = EXIT_OK;
    } else if (st != KJIT_OK) {
      rc = report_for(ctx, st, x->file, a->in.n > 1);
    } else {
      kjit_cli_print_diagnostics(ctx); /* warnings */
      rc = write_output(x->out ? x->out : a->out, text, len);
    }
  }
  kjit_free(text);
  kjit_program_destroy(prog);
  return rc;
}

/* The worst status of the inputs: 2 (usage) over 1 (errors) over 0. */
static int worse(int rc, int r) {
  return r > rc ? r : rc;
}

/* The files skip_lazy set aside, listed once after the others' output. */
static void print_skipped(const Inputs *in) {
  int n = 0;
  for (int i = 0; i < in->n; i++)
    n += in->v[i].skipped != NULL;
  if (!n)
    return;
  fprintf(stderr, "kjit: note: skipped %d of %d files: nothing in them compiles without a "
                  "signature\n", n, in->n);
  for (int i = 0; i < in->n; i++)
    if (in->v[i].skipped)
      fprintf(stderr, "  %s: %s\n", in->v[i].file, in->v[i].skipped);
}

int kjit_cli_ptx(Cli *c, kjit_context *ctx) {
  PtxArgs a = {0};
  int rc = parse_ptx_args(c, &a);
  if (rc == EXIT_OK && kjit_context_set_search_path(ctx, a.path) != KJIT_OK)
    rc = kjit_cli_report(ctx, KJIT_ERROR_OUT_OF_MEMORY);
  for (int i = 0, ok = rc == EXIT_OK; ok && i < a.in.n; i++)
    rc = worse(rc, ptx_one(ctx, &a, &a.in.v[i]));
  print_skipped(&a.in);
  free_inputs(&a.in);
  kjit_cli_cuda_free(&a.cu);
  free(a.path);
  return rc;
}

/* -------------------------------------------------------- kjit check --- */

/* check's arguments: FILEs and options. */
typedef struct CheckArgs {
  Inputs in;
  const char *sig;        /* --sig: FILE:KERNEL typed for these arguments */
  char *path;             /* --path folders, colon-separated (malloc'd) */
  CliCuda cu;             /* NVRTC options (.cu files) */
} CheckArgs;

static int add_check_input(Cli *c, void *args, const char *arg) {
  (void)c;
  return add_input(&((CheckArgs *)args)->in, arg, 1);
}

static const CliOption check_options[] = {
    {.help = "options:"},
    {.name = "--sig", .metavar = "SIG", .field = offsetof(CheckArgs, sig),
     .help = "type FILE:KERNEL for these argument types, e.g.\n"
             "\"void(float32[::1], int64)\": a lazy kernel checked fully"},
    CLI_PATH_ROW(CheckArgs, path),
    {.name = "--quiet", .alias = "-q", .field = offsetof(CheckArgs, in.quiet),
     .help = "print nothing for files without errors (as gcc -fsyntax-only)"},
    CLI_HELP_ROW,
    {.help = "\nFILE.cu: compile the CUDA C file with NVRTC and report its errors at\n"
             "their line and column, with these NVRTC options (for the .cu files\n"
             "among several FILEs):"},
    CLI_CUDA_ROWS(CheckArgs, cu),
    {0},
};

const CliHelp kjit_check_help = {
    "usage: kjit check FILE.py[:KERNEL]... [--sig SIG] [options]\n"
    "\n"
    "Parse each FILE.py and type-check every eager signature of every decorated\n"
    "function (kernels and device functions).  A lazy kernel (plain @cuda.jit)\n"
    "has no types before a call: its names, attributes and calls are checked,\n"
    "and the \"ok\" line says it was only partly checked; FILE:KERNEL --sig SIG\n"
    "types it fully.  Prints each file's diagnostics to stderr, and\n"
    "\"FILE.py: ok\" to stdout for each file without errors; exit status 1 when\n"
    "any file has errors.  FILE '-' reads a Python kernel file from standard\n"
    "input (named <stdin> in messages).\n"
    "\n",
    check_options, ""};

static int parse_check_args(Cli *c, CheckArgs *a) {
  if (!(a->in.v = calloc((size_t)c->argc, sizeof *a->in.v)))
    return EXIT_ERRORS;
  int rc = kjit_cli_parse(c, check_options, a, add_check_input);
  if (rc != EXIT_OK)
    return rc;
  if (!a->in.n)
    return kjit_cli_usage(c, "missing FILE.py%s for '%s'", "");
  rc = check_stdin_once(c, &a->in);
  return rc != EXIT_OK ? rc : check_cuda_options(c, &a->in, &a->cu);
}

/* Types FILE:KERNEL (for --sig, else its eager signatures) as a compile
 * would, stopping at kjit's IR. */
static kjit_status check_kernel(kjit_program *prog, const char *kernel, const char *sig) {
  char *text = NULL;
  size_t len;
  kjit_status st = kjit_program_emit(prog, kernel, sig, NULL, KJIT_EMIT_KIR, &text, &len);
  kjit_free(text);
  return st;
}

/* The lazy kernels of prog (those a compile without a signature refuses
 * with E491), comma-separated into buf; their count. */
static int lazy_kernels(kjit_context *ctx, kjit_program *prog, char *buf, size_t size) {
  int n = 0, lazy = 0;
  buf[0] = '\0';
  if (kjit_program_kernel_count(prog, &n) != KJIT_OK)
    return 0;
  for (int i = 0; i < n; i++) {
    const char *name;
    if (kjit_program_kernel_name(prog, i, &name) != KJIT_OK ||
        check_kernel(prog, name, NULL) == KJIT_OK || !strstr(kjit_last_error(ctx), "error[E491]"))
      continue;
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s", lazy++ ? ", " : "", name);
  }
  return lazy;
}

/* Checks one input: its errors to stderr, or "FILE: ok" to stdout (with
 * the lazy kernels that were only partly checked). */
static int check_one(kjit_context *ctx, const CheckArgs *a, const Input *x) {
  const Inputs *in = &a->in;
  const char *name = kjit_cli_is_stdin(x->file) ? "<stdin>" : x->file;
  kjit_program *prog = NULL;
  char lazy[512];
  int nlazy = 0;
  int rc = load_input(ctx, in, x, &a->cu, &prog);
  if (rc == EXIT_OK) {
    int one = (x->kernel || a->sig) && !kjit_cli_is_cuda_file(x->file);
    kjit_status st = one ? check_kernel(prog, x->kernel, a->sig) : kjit_program_check(prog);
    if (st != KJIT_OK) {
      rc = report_for(ctx, st, x->file, in->n > 1);
    } else {
      kjit_cli_print_diagnostics(ctx);
      if (!one && !kjit_cli_is_cuda_file(x->file))
        nlazy = lazy_kernels(ctx, prog, lazy, sizeof lazy);
      if (in->quiet)
        (void)0;
      else if (one)
        printf("%s%s%s: ok\n", name, x->kernel ? ":" : "", x->kernel ? x->kernel : "");
      else if (nlazy)
        printf("%s: ok, partly: lazy kernel%s %s checked without argument types (names, "
               "attributes, calls); check %s fully with %s:%s --sig \"void(...)\"\n", name,
               nlazy > 1 ? "s" : "", lazy, nlazy > 1 ? "each" : "it", name,
               nlazy > 1 ? "KERNEL" : lazy);
      else
        printf("%s: ok\n", name);
      fflush(stdout);                   /* in order with the next file's errors */
    }
  }
  kjit_program_destroy(prog);
  return rc;
}

int kjit_cli_check(Cli *c, kjit_context *ctx) {
  CheckArgs a = {0};
  int rc = parse_check_args(c, &a);
  if (rc == EXIT_OK && kjit_context_set_search_path(ctx, a.path) != KJIT_OK)
    rc = kjit_cli_report(ctx, KJIT_ERROR_OUT_OF_MEMORY);
  for (int i = 0, ok = rc == EXIT_OK; ok && i < a.in.n; i++)
    rc = worse(rc, check_one(ctx, &a, &a.in.v[i]));
  free(a.path);
  kjit_cli_cuda_free(&a.cu);
  free_inputs(&a.in);
  return rc;
}
