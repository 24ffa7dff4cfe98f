/* host_exec.c - the host-CPU executor (ABI and semantics in host_exec.h).
 *
 * A pool of workers takes blocks from an atomic counter.  Each worker owns
 * a Block: shared memory, and for barrier kernels one fiber per thread with
 * a pooled stack.  Fibers switch directly to the next runnable fiber (no
 * scheduler round trip); only when none is runnable are barriers released
 * (release_waiters), and if nothing can be released while threads still
 * wait, the block is deadlocked and reported, never left hanging.  A kernel
 * that faults (SIGSEGV/SIGBUS) fails the launch through the recovery point
 * each worker arms per launch (host_fault.c); shared memory lies between
 * guard pages so an overrun faults rather than corrupting the heap. */
#include "host/host_exec.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host/fiber_internal.h"
#include "common/settings.h"
#include "host/host_fault_internal.h"

/* Fiber stacks are registered with valgrind, which otherwise takes every
 * stack switch for a wild jump of the stack pointer and reports the
 * fiber's reads and writes as invalid.  The client requests are a few
 * instructions that do nothing outside valgrind; without the header
 * (valgrind not installed) they compile away. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define STACK_REGISTER(lo, hi) VALGRIND_STACK_REGISTER(lo, hi)
#define STACK_DEREGISTER(id) VALGRIND_STACK_DEREGISTER(id)
#endif
#endif
#ifndef STACK_REGISTER
#define STACK_REGISTER(lo, hi) ((void)(lo), (void)(hi), 0u)
#define STACK_DEREGISTER(id) ((void)(id))
#endif

typedef enum FiberState { F_READY, F_WAIT_BLOCK, F_WAIT_WARP, F_WAIT_GRID, F_EXITED } FiberState;

typedef struct Block Block;

/* What a lane waiting at a warp barrier does there (host_exec.h). */
typedef enum WarpOpKind { W_SYNC, W_SHFL, W_VOTE, W_MATCH } WarpOpKind;

typedef struct WaitOp {   /* the operand and result of a warp collective */
  WarpOpKind kind;
  int sub;                /* HOST_SHFL_* / HOST_VOTE_* / match: 1 = all */
  int32_t lane_arg;       /* shfl: source lane, delta or xor mask */
  uint64_t value;         /* shfl/match value; vote: predicate (0/1) */
  uint32_t result;        /* written when the lanes are released */
} WaitOp;

typedef struct Fiber {
  HostCtx ctx;            /* first member: a HostCtx* is its Fiber* */
  RtFiberCtx fc;
  RtFiberStack stack;
  unsigned vg_stack;      /* valgrind's id for the stack (see STACK_REGISTER) */
  Block *blk;
  int index;              /* linear thread index in the block */
  FiberState state;
  uint32_t mask;          /* syncwarp mask (own lane included) */
  WaitOp wop;             /* the warp operation this lane waits at */
  int pred;               /* syncthreads_count/and/or operand */
} Fiber;

typedef struct Launch {
  HostKernelFn fn;
  void *args;
  int flags;
  uint32_t grid[3], block[3];
  size_t static_shared, dyn_shared, shared_bytes;
  size_t stack_bytes;         /* per fiber: the default plus the kernel's locals */
  Block *grid_running;        /* HOST_GRID_SYNC: the block resumed last */
  uint64_t nblocks;
  uint64_t chunk;             /* blocks a worker takes per counter update */
  int nthreads;               /* per block */
  atomic_uint_fast64_t next;  /* next block to run */
  atomic_int failed;          /* set once: workers stop taking blocks */
  pthread_mutex_t err_mu;
  int code;
  char err[256];
  RtHostCheckError chk;       /* RT_HOST_E_INDEX/E_ASSERT: the failed check */
} Launch;

struct Block {
  Launch *launch;
  Fiber *fibers;          /* capacity nfibers, stacks kept across launches */
  int nfibers;
  int n;                  /* threads of the running block */
  int nexited;
  bool stuck;             /* deadlock (or strict-mode exit) detected */
  bool parked;            /* every live thread waits at the grid barrier */
  bool uses_fibers;
  int red_count, red_and, red_or; /* results of the last block barrier */
  RtFiberCtx sched;       /* the worker's own context */
  const HostCtx *cur;     /* the thread running now (named by a fault report) */
  size_t stack_size;      /* of the pooled fiber stacks */
  char *shared;           /* shared_cap bytes ending at a guard page */
  char *shared_now;       /* this launch's: its bytes end at the guard page */
  char *shared_map;       /* the mapping: guard page, pages, guard page */
  size_t shared_cap, shared_map_len;
  char *frame;            /* HOST_FN_REGIONS: per-thread state of a block */
  size_t frame_cap;
};

typedef struct Worker {
  RtHostPool *pool;
  pthread_t thread;
  int index;
  Block blk;
  RtFaultStack alt;       /* where the fault handler runs (host_fault.h) */
} Worker;

struct RtHostPool {
  int n;                  /* workers, including the launching thread */
  Worker *workers;
  pthread_mutex_t mu, launch_mu;
  pthread_cond_t wake, done;
  uint64_t generation;    /* bumped per launch */
  int want, active;       /* workers in this launch, helpers still running */
  bool quit;
  Launch *job;
};

/* ---- errors ---------------------------------------------------------- */

/* Records the launch's first error (chk: the details of a failed check). */
static void launch_fail(Launch *L, int code, const RtHostCheckError *chk, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void launch_fail(Launch *L, int code, const RtHostCheckError *chk, const char *fmt, ...) {
  pthread_mutex_lock(&L->err_mu);
  if (!atomic_load(&L->failed)) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->err, sizeof L->err, fmt, ap);
    va_end(ap);
    L->code = code;
    if (chk)
      L->chk = *chk;
    atomic_store(&L->failed, 1);
  }
  pthread_mutex_unlock(&L->err_mu);
}

static int set_err(char *err, size_t len, int code, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int set_err(char *err, size_t len, int code, const char *fmt, ...) {
  if (err && len) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
  }
  return code;
}

/* ---- barriers -------------------------------------------------------- */

static void block_where(const Block *b, char *buf, size_t len) {
  const uint32_t *c = b->fibers[0].ctx.ctaid;
  snprintf(buf, len, "(%u,%u,%u)", c[0], c[1], c[2]);
}

/* Releases every thread waiting at syncthreads, computing the reductions. */
static void release_block_barrier(Block *b) {
  int count = 0, all = 1, any = 0;
  for (int i = 0; i < b->n; i++) {
    Fiber *f = &b->fibers[i];
    if (f->state != F_WAIT_BLOCK) continue;
    count += f->pred;
    all &= f->pred;
    any |= f->pred;
    f->state = F_READY;
  }
  b->red_count = count;
  b->red_and = all;
  b->red_or = any;
}

/* The lane that lane l reads in a full-width shfl.sync (PTX: bval = b[4:0],
 * clamp 0 for up and 31 otherwise); l itself when out of range. */
static int shfl_source(int mode, int l, int32_t b) {
  int d = b & 31;
  switch (mode) {
  case HOST_SHFL_IDX: return d;
  case HOST_SHFL_UP: return l - d >= 0 ? l - d : l;
  case HOST_SHFL_DOWN: return l + d <= 31 ? l + d : l;
  default: return l ^ d;
  }
}

static uint32_t vote_result(int kind, uint32_t ballot, uint32_t group) {
  switch (kind) {
  case HOST_VOTE_ALL: return ballot == group;
  case HOST_VOTE_ANY: return ballot != 0;
  case HOST_VOTE_EQ: return ballot == 0 || ballot == group;
  default: return ballot;
  }
}

/* Lane l's result; `group` is the lanes of its mask released with it.  A
 * shfl from a lane outside the group (undefined in CUDA) gives l's value. */
static uint32_t warp_result(const Fiber *lane, int l, uint32_t group) {
  const WaitOp *w = &lane[l].wop;
  uint32_t set = 0, same = 0;
  for (int k = 0; k < 32; k++) {
    if (!(group >> k & 1)) continue;
    set |= (uint32_t)(lane[k].wop.value != 0) << k;
    same |= (uint32_t)(lane[k].wop.value == w->value) << k;
  }
  switch (w->kind) {
  case W_SHFL: {
    int src = shfl_source(w->sub, l, w->lane_arg);
    return (uint32_t)lane[group >> src & 1 ? src : l].wop.value;
  }
  case W_VOTE: return vote_result(w->sub, set, group);
  case W_MATCH: return w->sub ? (same == group ? group : 0) : same;
  default: return 0;
  }
}

/* Releases, per warp, the syncwarp waiters whose live mask lanes all wait,
 * computing the results of warp collectives first.  Decisions use the
 * state before any release.  Returns whether any was. */
static bool release_warps(Block *b) {
  bool any = false;
  for (int w = 0; w * 32 < b->n; w++) {
    Fiber *lane = &b->fibers[w * 32];
    int nl = b->n - w * 32 < 32 ? b->n - w * 32 : 32;
    uint32_t live = 0, waiting = 0, go = 0;
    for (int l = 0; l < nl; l++) {
      if (lane[l].state != F_EXITED) live |= 1u << l;
      if (lane[l].state == F_WAIT_WARP) waiting |= 1u << l;
    }
    for (int l = 0; l < nl; l++)
      if ((waiting >> l & 1) && (lane[l].mask & live & ~waiting) == 0) go |= 1u << l;
    for (int l = 0; l < nl; l++)
      if (go >> l & 1) lane[l].wop.result = warp_result(lane, l, lane[l].mask & go);
    for (int l = 0; l < nl; l++)
      if (go >> l & 1) lane[l].state = F_READY;
    any |= go != 0;
  }
  return any;
}

/* Called when no fiber is runnable.  Returns true if some were released;
 * false when the block is done or stuck (b->stuck, error recorded). */
static bool release_waiters(Block *b) {
  int live = b->n - b->nexited, at_block = 0, at_warp = 0, at_grid = 0;
  if (live == 0) return false;
  for (int i = 0; i < b->n; i++) {
    at_block += b->fibers[i].state == F_WAIT_BLOCK;
    at_warp += b->fibers[i].state == F_WAIT_WARP;
    at_grid += b->fibers[i].state == F_WAIT_GRID;
  }
  char where[48];
  if (at_grid == live && b->fibers[0].state == F_EXITED) {
    block_where(b, where, sizeof where);
    launch_fail(b->launch, RT_HOST_E_DEADLOCK, NULL,
                "thread (0,0,0) of block %s exited while %d threads wait at the grid sync: the block never "
                "arrives (on the GPU the grid hangs); every thread must reach each g.sync()",
                where, at_grid);
    b->stuck = true;
    return false;
  }
  if (at_grid == live) {  /* the grid's turn (run_grid) */
    b->parked = true;
    return false;
  }
  if (at_block == live) {
    if (b->nexited && (b->launch->flags & HOST_STRICT_BARRIERS)) {
      block_where(b, where, sizeof where);
      launch_fail(b->launch, RT_HOST_E_DEADLOCK, NULL,
                  "threads of block %s exited while others wait at syncthreads (%d of %d threads exited)",
                  where, b->nexited, b->n);
      b->stuck = true;
      return false;
    }
    release_block_barrier(b);
    return true;
  }
  if (at_warp && release_warps(b)) return true;
  block_where(b, where, sizeof where);
  if (at_grid)
    launch_fail(b->launch, RT_HOST_E_DEADLOCK, NULL,
                "deadlock in block %s: %d threads wait at the grid sync, %d at syncthreads, %d at syncwarp, "
                "%d exited; a barrier must be reached by every thread it names",
                where, at_grid, at_block, at_warp, b->nexited);
  else
    launch_fail(b->launch, RT_HOST_E_DEADLOCK, NULL,
                "deadlock in block %s: %d threads wait at syncthreads, %d at syncwarp, %d exited; "
                "a barrier must be reached by every thread it names",
                where, at_block, at_warp, b->nexited);
  b->stuck = true;
  return false;
}

/* The next runnable fiber after `from` in thread order, releasing barriers
 * when the round is over; NULL when the block is finished or stuck. */
static Fiber *pick_next(Block *b, int from) {
  for (int i = from + 1; i < b->n; i++)
    if (b->fibers[i].state == F_READY) return &b->fibers[i];
  if (!release_waiters(b)) return NULL;
  for (int i = 0; i < b->n; i++)
    if (b->fibers[i].state == F_READY) return &b->fibers[i];
  return NULL;
}

/* Leaves fiber `self` (waiting or exited) for the next runnable one. */
static void run_next(Block *b, Fiber *self) {
  Fiber *nx = pick_next(b, self->index);
  if (nx == self) {
    self->state = F_READY;
    return;
  }
  b->cur = nx ? &nx->ctx : NULL;
  rt_fiber_switch(&self->fc, nx ? &nx->fc : &b->sched);
}

static void fiber_main(void *arg) {
  Fiber *f = arg;
  Block *b = f->blk;
  b->launch->fn(&f->ctx, b->launch->args);
  f->state = F_EXITED;
  b->nexited++;
  run_next(b, f);   /* never comes back: nothing resumes an exited fiber */
}

/* False (with the launch's error recorded) if the kernel has no fibers. */
static bool has_fibers(HostCtx *ctx, const char *what) {
  Block *b = ctx->block;
  if (!b->uses_fibers)
    launch_fail(b->launch, RT_HOST_E_KERNEL, NULL,
                "kernel called %s but was launched without HOST_USES_BARRIERS", what);
  return b->uses_fibers;
}

/* Common path of the sync functions; false if the kernel has no fibers. */
static bool wait_at(HostCtx *ctx, FiberState st, const char *what) {
  Block *b = ctx->block;
  if (!has_fibers(ctx, what))
    return false;
  Fiber *f = (Fiber *)ctx;
  f->state = st;
  run_next(b, f);
  return true;
}

static int sync_pred(HostCtx *ctx, int pred, const char *what) {
  Fiber *f = (Fiber *)ctx;
  Block *b = ctx->block;
  if (b->uses_fibers) f->pred = pred != 0;
  return wait_at(ctx, F_WAIT_BLOCK, what);
}

void kjit_host_syncthreads(HostCtx *ctx) { (void)sync_pred(ctx, 0, "syncthreads"); }

int kjit_host_syncthreads_count(HostCtx *ctx, int pred) {
  return sync_pred(ctx, pred, "syncthreads_count") ? ((Block *)ctx->block)->red_count : 0;
}

int kjit_host_syncthreads_and(HostCtx *ctx, int pred) {
  return sync_pred(ctx, pred, "syncthreads_and") ? ((Block *)ctx->block)->red_and : 0;
}

int kjit_host_syncthreads_or(HostCtx *ctx, int pred) {
  return sync_pred(ctx, pred, "syncthreads_or") ? ((Block *)ctx->block)->red_or : 0;
}

/* A lane barrier over mask (own lane included) carrying one operand. */
static uint32_t warp_op(HostCtx *ctx, uint32_t mask, WaitOp op, const char *what) {
  Fiber *f = (Fiber *)ctx;
  if (((Block *)ctx->block)->uses_fibers) {
    f->mask = mask | 1u << (f->index & 31);
    f->wop = op;
  }
  return wait_at(ctx, F_WAIT_WARP, what) ? f->wop.result : 0;
}

void kjit_host_sync_grid(HostCtx *ctx) {
  Block *b = ctx->block;
  if (b->uses_fibers && !(b->launch->flags & HOST_GRID_SYNC)) {
    launch_fail(b->launch, RT_HOST_E_KERNEL, NULL, "kernel synchronized the grid but was launched without HOST_GRID_SYNC");
    return;
  }
  (void)wait_at(ctx, F_WAIT_GRID, "GridGroup.sync()");
}

void kjit_host_syncwarp(HostCtx *ctx, uint32_t mask) {
  (void)warp_op(ctx, mask, (WaitOp){.kind = W_SYNC}, "syncwarp");
}

uint32_t kjit_host_warp_shfl(HostCtx *ctx, uint32_t mask, uint32_t value, int32_t lane, int32_t mode) {
  WaitOp op = {.kind = W_SHFL, .sub = mode, .lane_arg = lane, .value = value};
  return warp_op(ctx, mask, op, "a shfl_sync function");
}

uint32_t kjit_host_warp_vote(HostCtx *ctx, uint32_t mask, int32_t pred, int32_t kind) {
  WaitOp op = {.kind = W_VOTE, .sub = kind, .value = pred != 0};
  return warp_op(ctx, mask, op, kind == HOST_VOTE_BALLOT ? "ballot_sync" : "a vote function");
}

uint32_t kjit_host_warp_match(HostCtx *ctx, uint32_t mask, uint64_t value, int32_t all) {
  WaitOp op = {.kind = W_MATCH, .sub = all != 0, .value = value};
  return warp_op(ctx, mask, op, all ? "match_all_sync" : "match_any_sync");
}

uint32_t kjit_host_warp_activemask(HostCtx *ctx) {
  if (!has_fibers(ctx, "activemask"))
    return 0;
  const Block *b = ctx->block;
  int w0 = ((Fiber *)ctx)->index & ~31;
  uint32_t m = 0;
  for (int l = 0; l < 32 && w0 + l < b->n; l++)
    m |= (uint32_t)(b->fibers[w0 + l].state != F_EXITED) << l;
  return m;
}

/* ---- running blocks -------------------------------------------------- */

static void ctx_init(HostCtx *c, const Launch *L, Block *b, const uint32_t ctaid[3]) {
  memset(c, 0, sizeof *c);
  memcpy(c->ntid, L->block, sizeof c->ntid);
  memcpy(c->ctaid, ctaid, sizeof c->ctaid);
  memcpy(c->nctaid, L->grid, sizeof c->nctaid);
  c->shared = b->shared_now;
  c->dyn_shared_bytes = L->dyn_shared;
  c->block = b;
}

static void run_block_loop(Block *b, const Launch *L, const uint32_t ctaid[3], uint64_t run) {
  HostCtx c;
  ctx_init(&c, L, b, ctaid);
  c.block_run = (uint32_t)run;
  b->cur = &c;
  if (L->flags & HOST_FN_PER_BLOCK) {
    L->fn(&c, L->args);
    return;
  }
  for (uint32_t z = 0; z < L->block[2]; z++)
    for (uint32_t y = 0; y < L->block[1]; y++)
      for (uint32_t x = 0; x < L->block[0]; x++) {
        c.tid[0] = x; c.tid[1] = y; c.tid[2] = z;
        L->fn(&c, L->args);
      }
}

/* Every thread of block ctaid ready to start on its fiber. */
static void init_block_fibers(Block *b, const Launch *L, const uint32_t ctaid[3]) {
  b->n = L->nthreads;
  b->nexited = 0;
  b->stuck = false;
  b->parked = false;
  for (int i = 0; i < b->n; i++) {
    Fiber *f = &b->fibers[i];
    ctx_init(&f->ctx, L, b, ctaid);
    f->ctx.tid[0] = (uint32_t)i % L->block[0];
    f->ctx.tid[1] = (uint32_t)i / L->block[0] % L->block[1];
    f->ctx.tid[2] = (uint32_t)i / (L->block[0] * L->block[1]);
    f->blk = b;
    f->index = i;
    f->state = F_READY;
    rt_fiber_init(&f->fc, &f->stack, fiber_main, f);
  }
}

static void run_block_fibers(Block *b, const Launch *L, const uint32_t ctaid[3]) {
  init_block_fibers(b, L, ctaid);
  b->cur = &b->fibers[0].ctx;
  rt_fiber_switch(&b->sched, &b->fibers[0].fc);
}

/* Maps the block's shared memory so that it ends at a PROT_NONE page (and
 * starts after one): a kernel indexing past a dynamic shared array that
 * --shared made too small faults (reported as an illegal address) instead
 * of writing over the host's heap. */
static int shared_map(Block *b, size_t bytes) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t cap = (bytes + 63) / 64 * 64, span = (cap + page - 1) / page * page;
  char *m = mmap(NULL, span + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) return -1;
  if (mprotect(m + page, span, PROT_READ | PROT_WRITE) != 0) {
    munmap(m, span + 2 * page);
    return -1;
  }
  if (b->shared_map) munmap(b->shared_map, b->shared_map_len);
  b->shared_map = m;
  b->shared_map_len = span + 2 * page;
  b->shared = m + page + span - cap;
  b->shared_cap = cap;
  return 0;
}

static void free_stacks(Block *b) {
  for (int i = 0; i < b->nfibers; i++) {
    STACK_DEREGISTER(b->fibers[i].vg_stack);
    rt_fiber_stack_free(&b->fibers[i].stack);
  }
  b->nfibers = 0;
}

/* Grows the worker's shared buffer and fiber pool for launch L (stacks of
 * L->stack_bytes: pooled ones that are smaller are mapped again). */
static int block_prepare(Block *b, Launch *L) {
  b->launch = L;
  b->uses_fibers = (L->flags & HOST_USES_BARRIERS) != 0;
  if (L->shared_bytes > b->shared_cap && shared_map(b, L->shared_bytes) != 0) return -1;
  b->shared_now = b->shared ? b->shared + b->shared_cap - (L->shared_bytes + 63) / 64 * 64 : NULL;
  if (!b->uses_fibers) return 0;
  if (b->stack_size < L->stack_bytes) {
    free_stacks(b);
    b->stack_size = L->stack_bytes;
  }
  if (b->nfibers >= L->nthreads) return 0;
  Fiber *fs = realloc(b->fibers, (size_t)L->nthreads * sizeof *fs);
  if (!fs) return -1;
  b->fibers = fs;
  for (; b->nfibers < L->nthreads; b->nfibers++) {
    memset(&fs[b->nfibers], 0, sizeof fs[0]);
    RtFiberStack *st = &fs[b->nfibers].stack;
    if (rt_fiber_stack_alloc(st, b->stack_size) != 0) return -1;
    fs[b->nfibers].vg_stack = STACK_REGISTER(st->top - st->size, st->top);
  }
  return 0;
}

static void block_release(Block *b) {
  free_stacks(b);
  free(b->frame);
  free(b->fibers);
  if (b->shared_map) munmap(b->shared_map, b->shared_map_len);
  memset(b, 0, sizeof *b);
}

/* ---- split kernels (HOST_FN_REGIONS) --------------------------------- */

void *kjit_host_region_frame(HostCtx *ctx, uint64_t bytes) {
  Block *b = ctx->block;
  if (bytes <= b->frame_cap) return b->frame;
  size_t cap = (size_t)(bytes + 63) / 64 * 64;
  free(b->frame);
  b->frame = aligned_alloc(64, cap);
  b->frame_cap = b->frame ? cap : 0;
  if (!b->frame)
    launch_fail(b->launch, RT_HOST_E_NOMEM, NULL, "cannot allocate %zu bytes of per-thread state for a block", cap);
  return b->frame;
}

/* The next round of a split kernel's block (host_exec.h). */
int32_t kjit_host_region_next(HostCtx *ctx, const int32_t *resume, const int32_t *pred, int32_t *red,
                              uint32_t n) {
  Block *b = ctx->block;
  uint32_t exited = 0, count = 0;
  int32_t first = -1;
  bool same = true;
  for (uint32_t i = 0; i < n; i++) {
    if (resume[i] < 0) exited++;
    else if (first < 0) first = resume[i];
    else same &= resume[i] == first;
    count += resume[i] >= 0 && pred && pred[i] != 0;
  }
  if (pred) { /* the results of syncthreads_count/and/or (host_exec.h) */
    red[0] = (int32_t)count;
    red[1] = (int32_t)(n - exited);
  }
  if (exited == n) return -1;
  if (exited && (b->launch->flags & HOST_STRICT_BARRIERS)) {
    char where[48];
    snprintf(where, sizeof where, "(%u,%u,%u)", ctx->ctaid[0], ctx->ctaid[1], ctx->ctaid[2]);
    launch_fail(b->launch, RT_HOST_E_DEADLOCK, NULL,
                "threads of block %s exited while others wait at syncthreads (%u of %u threads exited)", where,
                exited, n);
    return -1;
  }
  return exited == 0 && same ? first : -2;
}

/* ---- guest faults (host_fault.h) ------------------------------------- */

/* The launch fails with where the fault happened: the address (chk's
 * fault_addr, for the caller to name the array), the block, and the
 * thread where the kernel runs one thread per call (a per-block function
 * loops over its threads itself, so only the block is known). */
static void report_fault(Block *b, Launch *L, const RtFaultPoint *p) {
  const HostCtx *c = b->cur;
  char where[96] = "";
  if (c && !(L->flags & HOST_FN_PER_BLOCK))
    snprintf(where, sizeof where, " in thread (%u,%u,%u) of block (%u,%u,%u)", c->tid[0], c->tid[1],
             c->tid[2], c->ctaid[0], c->ctaid[1], c->ctaid[2]);
  else if (c)
    snprintf(where, sizeof where, " in block (%u,%u,%u)", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
  RtHostCheckError at = {.fault_addr = (uint64_t)(uintptr_t)p->addr,
                         .fault_known = p->addr_known != RT_FAULT_ADDR_UNKNOWN};
  char addr[96];
  if (p->addr_known == RT_FAULT_ADDR_UNKNOWN) /* x86-64 names no address beyond the 47 bits */
    snprintf(addr, sizeof addr, "an illegal address outside the address space (the processor does not say which)");
  else
    snprintf(addr, sizeof addr, "illegal address 0x%llx%s", (unsigned long long)at.fault_addr,
             p->addr_known == RT_FAULT_ADDR_DECODED ? ", outside the address space," : "");
  launch_fail(L, RT_HOST_E_FAULT, &at, "%s%s (%s)", addr, where, p->sig == SIGBUS ? "SIGBUS" : "SIGSEGV");
}

static void run_blocks_armed(Block *b, Launch *L) {
  const uint64_t gx = L->grid[0], gxy = gx * L->grid[1];
  while (!atomic_load_explicit(&L->failed, memory_order_relaxed)) {
    uint64_t first = atomic_fetch_add_explicit(&L->next, L->chunk, memory_order_relaxed);
    if (first >= L->nblocks) break;
    uint64_t end = first + L->chunk < L->nblocks ? first + L->chunk : L->nblocks;
    if ((L->flags & HOST_FN_BLOCK_RUN) && !L->shared_bytes) { /* the whole run in one call */
      uint32_t ctaid[3] = {(uint32_t)(first % gx), (uint32_t)(first % gxy / gx), (uint32_t)(first / gxy)};
      run_block_loop(b, L, ctaid, end - first);
      continue;
    }
    for (uint64_t i = first; i < end; i++) {
      uint32_t ctaid[3] = {(uint32_t)(i % gx), (uint32_t)(i % gxy / gx), (uint32_t)(i / gxy)};
      if (L->shared_bytes) memset(b->shared_now, 0, L->shared_bytes);
      if (b->uses_fibers) run_block_fibers(b, L, ctaid);
      else run_block_loop(b, L, ctaid, 1);
    }
  }
}

static void run_blocks(Worker *w, Launch *L) {
  Block *b = &w->blk;
  if (block_prepare(b, L) != 0) {
    launch_fail(L, RT_HOST_E_NOMEM, NULL, "cannot map %d fiber stacks of %zu KiB or %zu bytes of shared memory: %s",
                L->nthreads, L->stack_bytes / 1024, L->shared_bytes, strerror(errno));
    return;
  }
  RtFaultPoint fp;
  b->cur = NULL;
  if (sigsetjmp(fp.jb, 1) == 0) {
    rt_fault_arm(&fp);
    run_blocks_armed(b, L);
    rt_fault_disarm(&fp);
  } else {
    report_fault(b, L, &fp);   /* the block's fibers are abandoned: re-made per block */
  }
}

/* ---- the grid barrier (HOST_GRID_SYNC; semantics in host_exec.h) ---- */

/* Runs block b until all its live threads wait at the grid barrier
 * (b->parked), all exited, or it is stuck. */
static void resume_block(Block *b) {
  Fiber *first = NULL;
  b->parked = false;
  for (int i = 0; i < b->n; i++) {
    Fiber *f = &b->fibers[i];
    if (f->state == F_WAIT_GRID)
      f->state = F_READY;
    if (!first && f->state == F_READY)
      first = f;
  }
  if (first) {
    b->cur = &first->ctx;
    rt_fiber_switch(&b->sched, &first->fc);
  }
}

/* One round: every unfinished block runs to the barrier; returns the
 * number parked there, *finished the blocks done (before or now). */
static uint64_t grid_round(Block *bs, Launch *L, uint64_t *finished) {
  uint64_t parked = 0;
  *finished = 0;
  for (uint64_t i = 0; i < L->nblocks && !atomic_load(&L->failed); i++) {
    Block *b = &bs[i];
    L->grid_running = b;
    if (b->nexited < b->n)
      resume_block(b);
    parked += b->parked;
    *finished += !b->parked && b->nexited == b->n;
  }
  return parked;
}

static void grid_blocks_init(Block *bs, Launch *L) {
  const uint64_t gx = L->grid[0], gxy = gx * L->grid[1];
  for (uint64_t i = 0; i < L->nblocks; i++) {
    uint32_t ctaid[3] = {(uint32_t)(i % gx), (uint32_t)(i % gxy / gx), (uint32_t)(i / gxy)};
    if (L->shared_bytes) memset(bs[i].shared_now, 0, L->shared_bytes);
    init_block_fibers(&bs[i], L, ctaid);
  }
}

/* Every block resident at once on the calling thread, released together
 * at each grid barrier. */
static void run_grid_rounds(Block *bs, Launch *L) {
  grid_blocks_init(bs, L);
  uint64_t finished = 0, parked;
  while ((parked = grid_round(bs, L, &finished)) && !atomic_load(&L->failed)) {
    if (finished) {
      launch_fail(L, RT_HOST_E_DEADLOCK, NULL,
                  "deadlock at the grid sync: %llu blocks wait there while %llu blocks have exited; "
                  "every block of the grid must reach each g.sync()",
                  (unsigned long long)parked, (unsigned long long)finished);
      break;
    }
  }
}

static void run_grid(Launch *L) {
  Block *bs = calloc(L->nblocks, sizeof *bs);
  uint64_t ready = 0;
  while (bs && ready < L->nblocks && block_prepare(&bs[ready], L) == 0)
    ready++;
  if (!bs || ready < L->nblocks) {
    launch_fail(L, RT_HOST_E_NOMEM, NULL, "cannot map %llu fiber stacks of %zu KiB for a grid sync: %s",
                (unsigned long long)(L->nblocks * (uint64_t)L->nthreads), L->stack_bytes / 1024, strerror(errno));
  } else {
    RtFaultPoint fp;
    if (sigsetjmp(fp.jb, 1) == 0) {
      rt_fault_arm(&fp);
      run_grid_rounds(bs, L);
      rt_fault_disarm(&fp);
    } else {
      report_fault(L->grid_running ? L->grid_running : &bs[0], L, &fp);
    }
  }
  for (uint64_t i = 0; bs && i < L->nblocks; i++)
    block_release(&bs[i]);
  free(bs);
}

/* Blocks per counter update: one contended atomic per block costs about as
 * much as a small block's work (vector add: 65,536 blocks), so workers take
 * runs of consecutive blocks, small enough that every worker still gets
 * about 32 runs to balance uneven blocks. */
static uint64_t chunk_size(uint64_t nblocks, int workers) {
  uint64_t c = nblocks / ((uint64_t)(workers > 0 ? workers : 1) * 32);
  return c < 1 ? 1 : c > 64 ? 64 : c;
}

/* ---- the pool -------------------------------------------------------- */

static void *worker_main(void *arg) {
  Worker *w = arg;
  RtHostPool *p = w->pool;
  uint64_t seen = 0;
  rt_fault_stack_enter(&w->alt);
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->quit && p->generation == seen) pthread_cond_wait(&p->wake, &p->mu);
    if (p->quit) break;
    seen = p->generation;
    if (w->index >= p->want) continue;
    Launch *L = p->job;
    pthread_mutex_unlock(&p->mu);
    run_blocks(w, L);
    pthread_mutex_lock(&p->mu);
    if (--p->active == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  rt_fault_stack_leave(&w->alt);
  return NULL;
}

int rt_host_default_threads(void) {
  const char *e = rt_setting(RT_SET_CPU_THREADS);
  if (e && *e) {
    char *end;
    long v = strtol(e, &end, 10);
    if (!*end && v > 0) return v > 1024 ? 1024 : (int)v;
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

RtHostPool *rt_host_pool_new(int nthreads, char *err, size_t errlen) {
  rt_fault_install();
  RtHostPool *p = calloc(1, sizeof *p);
  if (!p) { set_err(err, errlen, RT_HOST_E_NOMEM, "out of memory"); return NULL; }
  p->n = nthreads > 0 ? nthreads : rt_host_default_threads();
  p->workers = calloc((size_t)p->n, sizeof *p->workers);
  pthread_mutex_init(&p->mu, NULL);
  pthread_mutex_init(&p->launch_mu, NULL);
  pthread_cond_init(&p->wake, NULL);
  pthread_cond_init(&p->done, NULL);
  if (!p->workers) { p->n = 0; rt_host_pool_free(p); set_err(err, errlen, RT_HOST_E_NOMEM, "out of memory"); return NULL; }
  for (int i = 0; i < p->n; i++) {
    p->workers[i].pool = p;
    p->workers[i].index = i;
    if (i == 0) continue;   /* worker 0 is whichever thread launches */
    int rc = pthread_create(&p->workers[i].thread, NULL, worker_main, &p->workers[i]);
    if (rc) {
      set_err(err, errlen, RT_HOST_E_NOMEM, "cannot start host worker thread %d: %s", i, strerror(rc));
      p->n = i;
      rt_host_pool_free(p);
      return NULL;
    }
  }
  return p;
}

void rt_host_pool_free(RtHostPool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->quit = true;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  for (int i = 1; i < p->n; i++) pthread_join(p->workers[i].thread, NULL);
  for (int i = 0; i < p->n; i++) block_release(&p->workers[i].blk);
  pthread_cond_destroy(&p->wake);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mu);
  pthread_mutex_destroy(&p->launch_mu);
  free(p->workers);
  free(p);
}

int rt_host_pool_threads(const RtHostPool *p) { return p->n; }

/* ---- launch ---------------------------------------------------------- */

static int check_dims(const uint32_t grid[3], const uint32_t block[3], char *err, size_t el) {
  static const uint32_t gmax[3] = {2147483647u, 65535u, 65535u}, bmax[3] = {1024u, 1024u, 64u};
  for (int d = 0; d < 3; d++) {
    if (!grid[d]) return set_err(err, el, RT_HOST_E_LIMIT, "grid dimension %c is 0", "xyz"[d]);
    if (!block[d]) return set_err(err, el, RT_HOST_E_LIMIT, "block dimension %c is 0", "xyz"[d]);
    if (grid[d] > gmax[d])
      return set_err(err, el, RT_HOST_E_LIMIT, "grid dimension %c of %u exceeds the limit of %u", "xyz"[d], grid[d], gmax[d]);
    if (block[d] > bmax[d] && (uint64_t)block[0] * block[1] * block[2] <= RT_HOST_MAX_THREADS)
      return set_err(err, el, RT_HOST_E_LIMIT, "block dimension %c of %u exceeds the limit of %u", "xyz"[d], block[d], bmax[d]);
  }
  uint64_t nt = (uint64_t)block[0] * block[1] * block[2];
  if (nt > RT_HOST_MAX_THREADS)
    return set_err(err, el, RT_HOST_E_LIMIT, "block of %llu threads exceeds the limit of %d",
                   (unsigned long long)nt, RT_HOST_MAX_THREADS);
  return 0;
}

static int check_launch(HostKernelFn fn, int flags, const uint32_t grid[3], const uint32_t block[3],
                        size_t st, size_t dyn, char *err, size_t el) {
  if (!fn) return set_err(err, el, RT_HOST_E_LIMIT, "no kernel function");
  if ((flags & HOST_FN_PER_BLOCK) && (flags & HOST_USES_BARRIERS))
    return set_err(err, el, RT_HOST_E_LIMIT, "HOST_FN_PER_BLOCK and HOST_USES_BARRIERS exclude each other");
  int rc = check_dims(grid, block, err, el);
  if (rc) return rc;
  uint64_t all = (uint64_t)grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2];
  if ((flags & HOST_GRID_SYNC) && !(flags & HOST_USES_BARRIERS))
    return set_err(err, el, RT_HOST_E_LIMIT, "HOST_GRID_SYNC needs HOST_USES_BARRIERS");
  if ((flags & HOST_GRID_SYNC) && all > RT_HOST_MAX_GRID_THREADS)
    return set_err(err, el, RT_HOST_E_LIMIT,
                   "a kernel that synchronizes the grid runs at most %d threads on the CPU target (every block "
                   "resident at once); this launch has %llu",
                   RT_HOST_MAX_GRID_THREADS, (unsigned long long)all);
  if (st > RT_HOST_MAX_STATIC_SHARED)
    return set_err(err, el, RT_HOST_E_LIMIT, "static shared memory of %zu bytes exceeds the limit of %u (48 KiB)",
                   st, RT_HOST_MAX_STATIC_SHARED);
  if (dyn > RT_HOST_MAX_SHARED || RT_HOST_DYN_SHARED_OFFSET(st) + dyn > RT_HOST_MAX_SHARED)
    return set_err(err, el, RT_HOST_E_LIMIT,
                   "shared memory of %zu bytes (%zu static + %zu dynamic) exceeds the limit of %u (228 KiB)",
                   st + dyn, st, dyn, RT_HOST_MAX_SHARED);
  return 0;
}

/* Hands L to min(workers, blocks) workers, runs a share itself, waits. */
static void run_launch(RtHostPool *p, Launch *L) {
  int want = L->nblocks < (uint64_t)p->n ? (int)L->nblocks : p->n;
  pthread_mutex_lock(&p->launch_mu);
  if (L->flags & HOST_GRID_SYNC) {
    rt_fault_stack_enter(&p->workers[0].alt);
    run_grid(L);
    rt_fault_stack_leave(&p->workers[0].alt);
    pthread_mutex_unlock(&p->launch_mu);
    return;
  }
  if (want > 1) {
    pthread_mutex_lock(&p->mu);
    p->job = L;
    p->want = want;
    p->active = want - 1;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
  }
  rt_fault_stack_enter(&p->workers[0].alt);  /* the launching thread's, for this launch */
  run_blocks(&p->workers[0], L);
  rt_fault_stack_leave(&p->workers[0].alt);
  if (want > 1) {
    pthread_mutex_lock(&p->mu);
    while (p->active > 0) pthread_cond_wait(&p->done, &p->mu);
    p->job = NULL;
    pthread_mutex_unlock(&p->mu);
  }
  pthread_mutex_unlock(&p->launch_mu);
}

int rt_host_launch(RtHostPool *p, HostKernelFn fn, int flags, const uint32_t grid[3], const uint32_t block[3],
                   size_t static_shared, size_t dyn_shared, void *args, char *err, size_t errlen) {
  return rt_host_launch_checked(p, fn, flags, grid, block, static_shared, dyn_shared, 0, args, err, errlen, NULL);
}

int rt_host_launch_checked(RtHostPool *p, HostKernelFn fn, int flags, const uint32_t grid[3],
                           const uint32_t block[3], size_t static_shared, size_t dyn_shared,
                           size_t local_bytes, void *args, char *err, size_t errlen, RtHostCheckError *chk) {
  int rc = check_launch(fn, flags, grid, block, static_shared, dyn_shared, err, errlen);
  if (rc) return rc;
  Launch L = {.fn = fn, .args = args, .flags = flags, .static_shared = static_shared, .dyn_shared = dyn_shared};
  memcpy(L.grid, grid, sizeof L.grid);
  memcpy(L.block, block, sizeof L.block);
  L.stack_bytes = RT_HOST_FIBER_STACK + (local_bytes + 4095) / 4096 * 4096;
  L.shared_bytes = dyn_shared ? RT_HOST_DYN_SHARED_OFFSET(static_shared) + dyn_shared : static_shared;
  L.nblocks = (uint64_t)grid[0] * grid[1] * grid[2];
  L.nthreads = (int)(block[0] * block[1] * block[2]);
  L.chunk = chunk_size(L.nblocks, p->n);
  atomic_init(&L.next, 0);
  atomic_init(&L.failed, 0);
  pthread_mutex_init(&L.err_mu, NULL);
  run_launch(p, &L);
  pthread_mutex_destroy(&L.err_mu);
  if (!atomic_load(&L.failed)) return RT_HOST_OK;
  if (chk && (L.code == RT_HOST_E_INDEX || L.code == RT_HOST_E_ASSERT || L.code == RT_HOST_E_FAULT))
    *chk = L.chk;
  return set_err(err, errlen, L.code, "%s", L.err);
}

/* ---- bounds checks (debug=True) -------------------------------------- */

/* The first error of the launch wins and no further blocks start; the
 * calling thread goes on (codegen skips the access), so a block that waits
 * at a barrier still completes.  A zeroed HostCtx (kjit_call) has no launch
 * to fail: the access is skipped silently. */
void kjit_host_index_error(HostCtx *ctx, const char *array, int64_t index, int axis, int64_t extent,
                           const char *file, int line, int col, uint32_t tx, uint32_t ty, uint32_t tz,
                           uint32_t bx, uint32_t by, uint32_t bz) {
  Block *b = ctx->block;
  if (!b)
    return;
  RtHostCheckError e = {array, file, NULL, index, extent, axis, line, col, {bx, by, bz}, {tx, ty, tz}, 0, 0};
  launch_fail(b->launch, RT_HOST_E_INDEX, &e,
              "%s:%d: index %lld is out of bounds for axis %d with size %lld in array '%s' "
              "(block (%u,%u,%u), thread (%u,%u,%u))",
              file, line, (long long)index, axis, (long long)extent, array, bx, by, bz, tx, ty, tz);
}

/* ---- assertions (debug=True) ----------------------------------------- */

/* As kjit_host_index_error: the first error wins, no further blocks start,
 * the thread goes on past the assert; without a launch nothing happens. */
void kjit_host_assert_fail(HostCtx *ctx, const char *msg, const char *file, int line, int col, uint32_t tx,
                           uint32_t ty, uint32_t tz, uint32_t bx, uint32_t by, uint32_t bz) {
  Block *b = ctx->block;
  if (!b)
    return;
  RtHostCheckError e = {NULL, file, msg, 0, 0, 0, line, col, {bx, by, bz}, {tx, ty, tz}, 0, 0};
  launch_fail(b->launch, RT_HOST_E_ASSERT, &e, "%s:%d: %s (block (%u,%u,%u), thread (%u,%u,%u))",
              file, line, msg, bx, by, bz, tx, ty, tz);
}
