/* codegen.h - typed kjit IR -> LLVM IR -> PTX (NVPTX) or host code.
 *
 * The only directory that includes LLVM headers.  A target is described by
 * data (CgTarget), not by `if (gpu)` tests scattered through the lowering.
 * Kernel ABI (documented in docs/internals.md): each array parameter is one
 * by-value struct { T *data; int64 shape[N]; int64 strides[N]; } (strides in
 * bytes); each scalar parameter is passed as itself (bool as i8).
 *
 * Host CPU target (cg_host.c, run by host/host_exec.c): a kernel's entry
 * is `void <symbol>(HostCtx *ctx, void *args)` where args points to one
 * struct holding the parameters in order, each with its natural C alignment
 * (as a C compiler lays out the equivalent struct):
 *   array (ndim N)  { void *data; int64_t shape[N]; int64_t strides[N]; }
 *                   size 8 + 16N, align 8 (strides in bytes)
 *   bool            uint8_t 0/1                   size 1, align 1
 *   intK/uintK/fK   itself                        size = align = K/8
 *   complex64       float[2]  (re, im)            size 8, align 4
 *   complex128      double[2]                     size 16, align 8
 * cg_host_arg_layout computes exactly these offsets; the launcher packs with
 * it.  Internally every host function also takes (HostCtx *, tid.x, tid.y,
 * tid.z) as hidden leading parameters. */
#ifndef KJIT_CODEGEN_CODEGEN_H
#define KJIT_CODEGEN_CODEGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/diag.h"
#include "common/host_abi.h"
#include "ir/ir.h"

typedef enum CgTargetKind { CG_NVPTX, CG_HOST } CgTargetKind;

typedef struct CgTarget {
  CgTargetKind kind;
  const char *triple;    /* "nvptx64-nvidia-cuda" or the host triple */
  const char *cpu;       /* "sm_90", or the host CPU name */
  const char *features;  /* e.g. "+ptx78", "" for the default */
  int ptx_version_max;   /* clamp (e.g. 80 for 8.0), 0 = no clamp */
  bool pic;              /* position-independent code (host assembly that
                            `kjit aot` puts into a C file, which may go into a
                            PIE or a shared library) */
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
  bool cpu_fibers;       /* host: every kernel with barriers on fibers,
                            none split at its barriers (KJIT_CPU_FIBERS=1) */
  const char *prefix_map; /* "OLD=NEW" for source paths in line info, or NULL
                            (kjit_compile_options.file_prefix_map) */
} CgOptions;

/* Everything codegen keeps across compiles in one process: the LLVM context
 * is NOT shared (each compile has its own), but parsed libdevice bitcode
 * and initialized targets are. Thread-safe after creation. */
typedef struct CgSession CgSession;
CgSession *cg_session_new(void);
void cg_session_free(CgSession *s);
/* The libdevice bitcode to use (copied; NULL: the build's default), set
 * by the runtime from its settings before the first compile: codegen reads
 * no environment. */
void cg_session_set_libdevice(CgSession *s, const char *path);

/* Compile every function of c (c->funcs[0] and its callees) into one module
 * and emit it as requested.  Several compiles may be emitted into one PTX
 * module (kjit ptx with no kernel name): pass them as an array.
 * On success *out is malloc'd text (caller frees) and *len its length.
 * Errors (e.g. libdevice missing, LLVM failure) go to diags with code E5xx. */
bool cg_emit(CgSession *s, IrCompile *const *compiles, int ncompiles,
             const CgTarget *target, const CgOptions *opts, CgEmit what,
             char **out, size_t *len, Diags *diags);

/* ---- host CPU target ------------------------------------------------ */

typedef struct CgArgSlot {
  size_t offset, size, align;   /* of one parameter in the argument struct */
} CgArgSlot;

/* Layout of the host argument struct for params[0..n): fills slots (n
 * entries) and *total (padded to the largest alignment).  false when a
 * parameter type cannot be passed to a host kernel (strings; tuples of
 * scalars and tuples are laid out as LLVM lays out their structs). */
bool cg_host_arg_layout(const Type *const *params, int n, CgArgSlot *slots, size_t *total);

/* One kernel entry added to a host JIT. */
typedef struct CgHostKernel {
  void *fn;              /* void fn(HostCtx *, void *args) */
  int flags;             /* HOST_FN_PER_BLOCK or HOST_USES_BARRIERS (common/host_abi.h) */
  size_t static_shared;  /* bytes of static shared memory per block */
} CgHostKernel;

/* An ORC LLJIT for the host: modules added to it stay until cg_jit_free.
 * One per program; adds and lookups are serialized by the caller. */
typedef struct CgJit CgJit;
/* symbols: a NULL-terminated list of HostSym tables (common/host_abi.h) the
 * JIT defines by address for the code it runs: the executor's kjit_host_*
 * functions and the CPU's libdevice; copied, the caller keeps them.  NULL
 * (with a diagnostic) on failure. */
CgJit *cg_jit_new(const HostSym *const *symbols, Diags *diags);
void cg_jit_free(CgJit *jit);
/* Lowers compiles[0..n) into one module for the host (O<opts->opt_level>,
 * the host CPU's features, vectorizers on), hands it to the JIT and fills
 * out[i] (may be NULL) with the entry of compiles[i]->funcs[0].  Entry
 * symbols are renamed uniquely per JIT, so a kernel may be added again. */
bool cg_jit_add(CgJit *jit, IrCompile *const *compiles, int n, const CgOptions *opts,
                CgHostKernel *out, Diags *diags);
/* Lowers c (c->funcs[0] a device function, then its callees) for the host
 * and adds, besides, an external C-ABI wrapper `<symbol>__cabi` taking the
 * function's native parameters (scalars as themselves, bool as i8, arrays
 * as a pointer to their { data, shape[N], strides[N] } struct) and
 * returning its value (bool as i8; None as void).  The wrapper calls the
 * function as thread (0,0,0) of a 1x1x1 launch with a zeroed HostCtx, so
 * a function that synchronizes or uses shared memory is refused.  *fn
 * receives the wrapper's address.  Serialized by the caller like adds. */
bool cg_jit_add_cabi(CgJit *jit, IrCompile *c, const CgOptions *opts, void **fn, Diags *diags);

/* A host module compiled to a relocatable object for this machine, and the
 * entries it defines: what the disk cache stores for the CPU target, so a
 * later process loads it (cg_jit_load) without running LLVM's pipeline. */
typedef struct CgHostEntry {
  char name[256];        /* the entry's symbol in the object */
  int flags;             /* as CgHostKernel */
  size_t static_shared;
} CgHostEntry;

typedef struct CgHostObject {
  void *data;            /* the object file (malloc'd) */
  size_t len;
  CgHostEntry *entries;  /* one per compile (malloc'd); the C-ABI wrapper for cabi */
  int n;
} CgHostObject;

/* Lowers and optimizes compiles[0..n) as cg_jit_add does (cabi: n == 1 and
 * c's device function with its C-ABI wrapper as cg_jit_add_cabi) and emits
 * the object the JIT would have made.  Entry symbols are <symbol>.<suffix>
 * (suffix NULL: a JIT-unique one, "k<N>"); a suffix derived from the cache
 * key keeps a cached object's names apart from every other's.  Adds nothing
 * to the JIT.  Serialized by the caller like adds. */
bool cg_jit_compile(CgJit *jit, IrCompile *const *compiles, int n, bool cabi, const CgOptions *opts,
                    const char *suffix, CgHostObject *obj, Diags *diags);
/* Adds an object (copied) to the JIT, unless one with the same entry names
 * was added before, and fills out[0..obj->n) with its entries' addresses. */
bool cg_jit_load(CgJit *jit, const CgHostObject *obj, CgHostKernel *out, Diags *diags);
void cg_host_object_free(CgHostObject *obj);
/* Lowers and optimizes compiles[0..n) for `target` (a CG_HOST target: the
 * host triple, a portable CPU such as "generic", pic set) as cg_jit_compile
 * does, and emits the module as assembly text for `kjit aot`.  Entry symbols
 * are <symbol>.<suffix>; entries[0..n) get their names, flags and static
 * shared sizes.  *out is malloc'd text.  Needs no JIT. */
bool cg_host_emit_asm(CgSession *s, IrCompile *const *compiles, int n, const CgTarget *target,
                      const CgOptions *opts, const char *suffix, CgHostEntry *entries, char **out,
                      size_t *len, Diags *diags);
/* The machine the JIT compiles for (triple, CPU name, CPU features). */
const CgTarget *cg_jit_target(const CgJit *jit);
/* Address of a symbol defined in the JIT (or the process); NULL if none. */
void *cg_jit_lookup(CgJit *jit, const char *symbol);
/* The host target description (triple, CPU, features of this machine);
 * strings owned by LLVM's allocator: release with cg_host_target_free. */
void cg_host_target(CgTarget *t);
void cg_host_target_free(CgTarget *t);

/* Versions that belong in cache keys: "19.1.x" and libdevice's hash. */
const char *cg_llvm_version(void);
/* 64-bit identity of the libdevice file this session uses: its path, size,
 * mtime and inode, read by stat (the bitcode is read only when a compile
 * links it); 0 when the file is missing.  Thread-safe. */
uint64_t cg_libdevice_hash(CgSession *s);

#endif
