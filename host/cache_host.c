/* cache_host.c - the disk cache for the CPU target: host object files.
 *
 * The key is the PTX one's recipe with the host target in it (triple, the
 * host CPU's name and its full feature string, as LLVMGetHostCPUName and
 * LLVMGetHostCPUFeatures report them), the host codegen options and the
 * output "hostobj" or "hostobj-cabi".  An entry holds the object file (tag
 * 4) and a metadata section of one "entry NAME FLAGS STATIC_SHARED
 * NPARAMS" line: the compile's one entry.  Entry symbols carry a suffix made from
 * the key ("<symbol>.c<16 hex digits>"), so objects loaded into one JIT
 * never define a symbol twice whatever process compiled them.  A hit loads
 * the object without running LLVM's pipeline; a miss compiles under the
 * entry's compile lock (rt_cache_claim) and stores.  A hit that cannot be
 * used, whether its metadata disagrees with the compile or ORC fails to
 * add, link or look it up, is dropped with one warning and recompiled. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cache/cache.h"
#include "common/host_abi.h"
#include "runtime/runtime.h"

/* "entry NAME FLAGS STATIC_SHARED NPARAMS" per entry. */
static void describe_entries(const CgHostObject *obj, int nparams, StrBuf *sb) {
  for (int i = 0; i < obj->n; i++)
    sb_printf(sb, "entry %s %d %zu %d\n", obj->entries[i].name, obj->entries[i].flags,
              obj->entries[i].static_shared, nparams);
}

/* What the one entry of c's object must say: its symbol is c's with the
 * key's suffix, or with the suffix of a recompile after a load failed
 * ("r" and 8 random hex digits: the failed object's names stay taken in
 * that process's JIT, whichever names it had); its parameters are c's; its
 * flags are known bits in combinations codegen makes. */
typedef struct Expect {
  char name[256];
  int nparams;
  bool cabi;
} Expect;

#define RETRY_MARK "r" /* and 8 hex digits: appended to the suffix of a recompile */

static void expect_of(const IrCompile *c, bool cabi, const char *suffix, Expect *x) {
  const IrFunc *f = c->funcs.data[0];
  snprintf(x->name, sizeof x->name, cabi ? "%.200s__cabi.%.40s" : "%.200s.%.40s", f->symbol, suffix);
  x->nparams = f->nparams;
  x->cabi = cabi;
}

static bool flags_valid(int flags, bool cabi) {
  const int known = HOST_FN_PER_BLOCK | HOST_USES_BARRIERS | HOST_GRID_SYNC | HOST_FN_REGIONS |
                    HOST_FN_BLOCK_RUN; /* STRICT_BARRIERS is the launcher's, not codegen's */
  if (cabi)
    return flags == 0;
  if (flags & ~known)
    return false;
  if ((flags & (HOST_FN_REGIONS | HOST_FN_BLOCK_RUN)) && !(flags & HOST_FN_PER_BLOCK))
    return false;
  if ((flags & HOST_GRID_SYNC) && !(flags & HOST_USES_BARRIERS))
    return false;
  return !((flags & HOST_FN_PER_BLOCK) && (flags & HOST_USES_BARRIERS));
}

/* The entry back from the metadata; NULL, or why it does not fit. */
static const char *parse_entry(const char *meta, size_t len, const Expect *x, CgHostObject *obj) {
  if (!(obj->entries = calloc(1, sizeof *obj->entries)))
    return "out of memory";
  obj->n = 1;
  CgHostEntry *e = obj->entries;
  int nparams = -1, used = 0;
  if (memchr(meta, '\0', len) || sscanf(meta, "entry %255s %d %zu %d\n%n", e->name, &e->flags,
                                         &e->static_shared, &nparams, &used) != 4 || !used)
    return "its metadata does not parse";
  if ((size_t)used != len)
    return "its metadata lists more than the one entry of the compile";
  size_t nl = strlen(x->name);
  if (strncmp(e->name, x->name, nl) != 0 ||
      (e->name[nl] && (e->name[nl] != RETRY_MARK[0] || strspn(e->name + nl + 1, "0123456789abcdef") != 8 ||
                       e->name[nl + 9])))
    return "its metadata names another kernel's symbol";
  if (nparams != x->nparams)
    return "its metadata disagrees with the kernel's parameter count";
  if (!flags_valid(e->flags, x->cabi) || e->static_shared > (size_t)1 << 30)
    return "its metadata has launch flags or a shared memory size codegen never makes";
  return NULL;
}

/* A cache entry as an object; NULL, or why it cannot be one. */
static const char *object_of(const RtCacheEntry *e, const Expect *x, CgHostObject *obj) {
  size_t olen = 0, mlen = 0;
  const void *data = rt_cache_entry_find(e, RT_SEC_HOSTOBJ, &olen);
  const char *meta = rt_cache_entry_find(e, RT_SEC_META, &mlen);
  memset(obj, 0, sizeof *obj);
  const char *why = !data || !olen || !meta ? "its object or metadata section is missing"
                                            : parse_entry(meta, mlen, x, obj);
  if (!why && !(obj->data = malloc(olen)))
    why = "out of memory";
  if (why) {
    cg_host_object_free(obj);
    return why;
  }
  memcpy(obj->data, data, olen);
  obj->len = olen;
  return NULL;
}

static void store(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], const CgHostObject *obj, int nparams,
                  Diags *d) {
  StrBuf meta;
  sb_init(&meta);
  describe_entries(obj, nparams, &meta);
  RtCacheEntry e = {0};
  rt_cache_entry_add(&e, RT_SEC_HOSTOBJ, obj->data, obj->len);
  rt_cache_entry_add(&e, RT_SEC_META, meta.data ? meta.data : "", meta.len);
  rt_cache_put(c, key, &e);
  rt_cache_flush_warnings(c, d);
  sb_free(&meta);
}

/* Loads a cached object into the JIT; false with LLVM's reason in why
 * (a late failure: ORC adds, links and looks up only now), so the caller
 * drops the entry and recompiles instead of failing the compile. */
static bool load_cached(CgJit *jit, const CgHostObject *obj, CgHostKernel *out, char *why, size_t n) {
  Arena a;
  Diags quiet;
  arena_init(&a);
  diags_init(&quiet, &a);
  bool ok = cg_jit_load(jit, obj, out, &quiet);
  if (!ok)
    snprintf(why, n, "the JIT cannot load its object: %.300s",
             quiet.list.len ? quiet.list.data[0].msg : "no reason given");
  arena_destroy(&a);
  return ok;
}

/* compile (suffix NULL: the JIT's own), store when a cache is given, load. */
static bool compile_load(RtCache *cache, const uint8_t *key, CgJit *jit, IrCompile *c, bool cabi,
                         const CgOptions *opts, const char *suffix, CgHostKernel *out, Diags *d) {
  CgHostObject obj = {0};
  bool ok = cg_jit_compile(jit, &c, 1, cabi, opts, suffix, &obj, d);
  if (ok && cache)
    store(cache, key, &obj, c->funcs.data[0]->nparams, d);
  ok = ok && cg_jit_load(jit, &obj, out, d);
  cg_host_object_free(&obj);
  return ok;
}

/* The key's suffix with "r" and 8 hex digits no earlier name of this JIT
 * can have had: the process's pid, a counter and the clock, mixed. */
static void retry_suffix(char *suffix, size_t n) {
  static _Atomic uint32_t count;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  uint64_t h = ((uint64_t)getpid() << 32 ^ (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 20) +
               0x9E3779B97F4A7C15ull * ++count;
  h ^= h >> 29;
  size_t len = strlen(suffix);
  snprintf(suffix + len, n - len, RETRY_MARK "%08x", (unsigned)(h ^ h >> 32));
}

bool rt_cache_host_load(kjit_context *ctx, CgJit *jit, IrCompile *c, bool cabi, const CgOptions *opts,
                        CgHostKernel *out, Diags *d) {
  RtCache *cache = rt_context_cache(ctx, d);
  if (!rt_cache_enabled(cache))
    return compile_load(NULL, NULL, jit, c, cabi, opts, NULL, out, d);
  uint8_t key[RT_CACHE_KEY_SIZE];
  RtCacheKeyInput in = {&c, 1, cg_jit_target(jit), opts, cabi ? RT_OUT_HOSTOBJ_CABI : RT_OUT_HOSTOBJ, 0};
  rt_cache_key(&in, key, NULL);
  char suffix[32];
  snprintf(suffix, sizeof suffix, "c%02x%02x%02x%02x%02x%02x%02x%02x", key[0], key[1], key[2], key[3],
           key[4], key[5], key[6], key[7]);
  Expect x;
  expect_of(c, cabi, suffix, &x);
  RtCacheEntry e;
  RtCacheClaim claim;
  if (rt_cache_claim(cache, key, &e, &claim)) {
    CgHostObject obj;
    char late[400];
    const char *why = object_of(&e, &x, &obj);
    rt_cache_entry_release(&e);
    if (!why && load_cached(jit, &obj, out, late, sizeof late)) {
      cg_host_object_free(&obj);
      return true;
    }
    cg_host_object_free(&obj);
    /* a valid file that cannot be used, found early (its sections) or late
     * (ORC's add, link or lookup): dropped with one warning naming it, then
     * compiled under names the failed object cannot have taken */
    rt_cache_drop(cache, key, why ? why : late);
    rt_cache_flush_warnings(cache, d);
    retry_suffix(suffix, sizeof suffix);
  }
  bool ok = compile_load(cache, key, jit, c, cabi, opts, suffix, out, d);
  rt_cache_release(&claim); /* after the rename: waiters find the entry */
  return ok;
}
