/* cg_regions.h - the host target's barrier split (cg_regions.c): a kernel
 * whose only barriers are plain syncthreads becomes one function that runs
 * one thread from a resume point to its next barrier, so the executor's
 * fibers are not needed (docs/internals.md, "Regions"). */
#ifndef KJIT_CODEGEN_CG_REGIONS_H
#define KJIT_CODEGEN_CG_REGIONS_H

#include "codegen/cg_internal.h"

/* Resume points: 0 is the kernel's start, k (1..nbarriers) the code after
 * the k-th barrier; the function returns the next one, or CG_REGION_EXIT
 * when the thread has returned. */
enum { CG_REGION_EXIT = -1, CG_REGION_MAX_BARRIERS = 16 };

/* The split kernel:
 *   i32 fn(hidden..., params..., ptr frame, i32 t, i32 ntpad, i32 resume)
 * frame: the block's per-thread state, `slot_bytes` bytes per thread laid
 * out slot by slot (each slot an array over the block's threads, ntpad
 * elements: the thread count rounded up to 16), t: the linear thread index. */
typedef struct CgRegions {
  LLVMValueRef fn;
  int nbarriers;
  uint64_t slot_bytes;
  bool reduces;          /* a barrier is syncthreads_count/and/or: the
                            frame starts with each thread's predicate (i32
                            per thread) and then the block's {count, live}
                            (kjit_host_region_next writes them) */
} CgRegions;

/* Does fn, or a function it calls, reach a barrier or warp collective
 * (cg_host.c)? */
bool cg_host_uses_barriers(LLVMValueRef fn);

/* Inlines device functions into the module's functions and promotes their
 * locals to SSA values (always-inline, sroa), so barriers in device
 * functions are seen and few values live across barriers.  Kernel bodies
 * are kept although nothing calls them yet. */
bool cg_regions_prepare(Cg *cg, LLVMValueRef *bodies, int n);

/* Splits the kernel body `body` (renamed and deleted: its blocks move to
 * out->fn, named <name>.regions).  False, with body untouched, when the
 * kernel must run on fibers: a barrier other than syncthreads and its
 * count/and/or forms (syncwarp, warp collectives, the grid barrier), one
 * inside a function that was not inlined, more than
 * CG_REGION_MAX_BARRIERS barriers, a dynamic alloca, or a body too large
 * for the analysis. */
bool cg_regions_split(Cg *cg, LLVMValueRef body, const char *name, CgRegions *out);

#endif
