/* cli_run.h - what `kjit run` (tools/kjit.c) hands to its helpers in other
 * files of the tool: the ARGs and -o outputs as parsed, nothing more. */
#ifndef KJIT_TOOLS_CLI_RUN_H
#define KJIT_TOOLS_CLI_RUN_H

#include <stdio.h>

#include "cli.h"
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

/* NVRTC options of `kjit run|ptx|check` on a CUDA C file (tools/kjit_cuda.c),
 * as kjit_cuda_options takes them (malloc'd strings). */
typedef struct CliCuda {
  char **opts;
  int n;
} CliCuda;

/* Stores one NVRTC option of a CLI_CUDA_ROWS row into the CliCuda at the
 * row's field: -I DIR as "-IDIR", --nvrtc-opt OPT as OPT. */
int kjit_cli_cuda_set(Cli *c, const CliOption *o, void *args, const char *value);

/* The NVRTC options of `kjit run|ptx|check`, rows of their option tables
 * (after a heading that says what they apply to). */
#define CLI_CUDA_ROW(opt, meta, form_, text, Type, member)                                  \
  {.name = opt, .metavar = meta, .form = form_, .help = text, .set = kjit_cli_cuda_set,   \
   .field = offsetof(Type, member)}
#define CLI_CUDA_ROWS(Type, member)                                                        \
  CLI_CUDA_ROW("-I", "DIR", CLI_JOINED, "add DIR to the include path (also -IDIR)", Type,   \
               member),                                                                    \
  CLI_CUDA_ROW("-D", "NAME[=V]", CLI_JOINED, "define macro NAME (also -DNAME[=V])", Type,   \
               member),                                                                    \
  CLI_CUDA_ROW("-U", "NAME", CLI_JOINED, "undefine macro NAME (also -UNAME)", Type, member),\
  CLI_CUDA_ROW("--use_fast_math", NULL, CLI_SEPARATE, "NVRTC's fast-math mode", Type,       \
               member),                                                                    \
  CLI_CUDA_ROW("-std", "STD", CLI_EQ_ONLY, "the C++ dialect: c++17 or c++20", Type,        \
               member),                                                                    \
  CLI_CUDA_ROW("--nvrtc-opt", "OPT", CLI_SEPARATE,                                          \
               "pass OPT to NVRTC (repeatable): one of the above, or\n"                     \
               "-lineinfo, --fmad=B, -ftz=B, -prec-div=B, -prec-sqrt=B",                    \
               Type, member)

/* 1 when path names a CUDA C file (.cu, .cuh). */
int kjit_cli_is_cuda_file(const char *path);

/* Loads `file` (tools/kjit_input.c): a CUDA C file with cu's options, else
 * a Python kernel file; "-" reads standard input as a Python kernel file
 * named "<stdin>".  cu must hold no option for a Python file: a usage
 * error is printed, *usage set to 1 and KJIT_ERROR_INVALID_ARGUMENT
 * returned.  *usage is -1 when an error was printed here (standard input
 * unreadable or too large) rather than left on the context. */
kjit_status kjit_cli_load(kjit_context *ctx, const char *file, const CliCuda *cu,
                          kjit_program **out, int *usage);
void kjit_cli_cuda_free(CliCuda *cu);
/* 1 when `file` is "-", standard input. */
int kjit_cli_is_stdin(const char *file);

/* "file.cu:scale<float>" -> 1 with the length of the file part when arg
 * names a CUDA C file followed by ':' and a kernel name expression. */
int kjit_cli_split_cuda_target(const char *arg, size_t *file_len);

/* One kernel's resource usage as `kjit ptx --stats` and `kjit run --time`
 * print it (tools/kjit_resources.c): one line, "name arch: field value,
 * ...", the same fields in the same order every time. */
void kjit_cli_print_resources(FILE *f, const kjit_resources *r);
/* Then, indented, the occupancy of its best block (and of 256 threads, the
 * habit) without dynamic shared memory (kjit_occupancy_best_block). */
void kjit_cli_print_occupancy(FILE *f, const kjit_resources *r);

/* --grid cover:NAME: grid[d] = ceil(shape[d] / block[d]) for each of the
 * array's 1 to 3 dimensions (1 beyond them), as a Numba user writes
 * `(n + tpb - 1) // tpb`.  `val` is the value bound to NAME (NULL: no such
 * parameter).  Returns the exit status, the error printed (a scalar, an
 * empty array, more than 3 dimensions, a dimension over CUDA's grid limit). */
/* --block auto: the block (x only) with the best occupancy for the kernel
 * compiled for these arguments' types (kjit_program_resources for the
 * present GPU's architecture, else sm_80; kjit_occupancy_best_block with
 * dyn_shared bytes); a note on stderr says what was chosen.  Returns the
 * exit status, the error printed. */
int kjit_cli_auto_block(kjit_context *ctx, kjit_program *prog, const char *kernel,
                        const kjit_arg *vals, int n, size_t dyn_shared, uint32_t block[3]);

/* --profile: "profile: kernel K ms, arrays B bytes, effective bandwidth
 * G GB/s[, occupancy ...]": the array arguments' bytes (each counted once,
 * as if read or written once) over the kernel time, and on the cuda target
 * the theoretical occupancy of this block from the launched kernel's
 * resources (kjit_last_resources, kjit_occupancy_compute). */
void kjit_cli_print_profile(kjit_context *ctx, const kjit_arg *vals, int n, const uint32_t block[3],
                            size_t dyn_shared, double run_ms);

int kjit_cli_cover_grid(const char *name, const kjit_arg *val, const uint32_t block[3],
                        uint32_t grid[3]);

/* `kjit tune` (tools/kjit_tune.c), once kjit run's reading has bound the
 * arguments: ref is the configuration as given (--grid, --block, --shared;
 * its block and grid are the first candidate), cover_array the array of
 * --grid cover:NAME or NULL, budget the seconds the whole run may take,
 * repeat the timed runs per candidate (0: as many as the budget allows, at
 * least 5, at most 200). */
typedef struct CliTune {
  kjit_context *ctx;
  kjit_kernel *kernel;
  const char *kname;
  kjit_arg *vals;
  int nvals;
  const char *const *params;   /* parameter names, nvals of them */
  kjit_launch_config ref;
  const kjit_array *cover_array;
  double budget;
  int repeat;
} CliTune;
int kjit_cli_tune(const CliTune *t);
/* `kjit run --block tuned`: the stored record applied to cfg (grid as
 * given, for the block kjit tune started from); *found 0: none (a note;
 * the caller uses --block auto), 1: applied, 2: applied and the grid is the
 * record's (SM count), so --grid cover: must not replace it. */
int kjit_cli_tuned_block(kjit_context *ctx, kjit_kernel *k, const char *kname, const kjit_arg *vals,
                         int n, int explicit_grid, kjit_launch_config *cfg, int *found);

/* Raw pointer arguments of `kjit run` (tools/kjit_ptr.c): NAME=ptr:VALUE
 * makes the array VALUE and passes its address (types.CPointer(T)
 * parameters).  kjit_cli_ptr_value returns VALUE when spec has the ptr:
 * prefix, else NULL. */
const char *kjit_cli_ptr_value(const char *spec);
/* The launch's arguments: vals with every is_ptr[i] array replaced by a
 * pointer to its elements; on the cuda target the pointer is into a device
 * copy (*dev[i], else NULL).  The array must be C-contiguous and of a
 * number dtype.  Prints the error and returns 2 for a usage error (not an
 * array, records, strided), 1 for another failure (the device copy). */
int kjit_cli_ptr_args(kjit_context *ctx, const kjit_arg *vals, const unsigned char *is_ptr, int n,
                      const char *const *names, kjit_arg *out, kjit_array **dev);
/* After the launch: each device copy copied back into its host array, then
 * destroyed.  Prints the error and returns nonzero on failure. */
int kjit_cli_ptr_back(kjit_context *ctx, const kjit_arg *vals, kjit_array **dev, int n);

#endif
