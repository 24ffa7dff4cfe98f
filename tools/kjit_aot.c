/* kjit_aot.c - `kjit aot FILE.py[:KERNEL [--sig SIG]...]... -o DIR`: writes
 * DIR/NAME.h and DIR/NAME.c through kjit_program_aot (the generator is in
 * the library, aot/).  Each --sig belongs to the KERNEL before it (given
 * first, to the file's only kernel); a
 * KERNEL without --sig takes its eager signatures; no KERNEL at all, every
 * kernel with eager signatures.  Written against <kjit.h> only. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

typedef struct AotArgs {
  char *file;                 /* the one kernel file */
  kjit_aot_unit *units;       /* argc entries at most */
  char **splits;              /* each FILE.py:KERNEL's copy: units[].kernel
                                 points into one; argc entries at most */
  int nsplits;
  int nunits;
  const char *archs;          /* --arch sm_80,sm_90 */
  const char *name;           /* --name */
  const char *target;         /* --target cuda|cpu|all */
  const char *emit;           /* --emit lib|ptx|ltoir */
  const char *out;            /* -o DIR */
  char *path;                 /* --path */
  int bad;                    /* a usage error was printed */
} AotArgs;

static int set_sig(Cli *c, const CliOption *o, void *args, const char *value) {
  AotArgs *a = args;
  (void)o;
  (void)c;
  if (!a->nunits) /* FILE.py --sig SIG: the file's one kernel */
    a->units[a->nunits++] = (kjit_aot_unit){NULL, NULL};
  kjit_aot_unit *u = &a->units[a->nunits - 1];
  if (u->signature) /* a second --sig for the same kernel: a unit of its own */
    a->units[a->nunits++] = (kjit_aot_unit){u->kernel, NULL}, u = &a->units[a->nunits - 1];
  u->signature = value;
  return EXIT_OK;
}

static const CliOption aot_options[] = {
    {.name = "--sig", .metavar = "SIG", .set = set_sig,
     .help = "a signature of the KERNEL before it, e.g. \"void(float32[::1], int64)\";\n"
             "repeat it for several signatures (default: the eager ones)"},
    {.name = "--arch", .metavar = "sm_XX,...", .field = offsetof(AotArgs, archs),
     .help = "GPU architectures to build cubins for (default sm_80); the\n"
             "highest one's PTX is embedded too, for newer GPUs"},
    {.name = "--target", .metavar = "cuda|cpu|all", .field = offsetof(AotArgs, target),
     .help = "the code the library carries (default all: the GPU's,\n"
             "and the CPU's for this machine as the fallback)"},
    {.name = "--emit", .metavar = "lib|ptx", .field = offsetof(AotArgs, emit),
     .help = "lib (default): the C library of launchers; ptx: device\n"
             "functions alone as NAME.ptx (C ABI, one --arch) and their\n"
             "extern \"C\" __device__ declarations in NAME.h, for CUDA C"},
    {.name = "--name", .metavar = "NAME", .field = offsetof(AotArgs, name),
     .help = "the library's name: NAME.h, NAME.c, NAME_* symbols\n"
             "(default: the file's name)"},
    {.name = "-o", .metavar = "DIR", .field = offsetof(AotArgs, out),
     .help = "the folder to write NAME.h and NAME.c to (required;\n"
             "made if missing); both are replaced at once, or neither"},
    CLI_PATH_ROW(AotArgs, path),
    CLI_HELP_ROW,
    {0}};

const CliHelp kjit_aot_help = {
    "usage: kjit aot FILE.py[:KERNEL [--sig SIG]...]... -o DIR [options]\n\n"
    "Compile kernels ahead of time into a C library: DIR/NAME.h declares a typed\n"
    "launcher per kernel and signature, DIR/NAME.c holds the cubins, the PTX, the\n"
    "CPU code and a small run time.  Programs built from them need no libkjit, no\n"
    "LLVM and no CUDA toolkit; the driver is loaded at run time, and without a GPU\n"
    "the launchers run the CPU code.  Each --sig belongs to the KERNEL before it.\n"
    "KERNEL is named as for kjit run: also FUNCTION.KERNEL for a kernel defined\n"
    "inside a host function ('run(3).KERNEL' binds its parameters), or a factory\n"
    "call 'make_k(2)'; its launcher is NAME_ and the name as a C identifier\n"
    "(run.k: NAME_run_k).\n\n"
    "options:\n",
    aot_options,
    "example:\n"
    "  kjit aot examples/vector_add.py:add_kernel --arch sm_80,sm_90 -o build/aot\n"
    "See docs/aot.md.\n"};

static int positional(Cli *c, void *args, const char *arg) {
  AotArgs *a = args;
  char *file = NULL;
  const char *kernel = NULL;
  kjit_cli_split_target(arg, &file, &kernel);
  if (!file)
    return fputs("kjit: error: out of memory\n", stderr), EXIT_ERRORS;
  if (a->file && strcmp(a->file, file) != 0) {
    free(file);
    return kjit_cli_usage(c, "'%s': kjit aot makes one library of one kernel file; run it once per file (%s)",
                          arg);
  }
  a->file = file;
  a->splits[a->nsplits++] = file;
  if (kernel) {
    a->units[a->nunits++] = (kjit_aot_unit){kernel, NULL};
  }
  return EXIT_OK;
}

/* The library's default name: the file's base name as an identifier. */
static char *default_name(const char *file) {
  const char *b = strrchr(file, '/');
  b = b ? b + 1 : file;
  size_t n = strcspn(b, ".");
  char *s = malloc(n + 2);
  if (!s)
    return NULL;
  size_t k = 0;
  if (b[0] >= '0' && b[0] <= '9')
    s[k++] = '_';
  for (size_t i = 0; i < n; i++)
    s[k++] = (b[i] >= 'a' && b[i] <= 'z') || (b[i] >= 'A' && b[i] <= 'Z') || (b[i] >= '0' && b[i] <= '9') ? b[i] : '_';
  s[k] = '\0';
  return s;
}

/* "sm_80,sm_90" split in place into archs[]. */
static int split_archs(char *list, const char **archs, int max) {
  int n = 0;
  for (char *t = strtok(list, ","); t && n < max; t = strtok(NULL, ","))
    archs[n++] = t;
  return n;
}

/* DIR/NAME.EXT.tmp written whole (renamed into place by publish), or an
 * error naming it. */
static int write_file(const char *dir, const char *name, const char *ext, const char *text, size_t len) {
  size_t n = strlen(dir) + strlen(name) + strlen(ext) + 8;
  char *path = malloc(n);
  if (!path)
    return fputs("kjit: error: out of memory\n", stderr), EXIT_ERRORS;
  snprintf(path, n, "%s/%s%s.tmp", dir, name, ext);
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(text, 1, len, f) == len;
  ok = f && fclose(f) == 0 && ok;
  if (!ok) {
    fprintf(stderr, "kjit: error: cannot write %s: %s\n", path, strerror(errno));
    remove(path);
  }
  free(path);
  return ok ? EXIT_OK : EXIT_ERRORS;
}

/* DIR/NAME.EXT.tmp -> DIR/NAME.EXT (rename: a build never sees half a
 * file); with ok false, the temporary file is removed. */
static int publish(const char *dir, const char *name, const char *ext, int ok) {
  size_t n = strlen(dir) + strlen(name) + strlen(ext) + 8;
  char *tmp = malloc(n), *path = malloc(n);
  int rc = EXIT_ERRORS;
  if (tmp && path) {
    snprintf(tmp, n, "%s/%s%s.tmp", dir, name, ext);
    snprintf(path, n, "%s/%s%s", dir, name, ext);
    if (!ok)
      remove(tmp);
    else if (rename(tmp, path) == 0)
      rc = EXIT_OK;
    else
      fprintf(stderr, "kjit: error: cannot write %s: %s\n", path, strerror(errno));
  }
  free(tmp);
  free(path);
  return ok ? rc : EXIT_ERRORS;
}

static int generate(kjit_context *ctx, AotArgs *a) {
  kjit_program *prog = NULL;
  kjit_status st = kjit_context_set_search_path(ctx, a->path);
  if (st == KJIT_OK)
    st = kjit_program_load_file(ctx, a->file, &prog);
  if (st != KJIT_OK)
    return kjit_cli_report(ctx, st);
  kjit_aot_options o;
  kjit_aot_options_init(&o);
  char *name = a->name ? NULL : default_name(a->file);
  char *archs = a->archs ? strdup(a->archs) : NULL;
  const char *list[64];
  const char *base = strrchr(a->file, '/');
  o.name = a->name ? a->name : name;
  o.units = a->units;
  o.nunits = a->nunits;
  o.archs = list;
  o.narchs = archs ? split_archs(archs, list, 64) : 0;
  o.targets = !a->target || strcmp(a->target, "all") == 0 ? KJIT_AOT_CUDA | KJIT_AOT_CPU
              : strcmp(a->target, "cuda") == 0          ? KJIT_AOT_CUDA
                                                         : KJIT_AOT_CPU;
  o.source_name = base ? base + 1 : a->file;
  char *h = NULL, *s = NULL;
  size_t hn = 0, sn = 0;
  int ptx = a->emit && strcmp(a->emit, "ptx") == 0;
  if (ptx && !a->target)
    o.targets = KJIT_AOT_CUDA;
  st = ptx ? kjit_program_aot_device(prog, &o, &h, &hn, &s, &sn) : kjit_program_aot(prog, &o, &h, &hn, &s, &sn);
  const char *ext = ptx ? ".ptx" : ".c";
  int rc = st != KJIT_OK ? kjit_cli_report(ctx, st) : EXIT_OK;
  if (rc == EXIT_OK)
    kjit_cli_print_diagnostics(ctx);
  if (rc == EXIT_OK && mkdir(a->out, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "kjit: error: cannot create %s: %s\n", a->out, strerror(errno));
    rc = EXIT_ERRORS;
  }
  int wrote_h = rc == EXIT_OK && write_file(a->out, o.name, ".h", h, hn) == EXIT_OK;
  int wrote_c = wrote_h && write_file(a->out, o.name, ext, s, sn) == EXIT_OK;
  if (rc == EXIT_OK) /* both or neither */
    rc = publish(a->out, o.name, ".h", wrote_h && wrote_c) | publish(a->out, o.name, ext, wrote_c);
  kjit_free(h);
  kjit_free(s);
  free(name);
  free(archs);
  kjit_program_destroy(prog);
  return rc;
}

int kjit_cli_aot(Cli *c, kjit_context *ctx) {
  AotArgs a = {0};
  a.units = calloc((size_t)c->argc + 1, sizeof *a.units);
  a.splits = calloc((size_t)c->argc + 1, sizeof *a.splits);
  if (!a.units || !a.splits)
    return fputs("kjit: error: out of memory\n", stderr), EXIT_ERRORS;
  int rc = kjit_cli_parse(c, aot_options, &a, positional);
  if (rc == EXIT_OK && !a.file)
    rc = kjit_cli_usage(c, "no kernel file given to '%s'; e.g. kjit %s k.py:kernel -o DIR", "aot");
  if (rc == EXIT_OK && !a.out)
    rc = kjit_cli_usage(c, "'%s' needs -o DIR for NAME.h and NAME.c (%s)", "aot");
  if (rc == EXIT_OK && a.target && strcmp(a.target, "cuda") && strcmp(a.target, "cpu") && strcmp(a.target, "all"))
    rc = kjit_cli_usage(c, "--target takes cuda, cpu or all, not '%s' (%s)", a.target);
  if (rc == EXIT_OK && a.emit && strcmp(a.emit, "ltoir") == 0)
    rc = kjit_cli_usage(c, "--emit ltoir: kjit cannot write LTO-IR (LLVM's NVPTX backend writes PTX, and LTO-IR "
                           "is NVVM's own format); use --emit ptx: nvcc and nvJitLink link that PTX with LTO-IR (%s)",
                        "aot");
  if (rc == EXIT_OK && a.emit && strcmp(a.emit, "lib") && strcmp(a.emit, "ptx") && strcmp(a.emit, "ltoir"))
    rc = kjit_cli_usage(c, "--emit takes lib or ptx, not '%s' (%s)", a.emit);
  if (rc == EXIT_OK)
    rc = generate(ctx, &a);
  for (int i = 0; i < a.nsplits; i++)
    free(a.splits[i]);
  free(a.splits);
  free(a.units);
  free(a.path);
  return rc;
}
