/* cache_api.c - the disk cache on a context: the compile hooks and the
 * public kjit_cache_* calls.
 *
 * A context opens its RtCache on first use (from the environment, or as
 * kjit_cache_configure says) and keeps it until it is destroyed.  The PTX
 * hooks are called by runtime/compile.c around codegen: find computes the
 * key after ir_verify and claims the entry (answered from the cache, or
 * this process compiles it under the entry's lock); store saves what
 * codegen produced and releases the claim.  Neither can fail a compile:
 * cache trouble is a miss, and a directory that cannot be written leaves
 * one warning on the call. */
#include <stdlib.h>
#include <string.h>

#include "runtime/cache.h"
#include "runtime/runtime.h"

RtCache *rt_context_cache(kjit_context *ctx, Diags *warnings) {
  if (!ctx->cache)
    ctx->cache = rt_cache_open(warnings);
  return ctx->cache;
}

/* ---------------------------------------------------------- the hooks --- */

bool rt_cache_find_ptx(kjit_context *ctx, CgSession *s, IrCompile *const *compiles,
                       int ncompiles, const CgTarget *target, const CgOptions *opts,
                       RtCachedCompile *cc, char **out, size_t *len, Diags *diags) {
  memset(cc, 0, sizeof *cc);
  cc->claim.lock.fd = -1;
  RtCache *c = rt_context_cache(ctx, diags);
  if (!rt_cache_enabled(c))
    return false;
  RtCacheKeyInput in = {compiles, ncompiles, target, opts, RT_OUT_PTX, cg_libdevice_hash(s)};
  rt_cache_key(&in, cc->key, NULL);
  cc->keyed = true;
  RtCacheEntry e;
  if (!rt_cache_claim(c, cc->key, &e, &cc->claim))
    return false; /* compile; rt_cache_store_ptx releases the claim */
  size_t n = 0;
  const char *ptx = rt_cache_entry_find(&e, RT_SEC_PTX, &n);
  char *copy = ptx ? malloc(n + 1) : NULL;
  if (copy) {
    memcpy(copy, ptx, n);
    copy[n] = '\0';
    *out = copy;
    *len = n;
  }
  rt_cache_entry_release(&e);
  return copy != NULL;
}

/* "kernel SYMBOL" then "param UNIT INDEX TYPE" lines: what a launcher
 * needs to find and call the entries of a module loaded from the cache. */
static void describe_kernels(IrCompile *const *compiles, int n, StrBuf *sb) {
  char buf[128];
  for (int u = 0; u < n; u++) {
    const IrFunc *f = compiles[u]->funcs.len ? compiles[u]->funcs.data[0] : NULL;
    if (!f)
      continue;
    sb_printf(sb, "kernel %s\n", f->symbol ? f->symbol : f->name);
    for (int i = 0; i < f->nparams && i < f->locals.len; i++)
      sb_printf(sb, "param %d %d %s\n", u, i, ty_name(f->locals.data[i].type, buf, sizeof buf));
  }
}

void rt_cache_store_ptx(kjit_context *ctx, RtCachedCompile *cc,
                        IrCompile *const *compiles, int ncompiles,
                        const char *ptx, size_t len, Diags *diags) {
  if (!cc->keyed || !ctx->cache)
    return;
  if (ptx) {
    StrBuf meta;
    sb_init(&meta);
    describe_kernels(compiles, ncompiles, &meta);
    RtCacheEntry e = {0};
    rt_cache_entry_add(&e, RT_SEC_PTX, ptx, len);
    rt_cache_entry_add(&e, RT_SEC_META, meta.data ? meta.data : "", meta.len);
    rt_cache_put(ctx->cache, cc->key, &e);
    rt_cache_flush_warnings(ctx->cache, diags);
    sb_free(&meta);
  }
  rt_cache_release(&cc->claim); /* after the rename: waiters find the entry */
}

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
