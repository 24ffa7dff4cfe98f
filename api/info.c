/* info.c - kjit_info: what `kjit info` prints about this installation.
 *
 * The library's version and build id, the LLVM it was built with, the CUDA
 * driver and its devices (cuda/cuda_driver.c; loading the driver here is
 * the only cost, and a machine without one is described, not an error), and
 * the disk cache's location, then every setting of common/settings.c with
 * its value. */
#include <stdlib.h>

#include "cuda/cuda.h"
#include "runtime/runtime.h"
#include "common/settings.h"

static void info_cache(StrBuf *sb) {
  kjit_context *ctx = NULL;
  kjit_cache_info ci;
  if (kjit_context_create(NULL, &ctx) != KJIT_OK)
    return;
  if (kjit_cache_stats(ctx, &ci) == KJIT_OK)
    sb_printf(sb, "cache: %s (%s; %llu entries, %llu bytes, cap %llu)\n",
              ci.dir && *ci.dir ? ci.dir : "(no directory)", ci.enabled ? "enabled" : "disabled",
              (unsigned long long)ci.entries, (unsigned long long)ci.bytes,
              (unsigned long long)ci.max_bytes);
  kjit_context_destroy(ctx);
}

kjit_status kjit_info(char **text) {
  if (!text)
    return KJIT_ERROR_INVALID_ARGUMENT;
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "kjit %s (build %s), LLVM %s\n", kjit_version(), KJIT_BUILD_ID, cg_llvm_version());
  rt_cuda_info(&sb);
  info_cache(&sb);
  rt_settings_describe(&sb);
  *text = sb_take(&sb);
  return *text ? KJIT_OK : KJIT_ERROR_OUT_OF_MEMORY;
}
