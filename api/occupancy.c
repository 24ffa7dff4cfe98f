/* occupancy.c - kjit_occupancy_compute and kjit_occupancy_best_block: the
 * public face of the CPU-side calculator (cuda/occupancy.c).  No context,
 * no driver: a kernel's kjit_resources and an architecture are enough. */
#include <string.h>

#include "cuda/occupancy.h"

kjit_status kjit_occupancy_compute(const kjit_resources *r, const char *arch, int block,
                                   size_t dynamic_shared, kjit_occupancy *out) {
  if (!r || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  const RtArchLimits *a = rt_arch_limits(arch ? arch : r->arch);
  if (!a)
    return KJIT_ERROR_INVALID_ARGUMENT;
  rt_occupancy(a, r, block, dynamic_shared, out);
  return KJIT_OK;
}

kjit_status kjit_occupancy_best_block(const kjit_resources *r, const char *arch,
                                      size_t dynamic_shared, int *block, kjit_occupancy *out) {
  if (!r || !block)
    return KJIT_ERROR_INVALID_ARGUMENT;
  const RtArchLimits *a = rt_arch_limits(arch ? arch : r->arch);
  if (!a)
    return KJIT_ERROR_INVALID_ARGUMENT;
  int top = r->max_threads_per_block > 0 && r->max_threads_per_block < 1024
                ? r->max_threads_per_block / 32 * 32 : 1024;
  kjit_occupancy best = {0}, o;
  *block = 0;
  for (int b = top; b >= 32; b -= 32) {       /* larger first: a tie keeps it */
    rt_occupancy(a, r, b, dynamic_shared, &o);
    if (o.active_warps_per_sm > best.active_warps_per_sm) {
      best = o;
      *block = b;
    }
  }
  if (out && !*block)
    rt_occupancy(a, r, 32, dynamic_shared, &best);  /* says what stops even one warp */
  if (out)
    *out = best;
  return KJIT_OK;
}
