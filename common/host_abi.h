/* host_abi.h - the host-CPU kernel ABI: what code that codegen's host target
 * (codegen/cg_host.c, cg_jit.c) emits and the executor that runs it
 * (host/host_exec.c) agree on.  It belongs to neither stage, so it sits
 * below both: codegen/ and runtime/ include it, and it includes nothing of
 * kjit's.  The executor's semantics (barriers, warp operations, the grid
 * barrier, the pool) and its functions are in host/host_exec.h.
 *
 * == Kernel entry ==
 *   void fn(HostCtx *ctx, void *args)
 * `args` points to the packed argument struct built by the launcher (its
 * layout belongs to codegen and the launcher; the executor never reads it).
 *
 * Three ways to run a block, chosen by the launch flags:
 *   flags 0                   fn is called once per thread, x fastest, then
 *                             y, then z; ctx->tid holds the thread index.
 *                             The same ctx is reused: fn must not keep it.
 *   HOST_FN_PER_BLOCK         fn is called once per block and loops over
 *                             the block's threads itself (what codegen emits
 *                             for barrier-free kernels so LLVM can vectorize
 *                             over x); ctx->tid is {0,0,0}.
 *   HOST_FN_BLOCK_RUN         (with PER_BLOCK) fn runs ctx->block_run
 *                             consecutive blocks in linear order starting at
 *                             ctx->ctaid: a worker's run of blocks (up to 64)
 *                             is one call, so the per-call set-up is paid
 *                             once per run, not per block.  Used only when the
 *                             kernel has no shared memory (shared memory is
 *                             zero-filled per block); else block_run is 1.
 *   HOST_FN_REGIONS           (with PER_BLOCK) fn is a kernel split at its
 *                             barriers: it runs the block in rounds, each a
 *                             loop over the live threads taking each from
 *                             its resume point to its next barrier, and
 *                             calls kjit_host_region_frame/_next (below).
 *   HOST_USES_BARRIERS        each thread runs fn on its own fiber (a 64 KiB
 *                             stack with a guard page) with its own ctx; the
 *                             kjit_host_sync* functions switch fibers.
 * PER_BLOCK and USES_BARRIERS together are rejected.
 *
 * == HostCtx == (offsets fixed; codegen loads them with constant GEPs)
 *   0  uint32 tid[3]      threadIdx
 *  12  uint32 ntid[3]     blockDim
 *  24  uint32 ctaid[3]    blockIdx
 *  36  uint32 nctaid[3]   gridDim
 *  48  void  *shared      this block's shared memory, 64-byte aligned: the
 *                         static part at offset 0, the dynamic part at
 *                         RT_HOST_DYN_SHARED_OFFSET(static_bytes) (16-aligned)
 *  56  uint64 dyn_shared_bytes
 *  64  void  *block       executor state; opaque to codegen
 *  72  uint32 block_run   HOST_FN_BLOCK_RUN: blocks this call runs (>= 1)
 *  76  uint32 raised      set where a raise ends the thread in a device
 *                         function; the callers return too (cg_raise.c)
 *  sizeof 80
 * Shared memory is zero-filled before each block (CUDA leaves it undefined;
 * zero makes runs reproducible).
 *
 * == Symbols JIT code calls == (the executor's, declared in host_exec.h)
 *   void kjit_host_syncthreads(HostCtx *)
 *   int  kjit_host_syncthreads_count(HostCtx *, int pred)  -> threads with pred != 0
 *   int  kjit_host_syncthreads_and(HostCtx *, int pred)    -> 1 if all preds != 0
 *   int  kjit_host_syncthreads_or(HostCtx *, int pred)     -> 1 if any pred != 0
 *   void kjit_host_syncwarp(HostCtx *, uint32_t mask)
 *   void kjit_host_sync_grid(HostCtx *)   g.sync() of cuda.cg.this_grid():
 *        only under HOST_GRID_SYNC (host_exec.h, "Grid barrier")
 *   u32  kjit_host_warp_shfl(HostCtx *, u32 mask, u32 value, i32 lane, i32 mode)
 *        mode HOST_SHFL_*; lane = source lane, delta or xor mask; a 64-bit
 *        shfl is two calls (codegen splits it), as on the GPU
 *   u32  kjit_host_warp_vote(HostCtx *, u32 mask, i32 pred, i32 kind)
 *        kind HOST_VOTE_*: all/any/eq -> 0/1, ballot -> the mask of preds
 *   u32  kjit_host_warp_match(HostCtx *, u32 mask, u64 value, i32 all)
 *        any: lanes with an equal value; all: the group if all equal, else 0
 *   u32  kjit_host_warp_activemask(HostCtx *)  -> the warp's lanes that are
 *        in the block and have not exited (no wait)
 * Called from a kernel launched without HOST_USES_BARRIERS they record an
 * error for the launch and return at once (0 for the predicate forms).
 *   void *kjit_host_region_frame(HostCtx *, u64 bytes)  HOST_FN_REGIONS:
 *        the block's per-thread state, `bytes` long, 64-byte aligned, kept
 *        by the worker across blocks (contents undefined); NULL (the launch
 *        failed: out of memory) ends the block
 *   i32  kjit_host_region_next(HostCtx *, const i32 *resume, const i32 *pred,
 *        i32 *red, u32 n)
 *        after a round: resume[t] is thread t's next resume point (>= 0) or
 *        -1 (returned).  pred (NULL when the kernel has no syncthreads_count/
 *        and/or): thread t's predicate at the barrier it waits at (0 at a
 *        plain one); red[0] gets the live threads with a nonzero predicate,
 *        red[1] the live threads.  Returns the resume point every thread
 *        shares, -2 when they differ or some have returned (run each from its
 *        own), -1 when the block is done: every thread returned, or some
 *        returned while others wait under HOST_STRICT_BARRIERS (a launch
 *        error).  Threads at different syncthreads calls are released
 *        together, as with fibers.
 *   void kjit_host_index_error(HostCtx *, const char *array, i64 index,
 *        i32 axis, i64 extent, const char *file, i32 line, i32 col,
 *        u32 tid.x, tid.y, tid.z, u32 ctaid.x, ctaid.y, ctaid.z)
 *        debug=True: records RT_HOST_E_INDEX (the first error wins, no
 *        further blocks start) and returns; the caller skips the access.
 *        The indices are passed because a per-block entry's ctx holds
 *        neither the thread's index nor (in a block run) its block's.
 *   void kjit_host_assert_fail(HostCtx *, const char *msg, const char *file,
 *        i32 line, i32 col, u32 tid.x, tid.y, tid.z, u32 ctaid.x, ctaid.y,
 *        ctaid.z)
 *        debug=True, a failed assert: records RT_HOST_E_ASSERT as above
 *        and returns; the thread goes on past the assert.
 * codegen never links against those functions: the runtime hands their
 * addresses to cg_jit_new as HostSym tables, which the JIT defines as
 * absolute symbols (the process may not export them). */
#ifndef KJIT_COMMON_HOST_ABI_H
#define KJIT_COMMON_HOST_ABI_H

#include <stddef.h>
#include <stdint.h>

typedef struct HostCtx {  /* one per (simulated) CUDA thread */
  uint32_t tid[3];        /* threadIdx */
  uint32_t ntid[3];       /* blockDim */
  uint32_t ctaid[3];      /* blockIdx */
  uint32_t nctaid[3];     /* gridDim */
  void *shared;           /* block's shared memory (static, then dynamic) */
  uint64_t dyn_shared_bytes;
  void *block;            /* the executor's per-block state (opaque) */
  uint32_t block_run;     /* HOST_FN_BLOCK_RUN: blocks to run from ctaid (>= 1) */
  uint32_t raised;        /* a raise (or a failed slice assignment) ended the
                             thread in a device function: set there, cleared
                             by the kernel that returns because of it */
} HostCtx;

_Static_assert(sizeof(HostCtx) == 80, "HostCtx layout is ABI");
_Static_assert(offsetof(HostCtx, block_run) == 72, "HostCtx layout is ABI");
_Static_assert(offsetof(HostCtx, shared) == 48, "HostCtx layout is ABI");
_Static_assert(offsetof(HostCtx, dyn_shared_bytes) == 56, "HostCtx layout is ABI");
_Static_assert(offsetof(HostCtx, block) == 64, "HostCtx layout is ABI");

typedef void (*HostKernelFn)(HostCtx *ctx, void *args);

enum {
  HOST_FN_PER_BLOCK = 1 << 0,    /* fn loops over the block's threads itself */
  HOST_USES_BARRIERS = 1 << 1,   /* one fiber per thread; sync functions work */
  HOST_STRICT_BARRIERS = 1 << 2, /* exiting while others wait is an error */
  HOST_GRID_SYNC = 1 << 4,       /* with USES_BARRIERS: the kernel syncs the
                                    grid (kjit_host_sync_grid): every block
                                    resident at once, on one thread */
  HOST_FN_REGIONS = 1 << 5,      /* with PER_BLOCK: fn runs the block in
                                    rounds between barriers (kjit_host_region_*) */
  HOST_FN_BLOCK_RUN = 1 << 3,    /* with PER_BLOCK: fn runs ctx->block_run
                                    consecutive blocks (linear order from
                                    ctx->ctaid), so a worker's run of blocks
                                    is one call (kernels without shared memory) */
};

#define RT_HOST_MAX_THREADS 1024           /* per block (codegen's !range on ntid) */
#define RT_HOST_MAX_STATIC_SHARED (48u * 1024)
#define RT_HOST_MAX_SHARED (228u * 1024)   /* static + dynamic */
#define RT_HOST_MAX_GRID_THREADS 16384     /* threads of a HOST_GRID_SYNC launch */
#define RT_HOST_DYN_SHARED_OFFSET(static_bytes) (((static_bytes) + 15) & ~(size_t)15)

/* Modes of kjit_host_warp_shfl and kinds of kjit_host_warp_vote. */
enum { HOST_SHFL_IDX, HOST_SHFL_UP, HOST_SHFL_DOWN, HOST_SHFL_BFLY };  /* PTX's order */
enum { HOST_VOTE_ALL, HOST_VOTE_ANY, HOST_VOTE_EQ, HOST_VOTE_BALLOT };

/* One symbol the host JIT defines for the code it runs: an executor function
 * or a libdevice replacement.  Tables end with {NULL, NULL}. */
typedef struct HostSym {
  const char *name; /* the symbol, "kjit_host_syncthreads" */
  void (*fn)(void); /* its address (cast back to the real type by the call) */
} HostSym;

#endif
