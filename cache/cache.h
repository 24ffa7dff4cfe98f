/* cache.h - the persistent compile cache (docs/cache.md).
 *
 * One self-validating file per entry, <dir>/<k0k1>/<key hex>.kjc, published
 * by rename, so a reader sees either no entry or a complete one; anything
 * that fails validation is a miss and is deleted.  The cache never fails a
 * compile: an unwritable directory turns it off for the rest of the
 * RtCache's life with one warning.  Not thread-safe per RtCache (it lives on
 * a kjit_context); any number of processes may share one directory. */
#ifndef KJIT_RUNTIME_CACHE_H
#define KJIT_RUNTIME_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "codegen/codegen.h"
#include "common/diag.h"
#include "common/sha256.h"

#define RT_CACHE_KEY_SIZE 32
#define RT_CACHE_FORMAT 2            /* bump when the file layout changes (2: HMAC) */
#define RT_CACHE_DEFAULT_MAX (256ull << 20)
#define RT_CACHE_MAX_SECTIONS 8
#define RT_CACHE_MAC_KEY 32          /* bytes of the per-user integrity key */
#define RT_CACHE_DEFAULT_LOCK_WAIT 30.0 /* seconds; KJIT_CACHE_LOCK_WAIT */

/* Section tags (stable: part of the file format). */
typedef enum RtCacheTag {
  RT_SEC_PTX = 1,        /* PTX text */
  RT_SEC_CUBIN = 2,      /* cubin (ELF) bytes */
  RT_SEC_META = 3,       /* text: "kernel SYMBOL" / "param K I TYPE" lines */
  RT_SEC_HOSTOBJ = 4,    /* host object code */
  RT_SEC_TUNE = 5,       /* text: a launch-configuration record (api/tune.c) */
} RtCacheTag;

/* What an entry holds, and (in the key) what was asked for: host objects
 * of kernels, or of a device function's C-ABI wrapper (kjit_call). */
typedef enum RtCacheOutput { RT_OUT_PTX, RT_OUT_CUBIN, RT_OUT_HOSTOBJ, RT_OUT_HOSTOBJ_CABI } RtCacheOutput;

typedef struct RtCacheSection {
  uint32_t tag;          /* RtCacheTag */
  const void *data;      /* put: borrowed; get: into RtCacheEntry.owned */
  size_t len;
} RtCacheSection;

typedef struct RtCacheEntry {
  RtCacheSection sec[RT_CACHE_MAX_SECTIONS];
  int nsec;
  void *owned;           /* get: the buffer sec[].data points into */
} RtCacheEntry;

typedef struct RtCacheStats {
  bool enabled;          /* false: KJIT_CACHE=0, configured off, or turned
                            off after a write failure */
  const char *dir;       /* the directory ("" when none); owned by the cache */
  uint64_t entries, bytes, max_bytes;
  uint64_t hits, misses, stores, evictions; /* this RtCache's lifetime */
  uint64_t waits;        /* claims that waited for another process's compile */
} RtCacheStats;

typedef struct RtCache RtCache;

/* Opens the cache the environment describes (KJIT_CACHE, KJIT_CACHE_DIR,
 * XDG_CACHE_HOME, HOME, KJIT_CACHE_MAX_BYTES; see common/settings.c).
 * Creates nothing on disk until the first store.  Never NULL except out of
 * memory; a disabled cache answers every get with a miss.  Warnings (a bad
 * KJIT_CACHE_MAX_BYTES) go to `warnings` when non-NULL. */
RtCache *rt_cache_open(Diags *warnings);
/* As rt_cache_open, with an explicit directory (NULL = from the
 * environment) and enable flag. */
RtCache *rt_cache_open_dir(const char *dir, bool enabled, Diags *warnings);
void rt_cache_close(RtCache *c);
bool rt_cache_enabled(const RtCache *c);

/* Looks the key up.  On a hit fills *out (release with
 * rt_cache_entry_release), refreshes the entry's last-used stamp and returns
 * true.  A missing, truncated, corrupt, foreign-version or mismatched entry
 * is a miss (and is deleted). */
bool rt_cache_get(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], RtCacheEntry *out);
/* As rt_cache_get, counting neither a hit nor a miss (records that are
 * not compiles: api/tune.c); *invalid says an entry file was there and
 * failed validation (it is deleted), so the caller can warn. */
bool rt_cache_get_checked(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], RtCacheEntry *out,
                          bool *invalid);
/* An entry that validated but could not be used (a bad object, metadata
 * that does not fit): removed, so the caller's recompile replaces it, and
 * one warning naming it is left for rt_cache_flush_warnings. */
void rt_cache_drop(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], const char *why);
/* Validates an entry image with an integrity key (the fuzz target's
 * seam); *out points into buf. */
bool rt_cache_validate(const uint8_t mac_key[RT_CACHE_MAC_KEY], const uint8_t *buf, size_t size,
                       const uint8_t key[RT_CACHE_KEY_SIZE], RtCacheEntry *out);
/* Stores an entry (sections borrowed) atomically; evicts least-recently
 * used entries when the directory grows past the cap.  False when the cache
 * is disabled or the write failed (then it is disabled with one warning). */
bool rt_cache_put(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], const RtCacheEntry *e);
/* Scans the directory; counters are this RtCache's. */
void rt_cache_stats(RtCache *c, RtCacheStats *out);
/* Deletes every entry (and stale temporary files); returns how many
 * entries were removed, -1 if the directory could not be read. */
long rt_cache_clear(RtCache *c);
/* Evicts least-recently used entries until the total is at most
 * max_bytes; returns how many were removed. */
long rt_cache_prune(RtCache *c, uint64_t max_bytes);
/* Moves a pending warning (a write failure) into d as a DL_WARNING. */
void rt_cache_flush_warnings(RtCache *c, Diags *d);
/* The path an entry for key would have (for tests); owned by the cache,
 * valid until the next call. */
const char *rt_cache_entry_path(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE]);

/* Entries. */
void rt_cache_entry_add(RtCacheEntry *e, RtCacheTag tag, const void *data, size_t len);
const void *rt_cache_entry_find(const RtCacheEntry *e, RtCacheTag tag, size_t *len);
void rt_cache_entry_release(RtCacheEntry *e);

/* ---------------------------------------------- compile locks (cache_lock.c) */

typedef enum RtLockResult {
  RT_LOCK_TAKEN,         /* this process holds the lock */
  RT_LOCK_BUSY,          /* another holds it (or the wait ran out) */
  RT_LOCK_UNSUPPORTED,   /* no lock possible here: flock failed (a network
                            filesystem) or the file cannot be created */
} RtLockResult;

typedef struct RtFileLock {
  int fd;                /* -1: not held */
} RtFileLock;

/* flock(2) or a test's stand-in. */
typedef int (*RtFileLockFn)(int fd, int op);

/* One non-blocking try at path's exclusive lock (the file is created).
 * fn NULL = flock. */
RtLockResult rt_file_lock_try(const char *path, RtFileLockFn fn, RtFileLock *l);
/* Tries until taken, unsupported or wait_s seconds have passed (then
 * BUSY), polling every 1 to 20 ms; *waited says whether it ever found the
 * lock busy. */
RtLockResult rt_file_lock_wait(const char *path, double wait_s, RtFileLockFn fn, RtFileLock *l,
                               bool *waited);
/* Unlinks path (may be NULL) and releases the lock. */
void rt_file_unlock(const char *path, RtFileLock *l);
/* True (and the file removed) when nobody holds path's lock. */
bool rt_file_lock_is_stale(const char *path, RtFileLockFn fn);

/* The same relative to a folder descriptor (AT_FDCWD: the working
 * folder); the cache uses these, never following a link. */
RtLockResult rt_file_lock_try_at(int dirfd, const char *path, RtFileLockFn fn, RtFileLock *l);
RtLockResult rt_file_lock_wait_at(int dirfd, const char *path, double wait_s, RtFileLockFn fn,
                                  RtFileLock *l, bool *waited);
void rt_file_unlock_at(int dirfd, const char *path, RtFileLock *l);
bool rt_file_lock_is_stale_at(int dirfd, const char *path, RtFileLockFn fn);

/* ------------------------------------------------------ compile once --- */

/* A claim on an entry: the lock held (or not) while this process compiles
 * it.  Zero-initialized = nothing held. */
typedef struct RtCacheClaim {
  RtFileLock lock;       /* fd >= 0: held */
  char *path;            /* the lock file's name in dirfd (malloc'd) while held */
  int dirfd;             /* the entry's subfolder while held (path != NULL) */
} RtCacheClaim;

/* Looks the key up; on a miss takes the entry's compile lock, waiting (at
 * most KJIT_CACHE_LOCK_WAIT seconds) while another process compiles it,
 * then looks again.  True: a hit, *out filled (release it), nothing held.
 * False: the caller compiles, rt_cache_put's the result (if it has one)
 * and calls rt_cache_release, whether or not the lock could be taken (an
 * unlockable directory or a wait that ran out: each process compiles).
 * Counts a hit, or a miss (this process compiles), and a wait. */
bool rt_cache_claim(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], RtCacheEntry *out,
                    RtCacheClaim *claim);
void rt_cache_release(RtCacheClaim *claim);
/* Test seam: the lock function this cache uses (NULL = flock). */
void rt_cache_set_lock_fn(RtCache *c, RtFileLockFn fn);

/* ------------------------------------------- trust (cache_trust.c) --- */

/* NULL when a folder or entry of this status may be used: owned by the
 * user (or root; as root, by root only) and writable by nobody else; with
 * shared, any owner, still writable by its owner only.  Else the reason,
 * written into buf. */
const char *rt_cache_untrusted(const struct stat *st, bool shared, char *buf, size_t n);
/* The integrity key: KJIT_CACHE_KEY, else $XDG_CONFIG_HOME/kjit/cache-key
 * (~/.config/kjit/cache-key), created 0600 on first use unless shared.
 * False with a message naming the file and what is wrong. */
bool rt_cache_load_key(bool shared, uint8_t key[RT_CACHE_MAC_KEY], char *err, size_t errlen);
/* HMAC-SHA256 with key over a then b. */
void rt_cache_mac(const uint8_t key[RT_CACHE_MAC_KEY], const void *a, size_t alen, const void *b,
                  size_t blen, uint8_t out[32]);

/* ------------------------------------------------------------ the key --- */

/* Everything that decides a compile's output (cache/cache_key.c). */
typedef struct RtCacheKeyInput {
  IrCompile *const *compiles;  /* entry kernel + callees, per unit */
  int ncompiles;
  const CgTarget *target;      /* kind, triple, arch, features, PTX clamp */
  const CgOptions *opts;
  RtCacheOutput output;
  uint64_t libdevice_hash;     /* cg_libdevice_hash */
} RtCacheKeyInput;

/* A SHA-256 over a canonical serialization of in (docs/cache.md lists the
 * fields).  The serialization itself is returned in *text when text is
 * non-NULL (malloc'd; for tests and `--explain`-style debugging). */
void rt_cache_key(const RtCacheKeyInput *in, uint8_t key[RT_CACHE_KEY_SIZE], char **text);

#endif
