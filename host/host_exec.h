/* host_exec.h - runs kernels compiled for the host CPU with CUDA's execution
 * model: a grid of blocks spread over a thread pool, the threads of a block
 * either as a plain loop (barrier-free kernels), as rounds of loops between
 * barriers (kernels codegen split at their syncthreads), or as fibers that
 * meet at barriers (the other kernels that synchronize).
 *
 * The ABI between codegen's host target and the executor (kernel entry,
 * HostCtx, launch flags, the kjit_host_* symbols) is common/host_abi.h.
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

#include "common/host_abi.h"

#if defined(__GNUC__)
#define KJIT_HOST_EXPORT __attribute__((visibility("default")))
#else
#define KJIT_HOST_EXPORT
#endif

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

#define RT_HOST_FIBER_STACK (64u * 1024)   /* plus the kernel's local arrays */
#define RT_HOST_MAX_LOCAL (512u * 1024)    /* local memory per thread, as on a GPU */

typedef struct RtHostPool RtHostPool;

/* The executor's threads when none are asked for: KJIT_CPU_THREADS, else
 * the online CPUs (1 .. 1024). */
int rt_host_default_threads(void);
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
  uint64_t fault_addr;       /* RT_HOST_E_FAULT: the address, when fault_known */
  int fault_known;
} RtHostCheckError;

/* rt_host_launch that also returns, for RT_HOST_E_INDEX and RT_HOST_E_ASSERT,
 * the details of the first failed check in *chk (may be NULL), and for
 * RT_HOST_E_FAULT the address (fault_addr, fault_known).  local_bytes:
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
