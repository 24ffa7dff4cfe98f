/* compile_cache.c - the disk cache on a context and the compile driver's
 * PTX hooks.
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

#include "cache/cache.h"
#include "runtime/runtime.h"

RtCache *rt_context_cache(kjit_context *ctx, Diags *warnings) {
  if (!ctx->cache)
    ctx->cache = rt_cache_open(warnings);
  return ctx->cache;
}

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
