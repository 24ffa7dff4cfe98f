/* occupancy.h - the occupancy calculator on the CPU side: how many blocks
 * of a kernel one SM holds at once, from its resource usage
 * (kjit_resources) and the architecture's limits (the table in
 * occupancy.c), as the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor
 * computes it for the default shared-memory carveout.  No GPU needed. */
#ifndef KJIT_CUDA_OCCUPANCY_H
#define KJIT_CUDA_OCCUPANCY_H

#include <stddef.h>

#include "kjit.h"

/* One architecture's limits per SM (and per block where said). */
typedef struct RtArchLimits {
  int sm;                 /* 90 for sm_90 */
  int max_warps;          /* resident warps per SM */
  int max_blocks;         /* resident blocks per SM */
  int regs;               /* 32-bit registers per SM */
  int regs_per_block;     /* registers one block may hold */
  int shared;             /* shared memory per SM at the largest carveout, bytes */
  int shared_per_block;   /* the most one block may have (opt-in), bytes */
  int shared_unit;        /* shared memory allocation granularity, bytes */
  int shared_reserved;    /* reserved by the system per block, bytes */
  int barriers_per_block_slot; /* named barriers per resident-block slot (1 or 2) */
} RtArchLimits;

/* The limits of "sm_XX" (a trailing 'a' ignored), or NULL when the table
 * has no row for it (sm_70 .. sm_90 are there). */
const RtArchLimits *rt_arch_limits(const char *arch);

/* Fills *out for `block` threads and `dyn_shared` bytes of dynamic shared
 * memory.  A block that cannot run at all is not an error:
 * active_blocks_per_sm is 0 and limited_by says why. */
void rt_occupancy(const RtArchLimits *a, const kjit_resources *r, int block, size_t dyn_shared,
                  kjit_occupancy *out);

#endif
