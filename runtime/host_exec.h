/* host_exec.h - runs kernels compiled for the host CPU with CUDA's execution
 * model: a grid of blocks spread over a thread pool, the threads of a block
 * either as a plain loop (barrier-free kernels), as rounds of loops between
 * barriers (kernels codegen split at their syncthreads), or as fibers that
 * meet at barriers (the other kernels that synchronize).
 *
 * This header is the ABI between codegen's host target and the executor.
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
 *  76  uint32 reserved
 *  sizeof 80
 * Shared memory is zero-filled before each block (CUDA leaves it undefined;
 * zero makes runs reproducible).
 *
 * == Symbols JIT code calls == (default visibility; the host JIT resolves
 * them by name in the process, or codegen registers their addresses)
 *   void kjit_host_syncthreads(HostCtx *)
 *   int  kjit_host_syncthreads_count(HostCtx *, int pred)  -> threads with pred != 0
 *   int  kjit_host_syncthreads_and(HostCtx *, int pred)    -> 1 if all preds != 0
 *   int  kjit_host_syncthreads_or(HostCtx *, int pred)     -> 1 if any pred != 0
 *   void kjit_host_syncwarp(HostCtx *, uint32_t mask)
 *   void kjit_host_sync_grid(HostCtx *)   g.sync() of cuda.cg.this_grid():
 *        only under HOST_GRID_SYNC (see "Grid barrier" below)
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
 *        red[1] the live threads.  Returns the resume point every thread shares, -2
 *        when they differ or some have returned (run each from its own),
 *        -1 when the block is done: every thread returned, or some returned
 *        while others wait under HOST_STRICT_BARRIERS (a launch error).
 *        Threads at different syncthreads calls are released together, as
 *        with fibers.
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
 *
 * == Barrier semantics ==
 * A block's fibers run in linear thread order (x + ntid.x*(y + ntid.y*z)),
 * each until it waits or exits.  When no fiber can run:
 *   - syncthreads: released when every live (not exited) thread waits at
 *     it.  Exited threads count as arrived, as on hardware, so the common
 *     `if i >= n: return` before a barrier works; with HOST_STRICT_BARRIERS
 *     it is an error instead ("threads of block (x,y,z) exited while others
 *     wait at syncthreads").
 *   - syncwarp(mask): the lanes of warp w (threads 32w..32w+31) named in
 *     mask are released when every live lane in mask waits at syncwarp;
 *     lanes past the end of the block or exited count as arrived.
 *   - nothing releasable while threads still wait: a deadlock (e.g. half a
 *     warp at syncwarp, the other half at syncthreads) is reported as an
 *     error naming the block; the launch stops, it never hangs.
 * Released threads continue in thread order.
 *
 * == Warp operations (shfl/vote/match) ==
 * A warp collective is a lane barrier that carries data: each lane stores
 * its operand (WaitOp.value, .lane_arg) and waits like syncwarp(mask); when
 * the group is complete the executor computes every lane's result at once
 * (shfl: result[l] = value[src(l)]; ballot: the OR of pred bits; all/any/eq)
 * and writes it to WaitOp.result before releasing the lanes, which then
 * return it.  A lane's group is the lanes of its mask released with it
 * (exited lanes drop out); a shfl whose source lane is outside the group or
 * out of range (up/down) returns the lane's own value.  Lockstep therefore holds at each warp op, with partial masks,
 * exactly as syncwarp does here; kjit_host_syncwarp is that mechanism with
 * no data.  Barrier-free kernels that use warp ops must be launched with
 * HOST_USES_BARRIERS.
 *
 * == Grid barrier (HOST_GRID_SYNC, with HOST_USES_BARRIERS) ==
 * A grid barrier needs every block of the grid resident, as a cooperative
 * launch on the GPU.  Such a launch runs on the launching thread alone:
 * every block gets its fibers and shared memory at once (at most
 * RT_HOST_MAX_GRID_THREADS threads in the grid; past that the launch is
 * refused with RT_HOST_E_LIMIT), and the blocks run in linear order, each
 * until all its live threads wait at kjit_host_sync_grid or have exited.
 * When every block is parked so, all are released and the round repeats.
 * A block barrier or warp operation inside a round works as above.  A
 * block whose threads all exited while others wait at the grid barrier is
 * a deadlock (the GPU would hang): reported, never left hanging.
 *
 * == Pool == one pool per executor object; workers are created once and
 * sleep between launches.  Blocks are taken from an atomic counter, so the
 * blocks of one launch run concurrently (atomics in kernels are real
 * atomics).  rt_host_launch is synchronous and serialized per pool: calls
 * from several threads are safe and run one after another. */
#ifndef KJIT_RUNTIME_HOST_EXEC_H
#define KJIT_RUNTIME_HOST_EXEC_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define KJIT_HOST_EXPORT __attribute__((visibility("default")))
#else
#define KJIT_HOST_EXPORT
#endif

typedef struct HostCtx {  /* one per (simulated) CUDA thread */
  uint32_t tid[3];        /* threadIdx */
  uint32_t ntid[3];       /* blockDim */
  uint32_t ctaid[3];      /* blockIdx */
  uint32_t nctaid[3];     /* gridDim */
  void *shared;           /* block's shared memory (static, then dynamic) */
  uint64_t dyn_shared_bytes;
  void *block;            /* the executor's per-block state (opaque) */
  uint32_t block_run;     /* HOST_FN_BLOCK_RUN: blocks to run from ctaid (>= 1) */
  uint32_t reserved;
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

/* Status codes of rt_host_launch. */
enum {
  RT_HOST_OK = 0,
  RT_HOST_E_LIMIT = 1,    /* block/grid/shared-memory limits, bad flags */
  RT_HOST_E_DEADLOCK = 2, /* a barrier that can never complete */
  RT_HOST_E_NOMEM = 3,    /* stacks or shared memory could not be mapped */
  RT_HOST_E_KERNEL = 4,   /* the kernel misused the ABI (sync without fibers) */
  RT_HOST_E_INDEX = 5,    /* an array index out of bounds (debug=True) */
  RT_HOST_E_ASSERT = 6,   /* an assert failed (debug=True) */
  RT_HOST_E_FAULT = 7,    /* the kernel faulted (SIGSEGV/SIGBUS): an illegal
                             address, caught by host_fault.c; the launch
                             fails, the process goes on */
};

#define RT_HOST_MAX_THREADS 1024           /* per block */
#define RT_HOST_MAX_STATIC_SHARED (48u * 1024)
#define RT_HOST_MAX_SHARED (228u * 1024)   /* static + dynamic */
#define RT_HOST_FIBER_STACK (64u * 1024)   /* plus the kernel's local arrays */
#define RT_HOST_MAX_LOCAL (512u * 1024)    /* local memory per thread, as on a GPU */
#define RT_HOST_MAX_GRID_THREADS 16384     /* threads of a HOST_GRID_SYNC launch */
#define RT_HOST_DYN_SHARED_OFFSET(static_bytes) (((static_bytes) + 15) & ~(size_t)15)

typedef struct RtHostPool RtHostPool;

/* Creates a pool of `nthreads` workers (the launching thread is one of
 * them); 0 means $KJIT_CPU_THREADS if set to a positive number, else the
 * online CPU count.  Returns NULL (with err) if threads cannot be started. */
RtHostPool *rt_host_pool_new(int nthreads, char *err, size_t errlen);
/* Joins the workers and unmaps their stacks.  No launch may be running. */
void rt_host_pool_free(RtHostPool *pool);
int rt_host_pool_threads(const RtHostPool *pool);

/* Runs fn over grid x block and returns when every block is done: RT_HOST_OK
 * or an RT_HOST_E_* code with the message in err (e.g. "block of 2048
 * threads exceeds the limit of 1024").  Limits are checked before anything
 * runs; after a deadlock or ABI error no further blocks start. */
int rt_host_launch(RtHostPool *pool, HostKernelFn fn, int flags, const uint32_t grid[3],
                   const uint32_t block[3], size_t static_shared, size_t dyn_shared, void *args,
                   char *err, size_t errlen);

/* A debug=True check that failed: an index out of bounds or an assert
 * (strings are the JIT'd module's: valid while it is loaded). */
typedef struct RtHostCheckError {
  const char *array, *file;  /* the indexed local's name ("<array>"), source path */
  const char *message;       /* an assert's AssertionError text; NULL for an index */
  int64_t index, extent;     /* the index after wraparound, the axis's size */
  int axis, line, col;
  uint32_t block[3], thread[3];
} RtHostCheckError;

/* rt_host_launch that also returns, for RT_HOST_E_INDEX and RT_HOST_E_ASSERT,
 * the details of the first failed check in *chk (may be NULL).  local_bytes:
 * the kernel's per-thread local arrays, added to each fiber's stack of
 * RT_HOST_FIBER_STACK bytes. */
int rt_host_launch_checked(RtHostPool *pool, HostKernelFn fn, int flags, const uint32_t grid[3],
                           const uint32_t block[3], size_t static_shared, size_t dyn_shared,
                           size_t local_bytes, void *args, char *err, size_t errlen,
                           RtHostCheckError *chk);

KJIT_HOST_EXPORT void kjit_host_syncthreads(HostCtx *ctx);
KJIT_HOST_EXPORT int kjit_host_syncthreads_count(HostCtx *ctx, int pred);
KJIT_HOST_EXPORT int kjit_host_syncthreads_and(HostCtx *ctx, int pred);
KJIT_HOST_EXPORT int kjit_host_syncthreads_or(HostCtx *ctx, int pred);
KJIT_HOST_EXPORT void kjit_host_syncwarp(HostCtx *ctx, uint32_t mask);
KJIT_HOST_EXPORT void kjit_host_sync_grid(HostCtx *ctx);

/* Warp collectives (HOST_USES_BARRIERS only, else 0 and a launch error). */
enum { HOST_SHFL_IDX, HOST_SHFL_UP, HOST_SHFL_DOWN, HOST_SHFL_BFLY };  /* PTX's order */
enum { HOST_VOTE_ALL, HOST_VOTE_ANY, HOST_VOTE_EQ, HOST_VOTE_BALLOT };
KJIT_HOST_EXPORT uint32_t kjit_host_warp_shfl(HostCtx *ctx, uint32_t mask, uint32_t value,
                                              int32_t lane, int32_t mode);
KJIT_HOST_EXPORT uint32_t kjit_host_warp_vote(HostCtx *ctx, uint32_t mask, int32_t pred,
                                              int32_t kind);
KJIT_HOST_EXPORT uint32_t kjit_host_warp_match(HostCtx *ctx, uint32_t mask, uint64_t value,
                                               int32_t all);
KJIT_HOST_EXPORT uint32_t kjit_host_warp_activemask(HostCtx *ctx);
KJIT_HOST_EXPORT void *kjit_host_region_frame(HostCtx *ctx, uint64_t bytes);
KJIT_HOST_EXPORT int32_t kjit_host_region_next(HostCtx *ctx, const int32_t *resume, const int32_t *pred,
                                               int32_t *red, uint32_t n);
KJIT_HOST_EXPORT void kjit_host_index_error(HostCtx *ctx, const char *array, int64_t index, int axis,
                                            int64_t extent, const char *file, int line, int col,
                                            uint32_t tx, uint32_t ty, uint32_t tz, uint32_t bx,
                                            uint32_t by, uint32_t bz);
KJIT_HOST_EXPORT void kjit_host_assert_fail(HostCtx *ctx, const char *msg, const char *file, int line,
                                            int col, uint32_t tx, uint32_t ty, uint32_t tz, uint32_t bx,
                                            uint32_t by, uint32_t bz);

#endif
