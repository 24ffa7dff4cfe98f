/* codegen.h - typed kjit IR -> LLVM IR -> PTX (NVPTX) or host code.
 *
 * The only directory that includes LLVM headers.  A target is described by
 * data (CgTarget), not by `if (gpu)` tests scattered through the lowering.
 * Kernel ABI (documented in docs/internals.md): each array parameter is one
 * by-value struct { T *data; int64 shape[N]; int64 strides[N]; } (strides in
 * bytes); each scalar parameter is passed as itself (bool as i8). */
#ifndef KJIT_CODEGEN_CODEGEN_H
#define KJIT_CODEGEN_CODEGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/diag.h"
#include "ir/ir.h"

typedef enum CgTargetKind { CG_NVPTX, CG_HOST } CgTargetKind;

typedef struct CgTarget {
  CgTargetKind kind;
  const char *triple;    /* "nvptx64-nvidia-cuda" or the host triple */
  const char *cpu;       /* "sm_90", or the host CPU name */
  const char *features;  /* e.g. "+ptx78", "" for the default */
  int ptx_version_max;   /* clamp (e.g. 80 for 8.0), 0 = no clamp */
} CgTarget;

typedef enum CgEmit {
  CG_EMIT_LLVM,          /* textual LLVM IR after optimization */
  CG_EMIT_LLVM_RAW,      /* textual LLVM IR before optimization */
  CG_EMIT_PTX,           /* PTX assembly text */
} CgEmit;

/* Per-compile knobs that change the output (all part of any cache key). */
typedef struct CgOptions {
  int opt_level;         /* 0..3 */
  bool fastmath;
  bool lineinfo;
  bool debug;
  int max_registers;     /* 0 = none */
} CgOptions;

/* Everything codegen keeps across compiles in one process: the LLVM context
 * is NOT shared (each compile has its own), but parsed libdevice bitcode
 * and initialized targets are. Thread-safe after creation. */
typedef struct CgSession CgSession;
CgSession *cg_session_new(void);
void cg_session_free(CgSession *s);

/* Compile every function of c (c->funcs[0] and its callees) into one module
 * and emit it as requested.  Several compiles may be emitted into one PTX
 * module (kjit ptx with no kernel name): pass them as an array.
 * On success *out is malloc'd text (caller frees) and *len its length.
 * Errors (e.g. libdevice missing, LLVM failure) go to diags with code E5xx. */
bool cg_emit(CgSession *s, IrCompile *const *compiles, int ncompiles,
             const CgTarget *target, const CgOptions *opts, CgEmit what,
             char **out, size_t *len, Diags *diags);

/* Versions that belong in cache keys: "19.1.x" and libdevice's hash. */
const char *cg_llvm_version(void);
/* 64-bit hash of the libdevice bitcode this session uses (loads it on first
 * call; 0 when libdevice is unavailable).  Thread-safe. */
uint64_t cg_libdevice_hash(CgSession *s);

#endif
