/* cuc.h - CUDA C kernels (`__global__` functions in a .cu file or a string)
 * run through the same API, runner and cache as Python kernels.
 *
 * cuc_decl.c reads the declarations: a small scanner finds each
 * `__global__` function (name, template parameters, parameter list) and a
 * parser of the parameter text maps each parameter to a pointer to, or a
 * value of, a dtype; anything else is rejected by name.  It needs nothing
 * but the text, so argument checks work without NVRTC or a GPU.
 * cuc.c holds the program side: loading, kernel lookup by name expression
 * (`vector_add`, `scale<float>`, `static_cast<void(*)(int*)>(f)`), NVRTC
 * compiles (cached on disk), emit/check, the launch checks and the CUDA
 * specialization. */
#ifndef KJIT_RUNTIME_CUC_H
#define KJIT_RUNTIME_CUC_H

#include <stdbool.h>

#include "common/diag.h"
#include "data/array.h"
#include "cuda/cuda.h"
#include "runtime/runtime.h"

/* Diagnostic codes: common/diag_codes.h (E074..E078). */

/* ------------------------------------------------ declarations (decl) --- */

/* One `__global__` function as written. */
typedef struct CucDecl {
  const char *name;          /* unqualified */
  SrcLoc loc;                /* the name */
  int ntparams;              /* template parameters (0: not a template) */
  const char **tparams;      /* their names */
  bool is_template;
  int ntoks;                 /* the parameter list's tokens, '(' ')' excluded */
  const char **toks;
} CucDecl;

/* One parameter, parsed. */
typedef struct CucParam {
  const char *name;          /* "" when unnamed */
  const char *text;          /* "const float *a" (template arguments substituted) */
  const char *type;          /* "const float *", the text without the name */
  bool pointer;
  bool any;                  /* void *: any element type */
  RtDtype dtype;             /* the value's type, or the pointee's */
} CucParam;

/* Every __global__ function of s (comments, strings and preprocessor
 * lines skipped; a declaration repeated by its definition counted once).
 * *out in arena; returns the count. */
int cuc_scan(Arena *a, const Source *s, CucDecl **out);

/* d's parameters, template parameter i replaced by targs[i] (ntargs may be
 * fewer: the rest stay as written).  False with what is wrong in *why
 * (arena text naming the parameter). */
bool cuc_params(Arena *a, const CucDecl *d, const char *const *targs, int ntargs,
                CucParam **out, int *n, const char **why);

/* A name expression taken apart: `k`, `ns::k`, `k<float, 4>`, or
 * `static_cast<void(*)(float*, int)>(k)` / `(void(*)(float*, int))k` (with
 * or without &).  name: the unqualified function; targs: the template
 * arguments; casts: the cast's parameter types (ncasts -1: no cast).
 * False when the expression has none of these forms. */
typedef struct CucName {
  const char *name;
  const char **targs;
  int ntargs;
  const char **casts;
  int ncasts;
} CucName;
bool cuc_parse_name(Arena *a, const char *expr, CucName *out);

/* The parameter type `text` ("float*", "const int *") as a CucParam, or
 * false. */
bool cuc_parse_type(Arena *a, const char *text, CucParam *out);

/* ------------------------------------------------------ programs (cuc) --- */

/* A kernel asked for by name expression: its parameters and the IrFunc
 * stub that kernel handles and the launchers name it by. */
typedef struct CucKernel {
  struct CucKernel *next;
  const char *expr;          /* as the user spelled it */
  const CucDecl *decl;
  CucParam *params;
  int nparams;
  IrFunc *fn;                /* name = expr, nparams, locals = parameter names */
  struct kjit_kernel *handle; /* made by kjit_program_kernel, or NULL */
} CucKernel;

#define RT_CUC_MAX_OPTIONS 64       /* NVRTC options of one program */

/* What a CUDA C program keeps (in its arena). */
typedef struct RtCuProgram {
  CucDecl *decls;
  int ndecls;
  const char **opts;         /* the user's NVRTC options */
  int nopts;
  CucKernel *kernels;        /* looked up so far, newest first */
} RtCuProgram;

/* kjit_program_load_file on a .cu / .cuh file (default options). */
bool rt_cuc_is_cuda_path(const char *path);
/* Loads CUDA C text as a program; ends the call (rt_finish). */
kjit_status rt_cuc_load(kjit_context *ctx, RtCall *call, const char *name, const char *text,
                        size_t len, const kjit_cuda_options *opts, kjit_program **out);

/* The kernel for name expression `expr` (made on first use); NULL with
 * an RT_E_CUC_* diagnostic. */
CucKernel *rt_cuc_kernel(kjit_program *prog, const char *expr, Diags *diags);
CucKernel *rt_cuc_kernel_of(const kjit_program *prog, const IrFunc *fn);
/* Does expr name one kernel of prog (its parameters not looked at)? */
bool rt_cuc_names_kernel(kjit_program *prog, const char *expr, Diags *diags);

/* kjit_program_emit / kjit_program_check of a CUDA C program. */
kjit_status rt_cuc_emit(kjit_program *prog, const char *kernel, const char *signature,
                        const kjit_compile_options *opts, kjit_emit what, char **out,
                        size_t *len);
kjit_status rt_cuc_check(kjit_program *prog);

/* Launch checks, before anything touches a driver: each argument against
 * its C parameter (arrays: C-contiguous, the pointee's dtype; scalars:
 * numbers, converted as C converts them; no tuples). */
bool rt_cuc_check_args(const CucKernel *k, const RtValue *vals, int nargs, Diags *diags);

/* cuda_run.c: the loaded specialization of CUDA C kernel f for cu's
 * device (compiled by NVRTC, cached), its scalar dtypes in arg_dtype;
 * inserted into cu's table under key. */
RtCudaSpec *rt_cuc_spec(RtCuda *cu, kjit_program *prog, IrFunc *f, const RtSpecKey *key,
                        Diags *diags);

#endif
