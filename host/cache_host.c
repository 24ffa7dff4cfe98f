/* cache_host.c - the disk cache for the CPU target: host object files.
 *
 * The key is the PTX one's recipe with the host target in it (triple, the
 * host CPU's name and its full feature string, as LLVMGetHostCPUName and
 * LLVMGetHostCPUFeatures report them), the host codegen options and the
 * output "hostobj" or "hostobj-cabi".  An entry holds the object file (tag
 * 4) and a metadata section of "entry NAME FLAGS STATIC_SHARED" lines, one
 * per kernel entry in the object.  Entry symbols carry a suffix made from
 * the key ("<symbol>.c<16 hex digits>"), so objects loaded into one JIT
 * never define a symbol twice whatever process compiled them.  A hit loads
 * the object without running LLVM's pipeline; a miss compiles under the
 * entry's compile lock (rt_cache_claim) and stores. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "runtime/runtime.h"

/* "entry NAME FLAGS STATIC_SHARED" per entry. */
static void describe_entries(const CgHostObject *obj, StrBuf *sb) {
  for (int i = 0; i < obj->n; i++)
    sb_printf(sb, "entry %s %d %zu\n", obj->entries[i].name, obj->entries[i].flags,
              obj->entries[i].static_shared);
}

/* The entries back from the metadata; false when it does not parse (then
 * the entry is treated as a miss). */
static bool parse_entries(const char *meta, size_t len, CgHostObject *obj) {
  int n = 0;
  for (size_t i = 0; i < len; i++)
    n += meta[i] == '\n';
  if (n <= 0 || !(obj->entries = calloc((size_t)n, sizeof *obj->entries)))
    return false;
  const char *p = meta;
  for (obj->n = 0; obj->n < n; obj->n++) {
    CgHostEntry *e = &obj->entries[obj->n];
    int used = 0;
    if (sscanf(p, "entry %255s %d %zu\n%n", e->name, &e->flags, &e->static_shared, &used) != 3 || !used)
      return false;
    p += used;
  }
  return (size_t)(p - meta) == len;
}

/* A cache entry as an object; false when a section is missing or bad. */
static bool object_of(const RtCacheEntry *e, CgHostObject *obj) {
  size_t olen = 0, mlen = 0;
  const void *data = rt_cache_entry_find(e, RT_SEC_HOSTOBJ, &olen);
  const char *meta = rt_cache_entry_find(e, RT_SEC_META, &mlen);
  memset(obj, 0, sizeof *obj);
  if (!data || !olen || !meta || !parse_entries(meta, mlen, obj) || !(obj->data = malloc(olen))) {
    cg_host_object_free(obj);
    return false;
  }
  memcpy(obj->data, data, olen);
  obj->len = olen;
  return true;
}

static void store(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], const CgHostObject *obj, Diags *d) {
  StrBuf meta;
  sb_init(&meta);
  describe_entries(obj, &meta);
  RtCacheEntry e = {0};
  rt_cache_entry_add(&e, RT_SEC_HOSTOBJ, obj->data, obj->len);
  rt_cache_entry_add(&e, RT_SEC_META, meta.data ? meta.data : "", meta.len);
  rt_cache_put(c, key, &e);
  rt_cache_flush_warnings(c, d);
  sb_free(&meta);
}

bool rt_cache_host_object(kjit_context *ctx, CgJit *jit, IrCompile *c, bool cabi,
                          const CgOptions *opts, CgHostObject *obj, Diags *d) {
  RtCache *cache = rt_context_cache(ctx, d);
  if (!rt_cache_enabled(cache))
    return cg_jit_compile(jit, &c, 1, cabi, opts, NULL, obj, d);
  uint8_t key[RT_CACHE_KEY_SIZE];
  RtCacheKeyInput in = {&c, 1, cg_jit_target(jit), opts, cabi ? RT_OUT_HOSTOBJ_CABI : RT_OUT_HOSTOBJ, 0};
  rt_cache_key(&in, key, NULL);
  RtCacheEntry e;
  RtCacheClaim claim;
  if (rt_cache_claim(cache, key, &e, &claim)) {
    bool ok = object_of(&e, obj);
    rt_cache_entry_release(&e);
    if (ok)
      return true;
    /* a valid file whose sections do not fit: drop it (one warning naming
     * it), compile and replace it */
    rt_cache_drop(cache, key, "its object or metadata section is missing or malformed");
    rt_cache_flush_warnings(cache, d);
  }
  char suffix[20];
  snprintf(suffix, sizeof suffix, "c%02x%02x%02x%02x%02x%02x%02x%02x", key[0], key[1], key[2], key[3],
           key[4], key[5], key[6], key[7]);
  bool ok = cg_jit_compile(jit, &c, 1, cabi, opts, suffix, obj, d);
  if (ok)
    store(cache, key, obj, d);
  rt_cache_release(&claim); /* after the rename: waiters find the entry */
  return ok;
}
