/* cache_api.c - the public kjit_cache_* calls on a context's disk cache
 * (opened by runtime/compile_cache.c on first use). */
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "runtime/runtime.h"

/* -------------------------------------------------------- public API --- */

kjit_status kjit_cache_configure(kjit_context *ctx, int enabled, const char *dir) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  RtCache *c = rt_cache_open_dir(dir && *dir ? dir : NULL, enabled != 0, &call.diags);
  if (!c)
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  rt_cache_close(ctx->cache);
  ctx->cache = c;
  return rt_finish(&call, KJIT_OK);
}

kjit_status kjit_cache_stats(kjit_context *ctx, kjit_cache_info *out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  RtCacheStats s;
  rt_cache_stats(rt_context_cache(ctx, &call.diags), &s);
  memset(out, 0, sizeof *out);
  out->enabled = s.enabled;
  out->dir = s.dir ? s.dir : "";
  out->entries = s.entries, out->bytes = s.bytes, out->max_bytes = s.max_bytes;
  out->hits = s.hits, out->misses = s.misses;
  out->stores = s.stores, out->evictions = s.evictions;
  out->waits = s.waits;
  return rt_finish(&call, ctx->cache ? KJIT_OK : KJIT_ERROR_OUT_OF_MEMORY);
}

/* clear and prune share the "directory unreadable" error. */
static kjit_status finish_removal(RtCall *call, RtCache *c, long removed, uint64_t *out) {
  if (removed < 0) {
    RtCacheStats s;
    rt_cache_stats(c, &s);
    diag_error(&call->diags, RT_E_IO, (SrcLoc){0}, NULL,
               "cannot read the cache directory '%s'", *s.dir ? s.dir : "(none)");
    return rt_finish(call, KJIT_ERROR_IO);
  }
  if (out)
    *out = (uint64_t)removed;
  return rt_finish(call, KJIT_OK);
}

kjit_status kjit_cache_clear(kjit_context *ctx, uint64_t *removed) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  RtCache *c = rt_context_cache(ctx, &call.diags);
  if (!c)
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  return finish_removal(&call, c, rt_cache_clear(c), removed);
}

kjit_status kjit_cache_prune(kjit_context *ctx, uint64_t max_bytes, uint64_t *removed) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  RtCache *c = rt_context_cache(ctx, &call.diags);
  if (!c)
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  return finish_removal(&call, c, rt_cache_prune(c, max_bytes), removed);
}
