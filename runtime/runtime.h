/* runtime.h - what the files of runtime/ share behind include/kjit.h.
 *
 * A kjit_context owns the last-error text and the lazily created codegen
 * session; a kjit_program owns one Arena holding the source, the AST and the
 * generic IR.  Every API call that can fail begins with rt_begin (which
 * clears the last error) and ends with rt_finish (which renders the call's
 * diagnostics into the context).  Nothing here is global. */
#ifndef KJIT_RUNTIME_RUNTIME_H
#define KJIT_RUNTIME_RUNTIME_H

#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>

#include "cache/cache.h"
#include "codegen/codegen.h"
#include "common/arena.h"
#include "common/diag.h"
#include "common/strbuf.h"
#include "ir/ir.h"
#include "lower/lower.h"
#include "typing/typing.h"
#include "kjit.h"
#include "runtime/api.h"

/* Diagnostic codes: common/diag_codes.h (E0xx: files and the API, E49x: picking
 * the kernel, signature and target of a compile). */

/* The last error of one thread's calls on a context: each calling thread
 * has its own, so a message stays valid while other threads make calls. */
typedef struct RtErrorSlot {
  struct RtErrorSlot *next;
  pthread_t thread;       /* the caller it belongs to */
  char *last_error;       /* malloc'd; "" (static) when none */
  char *last_diags;       /* malloc'd; "" (static) when none */
  char *err_file;         /* malloc'd copy of the first error's path or NULL */
  int err_line, err_col;
} RtErrorSlot;

struct kjit_context {
  kjit_context_options opts;
  pthread_mutex_t lock;   /* recursive; held by every call on the context or
                             its handles (rt_begin..rt_finish, rt_lock) */
  RtErrorSlot *errors;    /* one per calling thread (pthread_t values are
                             reused, so bounded by the threads alive at once) */
  RtErrorSlot spare;      /* shared by threads whose slot could not be made */
  CgSession *cg;          /* created on the first LLVM/PTX emit */
  char default_arch[16];  /* arch when a compile names none; "" = not probed */
  kjit_program *programs; /* loaded programs, destroyed with the context */
  kjit_program *dead_programs; /* destroyed ones, newest first (quarantine) */
  struct RtCache *cache;  /* disk cache (runtime/compile_cache.c), opened on first use */
  RtApiState api;         /* arrays, resolved target, timings (runtime/api.h) */
  struct RtCuda *cuda;    /* the GPU (cuda/cuda.h), opened on the first cuda launch */
  char *search_path;      /* kjit_context_set_search_path (malloc'd) or NULL */
};

#define RT_PROGRAM_LIVE 0x6b6a5067u   /* "kjPg" */
#define RT_PROGRAM_DEAD 0xdead9067u
#define RT_PROGRAM_QUARANTINE 16      /* destroyed programs kept poisoned */

struct kjit_program {
  uint32_t magic;         /* RT_PROGRAM_LIVE; RT_PROGRAM_DEAD once destroyed
                             (kept, arena and all, in ctx->dead_programs so its
                             kernel handles are detected as stale) */
  kjit_context *ctx;
  kjit_program *next;     /* in ctx->programs */
  Arena arena;            /* source, AST, generic IR, interned types */
  Source src;
  IrProgram ir;
  Vec(IrFunc *) kernels;  /* the kernels (not device functions), source order */
  struct kjit_kernel **kernel_handles; /* per kernel, made on demand (arena) */
  struct kjit_function *functions; /* device function handles made so far (arena) */
  /* host CPU target (host/host_launch.c): JIT, specializations, thread
   * pool; NULL until the first host launch, freed by rt_host_program_free */
  struct RtHost *host;
  struct kjit_ufunc *ufuncs; /* @vectorize handles made so far (api/ufunc.c, arena) */
  struct kjit_reduction *reductions; /* @cuda.reduce handles (api/reduce.c) */
  Vec(struct kjit_array *) bound_arrays; /* device copies of bound globals (globals.c) */
  struct RtCuProgram *cuc; /* a CUDA C program (cuda/cuc.h), else NULL */
};

/* globals.c: destroys the device arrays the program made for bound globals. */
void rt_globals_free(kjit_program *prog);

/* One API call's diagnostics: a scratch arena for their text. */
typedef struct RtCall {
  kjit_context *ctx;
  RtErrorSlot *slot;      /* the calling thread's last error */
  Arena arena;
  Diags diags;
} RtCall;

/* context.c */
/* Takes ctx's lock and clears the calling thread's last error. */
void rt_begin(RtCall *call, kjit_context *ctx);
/* Renders the call's diagnostics into the calling thread's slot of ctx
 * (last error / last diagnostics / location), frees the scratch arena,
 * releases ctx's lock and returns `st`, or a status derived from the first
 * error's code when st is KJIT_OK but errors were reported. */
kjit_status rt_finish(RtCall *call, kjit_status st);
kjit_status rt_status_of(const Diags *d);  /* from the first error's code */
kjit_status rt_status_of_code(int code);    /* common/diag_codes.h's status of a code */

/* program.c: the whole file as malloc'd NUL-terminated text; an RT_E_IO
 * diagnostic naming path when it cannot be read. */
bool rt_read_file(const char *path, char **text, size_t *len, Diags *d);
/* The same for an open stream (kjit_program_load_fd); path names it. */
bool rt_read_stream(FILE *f, const char *path, char **text, size_t *len, Diags *d);
/* A program of the given source (copied into its arena), its IR empty:
 * program.c's loaders and the CUDA C loader (cuc.c) fill it.  NULL on OOM. */
kjit_program *rt_program_new(kjit_context *ctx, const char *name, const char *text, size_t len);
/* modules.c: finds, reads and parses the modules p's file imports and
 * links them into p->ir.ast (ir/modlink.h).  from_file: p->src.path is a
 * file whose folder is searched first.  False after reporting errors. */
bool rt_load_modules(kjit_program *p, bool from_file, Diags *d);
/* The context's per-thread error slots: made ready at creation, freed at
 * destruction (api/context.c). */
void rt_init_error_slots(kjit_context *ctx);
void rt_free_error_slots(kjit_context *ctx);
/* Clears the calling thread's last error (ctx's lock held). */
void rt_clear_error(kjit_context *ctx);
/* ctx's lock for calls that do not go through rt_begin (destroy functions,
 * the CUDA fast launch, timings).  Recursive. */
void rt_lock(const kjit_context *ctx);
void rt_unlock(const kjit_context *ctx);
CgSession *rt_cg_session(kjit_context *ctx); /* lazily created; NULL on failure */
void rt_unlink_program(kjit_context *ctx, kjit_program *p);
/* A live program handle (not NULL, not destroyed). */
static inline bool rt_program_live(const kjit_program *p) { return p && p->magic == RT_PROGRAM_LIVE; }
/* Parks a destroyed program (its resources already released) so a stale
 * handle to it or its kernels is detected; frees the oldest past
 * RT_PROGRAM_QUARANTINE, or all of them with all == true. */
void rt_quarantine_program(kjit_context *ctx, kjit_program *p, bool all);

/* cuda/cuda_run.c: the architecture of a compile given none: the GPU
 * present (probed once per context), else sm_80. */
const char *rt_default_arch(kjit_context *ctx);
/* compile.c: "no kernel named 'x' in f.py" with a did-you-mean hint, or
 * "'x' is a device function, not a kernel". */
void rt_report_unknown_kernel(kjit_program *prog, const char *name, RtCall *call);
/* compile.c: "no device function named 'x' in f.py" with a did-you-mean
 * hint over the program's device functions (kjit_call). */
void rt_report_unknown_function(kjit_program *prog, const char *name, RtCall *call);

/* compile.c: kernel f for one signature -> PTX for `arch` with the .version
 * at most ptx_isa_max (x10, 0 = any); *ptx malloc'd; *lineinfo says whether
 * line info was asked for.  Diagnostics are copied into diags. */
bool rt_compile_ptx(kjit_program *prog, IrFunc *f, const Signature *sig, const char *arch,
                    int ptx_isa_max, char **ptx, size_t *len, bool *lineinfo, Diags *diags);

/* ufunc.c: a kernel generated for a @vectorize function (not listed among
 * the program's kernels), for the runners' lookups by name; NULL if none. */
IrFunc *rt_ufunc_kernel_find(kjit_program *prog, const char *name);
/* ufunc.c: the contiguous elementwise kernel of @vectorize function uf for
 * a scalar signature (its eager signature `index`, or -1 for another) and
 * the kernel signature to compile it with: `kjit ptx FILE:NAME`. */
bool rt_ufunc_kernel_for(kjit_program *prog, IrFunc *uf, int index, const Signature *scalar,
                         IrFunc **kernel, Signature *ksig);
/* reduce.c: the generated kernel named `name` of one of prog's reductions,
 * or NULL; the launchers look here after the program's own kernels. */
IrFunc *rt_find_generated(const kjit_program *prog, const char *name);
/* program.c: what a launch by name runs: one of prog's kernels, else a
 * kernel kjit generated (@vectorize, @cuda.reduce); NULL with an
 * RT_E_NO_KERNEL diagnostic listing the kernels. */
IrFunc *rt_find_launchable(kjit_program *prog, const char *name, Diags *diags);
/* The kernel a factory call names ("make_blur(2)": lower/factory.c), made
 * and added to prog's kernels on first use; NULL when name is no such call
 * (nothing reported) or the instance failed (errors in diags). */
IrFunc *rt_factory_kernel(kjit_program *prog, const char *name, Diags *diags);
/* reduce.c: releases the device scratch arrays of prog's reductions. */
void rt_reduce_program_free(kjit_program *prog);

/* api_device.c: the CUDA device ordinal ctx is bound to (its option, else
 * $KJIT_DEVICE, else 0).  rt_context_device reports a KJIT_DEVICE that is
 * not a number (RT_E_ARGUMENT); rt_context_ordinal takes 0 for it. */
bool rt_context_device(const kjit_context *ctx, int *ordinal, Diags *diags);
int rt_context_ordinal(const kjit_context *ctx);

/* cuda_run.c: hooks of the CUDA target into the context and programs. */
void rt_cuda_release(kjit_context *ctx);          /* at context destroy */
void rt_cuda_forget_program(kjit_program *prog);  /* at program destroy */
/* Opens the context's GPU (rt_context_device) if not yet open; false
 * with the reason (RT_E_CUDA_NO_DEVICE...) in diags. */
bool rt_cuda_available(kjit_context *ctx, Diags *diags);

/* compile_cache.c: a compile's key, computed before codegen and used again to store, and
 * its claim (the entry's compile lock while this process compiles). */
typedef struct RtCachedCompile {
  bool keyed;                  /* false: cache off, nothing to store */
  uint8_t key[RT_CACHE_KEY_SIZE];
  RtCacheClaim claim;
} RtCachedCompile;

/* The context's cache, opened on first use. */
RtCache *rt_context_cache(kjit_context *ctx, Diags *warnings);
/* Hook for runtime/compile.c: computes the key of emitting `compiles` as
 * PTX and claims it (rt_cache_claim).  On a hit *out and *len receive
 * malloc'd PTX (NUL-terminated) and true is returned: codegen is skipped.
 * Otherwise the caller compiles and must call rt_cache_store_ptx. */
bool rt_cache_find_ptx(kjit_context *ctx, CgSession *s, IrCompile *const *compiles,
                       int ncompiles, const CgTarget *target, const CgOptions *opts,
                       RtCachedCompile *cc, char **out, size_t *len, Diags *diags);
/* Hook for runtime/compile.c after the emit: stores the PTX (NULL: the
 * compile failed, nothing stored) and releases the claim. */
void rt_cache_store_ptx(kjit_context *ctx, RtCachedCompile *cc,
                        IrCompile *const *compiles, int ncompiles,
                        const char *ptx, size_t len, Diags *diags);

#endif
