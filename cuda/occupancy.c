/* occupancy.c - resident blocks per SM from a kernel's resources and the
 * architecture's limits.  The limits are those of NVIDIA's CUDA C++
 * Programming Guide ("Compute Capabilities", the table of technical
 * specifications per compute capability: resident warps and blocks per
 * SM, registers per SM and per block, shared memory per SM and per block)
 * and of the toolkit's occupancy calculator (cuda_occupancy.h: register
 * allocation in units of 256 per warp in each of 4 sub-partitions, shared
 * memory granularity 256 B on 7.x and 128 B from 8.0, 1 KiB reserved per
 * block from 8.0, named barriers per block slot).  A block is limited by
 * the fewest of: warps, the block count, registers, shared memory,
 * barriers.  The shared-memory limit assumes the largest carveout, as the
 * driver's calculator does without a cache preference. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cuda/occupancy.h"

#define KIB 1024
static const RtArchLimits limits[] = {
    /* sm warps blocks  regs   regs/blk  shared      shared/blk  unit rsv  bar */
    {70, 64, 32, 65536, 65536, 96 * KIB, 96 * KIB, 256, 0, 2},
    {72, 64, 32, 65536, 65536, 96 * KIB, 96 * KIB, 256, 0, 2},
    {75, 32, 16, 65536, 65536, 64 * KIB, 64 * KIB, 256, 0, 2},
    {80, 64, 32, 65536, 65536, 164 * KIB, 163 * KIB, 128, KIB, 2},
    {86, 48, 16, 65536, 65536, 100 * KIB, 99 * KIB, 128, KIB, 1},
    {87, 48, 16, 65536, 65536, 164 * KIB, 163 * KIB, 128, KIB, 1},
    {89, 48, 24, 65536, 65536, 100 * KIB, 99 * KIB, 128, KIB, 1},
    {90, 64, 32, 65536, 65536, 228 * KIB, 227 * KIB, 128, KIB, 2},
};
#undef KIB

enum { WARP = 32, REG_UNIT = 256, SUBPARTITIONS = 4, MAX_REGS_PER_THREAD = 255 };

const RtArchLimits *rt_arch_limits(const char *arch) {
  int sm = 0;
  if (!arch || sscanf(arch, "sm_%d", &sm) != 1)
    return NULL;
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
    if (limits[i].sm == sm)
      return &limits[i];
  return NULL;
}

static int round_up(long long x, int unit) {
  return (int)((x + unit - 1) / unit * unit);
}

/* Blocks the registers allow: warps are given registers in each
 * sub-partition, and a block must fit the per-block register limit with
 * its warps rounded up to the sub-partitions (the hardware's check). */
static int register_limit(const RtArchLimits *a, int regs, int warps) {
  if (regs <= 0)
    return INT_MAX;
  if (regs > MAX_REGS_PER_THREAD)
    return 0;
  int per_warp = round_up((long long)regs * WARP, REG_UNIT);
  if ((long long)per_warp * round_up(warps, SUBPARTITIONS) > a->regs_per_block)
    return 0;
  int warps_per_sub = a->regs / SUBPARTITIONS / per_warp;
  return warps_per_sub * SUBPARTITIONS / warps;
}

static int shared_limit(const RtArchLimits *a, long long bytes) {
  if (bytes > a->shared_per_block)
    return 0;
  int per_block = round_up(bytes + a->shared_reserved, a->shared_unit);
  return per_block ? a->shared / per_block : INT_MAX;
}

void rt_occupancy(const RtArchLimits *a, const kjit_resources *r, int block, size_t dyn_shared,
                  kjit_occupancy *out) {
  memset(out, 0, sizeof *out);
  int warps = (block + WARP - 1) / WARP;
  out->max_warps_per_sm = a->max_warps;
  if (block <= 0 || block > 1024 || (r->max_threads_per_block > 0 && block > r->max_threads_per_block)) {
    out->limited_by = "block size";
    return;
  }
  struct {
    int blocks;
    const char *why;
  } lim[] = {
      {a->max_warps / warps, "warps"},
      {a->max_blocks, "blocks"},
      {register_limit(a, r->registers, warps), "registers"},
      {shared_limit(a, r->static_shared_bytes + (long long)dyn_shared), "shared memory"},
      {r->barriers > 1 ? a->max_blocks * a->barriers_per_block_slot / r->barriers : INT_MAX,
       "barriers"},
  };
  int best = 0;
  for (size_t i = 1; i < sizeof lim / sizeof lim[0]; i++)
    if (lim[i].blocks < lim[best].blocks)
      best = (int)i;
  out->active_blocks_per_sm = lim[best].blocks;
  out->limited_by = lim[best].why;
  out->active_warps_per_sm = out->active_blocks_per_sm * warps;
  out->occupancy = (double)out->active_warps_per_sm / a->max_warps;
}
