/* aot.h - what the files of aot/ share: `kjit aot` (kjit_program_aot)
 * compiles a program's kernels for the CUDA and CPU targets (aot.c) and
 * writes them as a C header and source that need no libkjit (aot_write.c,
 * with the run time those files carry, aot_runtime.c).  aot/ sits above
 * api/ and below the CLI; it uses the compile driver and the targets'
 * public headers, never their internals. */
#ifndef KJIT_AOT_AOT_H
#define KJIT_AOT_AOT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/strbuf.h"
#include "lower/reduce.h"
#include "runtime/compile.h"

/* One launcher: a kernel for one signature. */
typedef struct AotUnit {
  const char *kernel;         /* the Python name (run.k for a kernel defined in a host function) */
  const char *cname;          /* kernel as a C identifier (run_k) */
  const char *symbol;         /* the mangled entry (docs/internals.md, "The kernel ABI") */
  const char *launcher;       /* the C name after NAME_ */
  const char *signature;      /* "add_kernel(x: float32[::1], ...)" for comments and messages */
  int nparams;
  const char **names;         /* the parameters' C names */
  const Type **types;         /* their types (the program's type table) */
  const Type *ret;            /* a device function's return type (--emit ptx) */
  const char *ufunc;          /* a @vectorize function's name: the launcher takes
                                 arrays and a stream and picks the geometry */
  int vec;                    /* ufunc: elements per thread (16-byte loads) */
  int host_flags;             /* CPU: HOST_FN_* of the entry */
  const char *host_entry;     /* CPU: the entry's symbol in the assembly */
  size_t host_static_shared;  /* CPU: static shared bytes per block */
  bool has_cuda;              /* compiled into the cubins (not a CPU-only unit) */
  int reduce;                 /* a @cuda.reduce kernel: index in Aot.reduces + 1;
                                 0: none.  Its launcher is internal (aot_unit_<k>) */
} AotUnit;

/* One @cuda.reduce function for one array type: a public launcher that
 * runs its generated kernels (lower/reduce.h), the CUDA one and the CPU
 * one, each a unit of its target's jobs. */
typedef struct AotReduce {
  IrFunc *fn;                 /* the @cuda.reduce def */
  const Type *array;          /* the array type of --sig ("float32[::1]") */
  IrReduceKernels k;          /* generated once into the program */
  const char *launcher;       /* the C name after NAME_ */
  int cuda_unit, cpu_unit;    /* indices in Aot.units; -1: not built */
} AotReduce;

/* One embedded module. */
typedef struct AotImage {
  int sm;                     /* 80 for sm_80 */
  bool arch_specific;         /* sm_90a */
  int variant;                /* bit 0 fits32, bit 1 grid32 */
  bool is_ptx;
  char *data;                 /* malloc'd; PTX NUL-terminated */
  size_t len;                 /* bytes to embed (PTX: with its NUL) */
} AotImage;

typedef struct Aot {
  kjit_program *prog;
  const char *name;           /* NAME */
  const char *source_name;    /* for the files' headers, or NULL */
  bool cuda, cpu;             /* the targets carried */
  Arena *arena;               /* the call's */
  Diags *diags;
  Vec(AotUnit) units;
  Vec(AotUnit) selected;      /* per unit of the first job: what selection knew
                                 (ufunc, vec, reduce) before compiling; every
                                 job selects the same units in the same order */
  Vec(AotReduce) reduces;
  Vec(AotImage) images;
  const char *arch_list;      /* "sm_80, sm_90" for messages of the run time */
  char *host_asm;             /* CPU: assembly (malloc'd) */
  const char *host_arch;      /* CPU: the C preprocessor test of the machine it is for */
} Aot;

/* aot_write.c: the header and the source (malloc'd text). */
char *aot_write_header(const Aot *a, size_t *len);
/* The CUDA C header of device functions emitted as PTX (kjit_program_aot_device). */
char *aot_write_device_header(const Aot *a, const char *arch, size_t *len);
char *aot_write_source(const Aot *a, size_t *len);

/* aot_runtime.c: the run time every generated source carries, C text. */
extern const char aot_runtime_prelude[];
extern const char aot_runtime_body[];

#endif
