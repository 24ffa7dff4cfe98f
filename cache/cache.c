/* cache.c - the persistent compile cache: files, validation, eviction.
 *
 * Layout: <dir>/<first two hex digits of the key>/<64 hex digits>.kjc.
 * Entry file (little-endian), 96-byte header then the payload:
 *   0  magic "KJITCACH"         8  u32 format     12 u32 section count
 *   16 key echo [32]            48 u64 payload length
 *   56 SHA-256 of payload [32]  88 u64 last-used stamp (ns since the epoch)
 *   payload: per section u32 tag, u32 0, u64 length, the bytes, then 1..8
 *   zero bytes up to a multiple of 8 (so each section is NUL-terminated
 *   and 8-aligned in memory).
 * Invariants: an entry file appears only by rename of a complete temporary
 * file from the same directory, so readers see all of it or nothing; the
 * last-used stamp is the one field written in place (on a hit, pwrite of 8
 * bytes) and is outside the checksum, so a torn stamp can only disturb LRU
 * order.  Nothing read from disk is trusted before it validates. */
#include "cache/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/file.h"
#include "common/sha256.h"
#include "common/settings.h"

#define HEADER_SIZE 96
#define OFF_FORMAT 8
#define OFF_NSEC 12
#define OFF_KEY 16
#define OFF_LEN 48
#define OFF_SUM 56
#define OFF_STAMP 88
#define SECTION_HEADER 16
#define STALE_TMP_NS (3600ull * 1000000000ull) /* a writer died an hour ago */
static const char magic[8] = {'K', 'J', 'I', 'T', 'C', 'A', 'C', 'H'};

struct RtCache {
  bool enabled;
  char *dir;             /* malloc'd; "" when no directory could be found */
  uint64_t max_bytes;
  uint64_t hits, misses, stores, evictions, waits;
  double lock_wait;      /* seconds (KJIT_CACHE_LOCK_WAIT) */
  RtFileLockFn lock_fn;  /* NULL = flock; tests stand in for it */
  bool dir_ready;        /* the directory exists (made by us or found) */
  int64_t total;         /* bytes on disk as of the last scan plus our own
                            stores since; -1 = not scanned yet */
  char *warning;         /* pending warning text (rt_cache_flush_warnings) */
  const char *hint;      /* its hint (static text) or NULL */
  int warn_code;         /* its code: RT_W_CACHE or RT_W_CACHE_TRUST */
  bool warned_entry;     /* an untrusted entry was reported (once) */
  char *path;            /* scratch: the last entry path built */
  int dirfd;             /* the cache folder, once opened and trusted; -1 */
  bool shared;           /* KJIT_CACHE_SHARED: another owner's, read only */
  uint8_t mac_key[RT_CACHE_MAC_KEY]; /* the integrity key (dirfd >= 0) */
};

/* ------------------------------------------------------------ helpers --- */

static void put_u32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static uint64_t get_u64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static char *format_text(const char *fmt, const char *a, const char *b) {
  size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, fmt, a, b);
  return s;
}

/* Pads a section to a multiple of 8 with at least one zero byte. */
static size_t padded(size_t len) { return (len / 8 + 1) * 8; }

/* --------------------------------------------------------- open/close --- */

/* "123", "64K", "256M", "1G" (binary multiples); false when malformed. */
static bool parse_size(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || errno || *s == '-')
    return false;
  int shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20
            : *end == 'G' || *end == 'g' ? 30 : 0;
  if (shift)
    end++;
  if (*end || v > (UINT64_MAX >> shift))
    return false;
  *out = (uint64_t)v << shift;
  return true;
}

static uint64_t find_max_bytes(Diags *warnings) {
  const char *s = rt_setting(RT_SET_CACHE_MAX_BYTES);
  uint64_t v = RT_CACHE_DEFAULT_MAX;
  if (s && !parse_size(s, &v) && warnings)
    diag_add(warnings, DL_WARNING, RT_W_CACHE, (SrcLoc){0}, NULL,
             "KJIT_CACHE_MAX_BYTES='%s' is not a size; using %llu", s,
             (unsigned long long)RT_CACHE_DEFAULT_MAX);
  return v;
}

/* KJIT_CACHE_LOCK_WAIT: seconds, fractions allowed, 0 = never wait. */
static double find_lock_wait(Diags *warnings) {
  const char *s = rt_setting(RT_SET_CACHE_LOCK_WAIT);
  char *end = NULL;
  double v = s ? strtod(s, &end) : RT_CACHE_DEFAULT_LOCK_WAIT;
  if (s && (end == s || *end || !(v >= 0) || v > 86400)) {
    if (warnings)
      diag_add(warnings, DL_WARNING, RT_W_CACHE, (SrcLoc){0}, NULL,
               "KJIT_CACHE_LOCK_WAIT='%s' is not a number of seconds (0 to 86400); using %g", s,
               RT_CACHE_DEFAULT_LOCK_WAIT);
    v = RT_CACHE_DEFAULT_LOCK_WAIT;
  }
  return v;
}

/* KJIT_CACHE: 0/off/false/no turn the cache off, 1/on/true/yes (and unset)
 * keep it on, any case; anything else keeps it on with a warning, so a
 * typo is seen rather than silently ignored. */
static bool cache_switch(Diags *warnings) {
  static const char *const off[] = {"0", "off", "false", "no"}, *const on[] = {"1", "on", "true", "yes"};
  const char *flag = rt_setting(RT_SET_CACHE);
  if (!flag)
    return true;
  for (int i = 0; i < 4; i++) {
    if (strcasecmp(flag, off[i]) == 0)
      return false;
    if (strcasecmp(flag, on[i]) == 0)
      return true;
  }
  if (warnings)
    diag_add(warnings, DL_WARNING, RT_W_CACHE, (SrcLoc){0}, "set KJIT_CACHE=0 to turn the disk cache off",
             "KJIT_CACHE='%.40s' is not one of 0/off/false/no or 1/on/true/yes; the disk cache stays on",
             flag);
  return true;
}

/* $KJIT_CACHE_DIR, else $XDG_CACHE_HOME/kjit, else ~/.cache/kjit. */
static char *find_dir(void) {
  const char *d = rt_setting(RT_SET_CACHE_DIR);
  if (d)
    return strdup(d);
  const char *xdg = rt_setting(RT_SET_XDG_CACHE_HOME);
  if (xdg)
    return format_text("%s/%s", xdg, "kjit");
  const char *home = rt_setting(RT_SET_HOME);
  if (!home) {
    struct passwd *pw = getpwuid(getuid());
    home = pw ? pw->pw_dir : NULL;
  }
  return home ? format_text("%s/%s", home, ".cache/kjit") : strdup("");
}

static void strip_slashes(char *dir) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    dir[--n] = '\0';
}

RtCache *rt_cache_open_dir(const char *dir, bool enabled, Diags *warnings) {
  RtCache *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->dir = dir ? strdup(dir) : find_dir();
  if (!c->dir) {
    free(c);
    return NULL;
  }
  strip_slashes(c->dir);
  c->enabled = enabled && *c->dir && cache_switch(warnings);
  c->max_bytes = find_max_bytes(warnings);
  c->lock_wait = find_lock_wait(warnings);
  c->total = -1;
  c->dirfd = -1;
  const char *sh = rt_setting(RT_SET_CACHE_SHARED);
  c->shared = sh && strcmp(sh, "0") != 0;
  return c;
}

RtCache *rt_cache_open(Diags *warnings) { return rt_cache_open_dir(NULL, true, warnings); }

void rt_cache_close(RtCache *c) {
  if (!c)
    return;
  if (c->dirfd >= 0)
    close(c->dirfd);
  free(c->dir);
  free(c->warning);
  free(c->path);
  free(c);
}

/* A write failed: no caching from now on, and one warning to report. */
static void disable(RtCache *c, int err) {
  if (!c->enabled)
    return;
  c->enabled = false;
  free(c->warning);
  c->warning = format_text("cache directory '%s' is not writable (%s); caching disabled",
                           c->dir, strerror(err));
  c->hint = NULL;
  c->warn_code = RT_W_CACHE;
}

static const char trust_hint[] =
    "make it yours and private (chown it to this user; chmod 700 folders, 600 files), or point "
    "KJIT_CACHE_DIR at a folder only you can write (docs/cache.md, Security)";

/* Something in the cache another user could have written: with folder,
 * the cache is off from now on; an entry is only skipped.  One warning
 * either way, naming the path, what is wrong and the fix. */
static void distrust(RtCache *c, bool folder, const char *what, const char *path, const char *why) {
  if (!c->enabled || (!folder && c->warned_entry))
    return;
  c->warned_entry = true;
  if (folder)
    c->enabled = false;
  size_t n = strlen(what) + strlen(path) + strlen(why) + 64;
  char *w = malloc(n);
  if (!w)
    return;
  snprintf(w, n, "%s '%s' is not used: %s%s", what, path, why,
           folder ? "; caching disabled" : "; it was removed and recompiled");
  free(c->warning);
  c->warning = w;
  c->hint = trust_hint;
  c->warn_code = RT_W_CACHE_TRUST;
}

bool rt_cache_enabled(const RtCache *c) { return c && c->enabled; }

void rt_cache_flush_warnings(RtCache *c, Diags *d) {
  if (!c || !c->warning)
    return;
  if (d)
    diag_add(d, DL_WARNING, c->warn_code ? c->warn_code : RT_W_CACHE, (SrcLoc){0}, c->hint, "%s", c->warning);
  free(c->warning);
  c->warning = NULL;
}

/* ------------------------------------------------------------ entries --- */

void rt_cache_entry_add(RtCacheEntry *e, RtCacheTag tag, const void *data, size_t len) {
  if (e->nsec < RT_CACHE_MAX_SECTIONS)
    e->sec[e->nsec++] = (RtCacheSection){(uint32_t)tag, data, len};
}

const void *rt_cache_entry_find(const RtCacheEntry *e, RtCacheTag tag, size_t *len) {
  for (int i = 0; i < e->nsec; i++)
    if (e->sec[i].tag == (uint32_t)tag) {
      if (len)
        *len = e->sec[i].len;
      return e->sec[i].data;
    }
  return NULL;
}

void rt_cache_entry_release(RtCacheEntry *e) {
  if (!e)
    return;
  free(e->owned);
  memset(e, 0, sizeof *e);
}

static void key_hex(const uint8_t key[RT_CACHE_KEY_SIZE], char hex[65]) {
  sha256_hex(key, hex);
}

/* <dir>/<xx>/<hex>.kjc, or <dir>/<xx> with file == false (for messages
 * and tests: files are opened relative to the folder descriptors). */
static const char *build_path(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], bool file) {
  char hex[65];
  key_hex(key, hex);
  size_t n = strlen(c->dir) + 80;
  char *p = realloc(c->path, n);
  if (!p)
    return NULL;
  c->path = p;
  if (file)
    snprintf(p, n, "%s/%.2s/%s.kjc", c->dir, hex, hex);
  else
    snprintf(p, n, "%s/%.2s", c->dir, hex);
  return p;
}

const char *rt_cache_entry_path(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE]) {
  return c ? build_path(c, key, true) : NULL;
}

/* -------------------------------------------------- folders and trust --- */

/* mkdir -p with mode 0700; false with errno set on failure. */
static bool make_dirs(const char *dir) {
  char *p = strdup(dir);
  if (!p)
    return errno = ENOMEM, false;
  bool ok = true;
  for (char *s = p + 1; ok; s++) {
    char saved = *s;
    if (saved != '/' && saved != '\0')
      continue;
    *s = '\0';
    if (mkdir(p, 0700) != 0 && errno != EEXIST)
      ok = false;
    *s = saved;
    if (!saved)
      break;
  }
  struct stat st;
  if (ok && stat(p, &st) != 0)
    ok = false;
  else if (ok && !S_ISDIR(st.st_mode))
    ok = false, errno = ENOTDIR;
  int err = errno;
  free(p);
  errno = err;
  return ok;
}

/* Opens the cache folder (made 0700 when create), checks who may write it
 * and loads the integrity key; everything below is opened relative to
 * c->dirfd.  The configured path itself may be a link (the user chose
 * it); what it leads to is checked on the descriptor.  False: no cache
 * (missing, unwritable or refused, then disabled with one warning). */
static bool open_root(RtCache *c, bool create) {
  if (c->dirfd >= 0)
    return true;
  if (!c->enabled || !*c->dir)
    return false;
  if (create && !c->shared && !make_dirs(c->dir)) {
    disable(c, errno);
    return false;
  }
  int fd = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (create)
      disable(c, errno);
    return false;
  }
  struct stat st;
  char why[160], err[1200];
  const char *bad = fstat(fd, &st) != 0 ? strerror(errno) : rt_cache_untrusted(&st, c->shared, why, sizeof why);
  if (bad) {
    close(fd);
    distrust(c, true, c->shared ? "shared cache folder" : "cache folder", c->dir, bad);
    return false;
  }
  if (!rt_cache_load_key(c->shared, c->mac_key, err, sizeof err)) {
    close(fd);
    c->enabled = false;
    free(c->warning);
    c->warning = format_text("%s%s; caching disabled", err, "");
    c->hint = "set KJIT_CACHE_KEY to a private 32-byte key file, or let kjit make "
              "~/.config/kjit/cache-key (a writable, private config folder)";
    c->warn_code = RT_W_CACHE_TRUST;
    return false;
  }
  c->dirfd = fd;
  return true;
}

/* The root folder was removed under us (kjit cache clear, rm -r): forget
 * its descriptor so the next open_root makes it again. */
static void reopen_root(RtCache *c) {
  if (c->dirfd >= 0)
    close(c->dirfd);
  c->dirfd = -1;
}

/* The subfolder "xx" of a key, opened without following a link (made
 * 0700 when create); checked like the root.  -1 when missing or refused. */
static int open_sub(RtCache *c, const char *name, bool create) {
  if (create && mkdirat(c->dirfd, name, 0700) != 0 && errno != EEXIST)
    return -1;
  int fd = openat(c->dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  char why[160];
  const char *bad = NULL;
  if (fd < 0 && (errno == ELOOP || errno == ENOTDIR) && fstatat(c->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
    bad = S_ISLNK(st.st_mode) ? "it is a symbolic link" : "it is not a folder";
  else if (fd >= 0 && (fstat(fd, &st) != 0 || (bad = rt_cache_untrusted(&st, c->shared, why, sizeof why))))
    bad = bad ? bad : strerror(errno);
  if (bad) {
    if (fd >= 0)
      close(fd);
    size_t n = strlen(c->dir) + 8;
    char *path = malloc(n);
    if (path)
      snprintf(path, n, "%s/%.2s", c->dir, name);
    distrust(c, true, "cache subfolder", path ? path : name, bad);
    free(path);
    return -1;
  }
  return fd;
}

static int open_sub_of(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], bool create, char hex[65]) {
  key_hex(key, hex);
  char name[3] = {hex[0], hex[1], '\0'};
  return open_sub(c, name, create);
}

/* Header + sections into one malloc'd buffer, sealed with the MAC. */
static uint8_t *serialize(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], const RtCacheEntry *e,
                          size_t *size) {
  size_t payload = 0;
  for (int i = 0; i < e->nsec; i++)
    payload += SECTION_HEADER + padded(e->sec[i].len);
  uint8_t *buf = calloc(1, HEADER_SIZE + payload);
  if (!buf)
    return NULL;
  uint8_t *p = buf + HEADER_SIZE;
  for (int i = 0; i < e->nsec; i++) {
    put_u32(p, e->sec[i].tag);
    put_u64(p + 8, e->sec[i].len);
    if (e->sec[i].len)
      memcpy(p + SECTION_HEADER, e->sec[i].data, e->sec[i].len);
    p += SECTION_HEADER + padded(e->sec[i].len);
  }
  memcpy(buf, magic, sizeof magic);
  put_u32(buf + OFF_FORMAT, RT_CACHE_FORMAT);
  put_u32(buf + OFF_NSEC, (uint32_t)e->nsec);
  memcpy(buf + OFF_KEY, key, RT_CACHE_KEY_SIZE);
  put_u64(buf + OFF_LEN, payload);
  rt_cache_mac(c->mac_key, buf, OFF_SUM, buf + HEADER_SIZE, payload, buf + OFF_SUM);
  put_u64(buf + OFF_STAMP, now_ns());
  *size = HEADER_SIZE + payload;
  return buf;
}

/* The header's fixed fields, before the payload is even looked at. */
static bool check_header(const uint8_t *buf, size_t size, const uint8_t key[RT_CACHE_KEY_SIZE]) {
  return size >= HEADER_SIZE && memcmp(buf, magic, sizeof magic) == 0 &&
         get_u32(buf + OFF_FORMAT) == RT_CACHE_FORMAT &&
         get_u32(buf + OFF_NSEC) <= RT_CACHE_MAX_SECTIONS &&
         memcmp(buf + OFF_KEY, key, RT_CACHE_KEY_SIZE) == 0 &&
         get_u64(buf + OFF_LEN) == size - HEADER_SIZE;
}

/* Walks the sections; every length is checked against what is left. */
static bool parse_sections(const uint8_t *buf, size_t size, RtCacheEntry *out) {
  uint32_t nsec = get_u32(buf + OFF_NSEC);
  size_t at = HEADER_SIZE;
  for (uint32_t i = 0; i < nsec; i++) {
    if (size - at < SECTION_HEADER)
      return false;
    uint64_t len = get_u64(buf + at + 8);
    if (len >= size - at - SECTION_HEADER || padded(len) > size - at - SECTION_HEADER)
      return false;
    rt_cache_entry_add(out, get_u32(buf + at), buf + at + SECTION_HEADER, (size_t)len);
    at += SECTION_HEADER + padded(len);
  }
  return at == size;
}

/* Header fields, then the MAC over them and the payload (a constant-time
 * compare is not needed: the MAC is not secret once computed). */
static bool validate(const uint8_t mac_key[RT_CACHE_MAC_KEY], const uint8_t *buf, size_t size,
                     const uint8_t key[RT_CACHE_KEY_SIZE], RtCacheEntry *out) {
  if (!check_header(buf, size, key))
    return false;
  uint8_t sum[SHA256_SIZE];
  rt_cache_mac(mac_key, buf, OFF_SUM, buf + HEADER_SIZE, size - HEADER_SIZE, sum);
  return memcmp(sum, buf + OFF_SUM, SHA256_SIZE) == 0 && parse_sections(buf, size, out);
}

bool rt_cache_validate(const uint8_t mac_key[RT_CACHE_MAC_KEY], const uint8_t *buf, size_t size,
                       const uint8_t key[RT_CACHE_KEY_SIZE], RtCacheEntry *out) {
  memset(out, 0, sizeof *out);
  bool ok = validate(mac_key, buf, size, key, out);
  if (!ok)
    memset(out, 0, sizeof *out);
  return ok;
}

/* ---------------------------------------------------------------- get --- */

/* Reads a whole entry: a regular file no larger than the cache itself may
 * grow (KJIT_CACHE_MAX_BYTES), so an entry replaced by a huge file is
 * rejected by its size before anything is read. */
static bool read_all(int fd, uint64_t max, uint8_t **out, size_t *size) {
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < HEADER_SIZE)
    return false;
  char *buf;
  size_t n;
  if (!rt_read_fd(fd, max, &buf, &n))
    return false;
  *out = (uint8_t *)buf;
  *size = n;
  return true;
}

/* Deletes a bad entry (the name, never what a link points to), unless
 * another process has meanwhile renamed a new file into its place (then
 * that one is left alone).  A shared cache is never written. */
static void discard(RtCache *c, int sub, const char *name, int fd) {
  struct stat a, b;
  if (c->shared || fstatat(sub, name, &b, AT_SYMLINK_NOFOLLOW) != 0)
    return;
  if (fd < 0 ? !S_ISDIR(b.st_mode) : fstat(fd, &a) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
    unlinkat(sub, name, 0);
}

/* The last-used stamp, in place; failure (a read-only file) only costs LRU
 * precision. */
static void touch(int fd) {
  uint8_t stamp[8];
  put_u64(stamp, now_ns());
  if (pwrite(fd, stamp, sizeof stamp, OFF_STAMP) != (ssize_t)sizeof stamp)
    (void)0;
}

/* The entry's file, never through a link, never blocking (a FIFO planted
 * there is refused), only if nobody else could have written it. */
static int open_entry(RtCache *c, int sub, const char *name, const uint8_t key[RT_CACHE_KEY_SIZE]) {
  const char *why = NULL;
  struct stat st;
  int fd = c->shared ? -1 : rt_open_regular_at(sub, name, RT_OPEN_NOFOLLOW | RT_OPEN_RDWR, &st, &why);
  if (fd < 0 && !why && (c->shared || errno == EACCES || errno == EROFS || errno == EPERM))
    fd = rt_open_regular_at(sub, name, RT_OPEN_NOFOLLOW, &st, &why);
  char buf[160];
  if (fd < 0 && why) {
    snprintf(buf, sizeof buf, "it is %s", why);
    why = buf;
  } else if (fd >= 0 && (why = rt_cache_untrusted(&st, c->shared, buf, sizeof buf)) != NULL) {
    close(fd);
    fd = -1;
  }
  if (why) {
    distrust(c, false, "cache entry", build_path(c, key, true), why);
    discard(c, sub, name, -1);
  }
  return fd;
}

/* The lookup itself; counts nothing. */
static bool lookup(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], RtCacheEntry *out,
                   bool *invalid) {
  memset(out, 0, sizeof *out);
  *invalid = false;
  char hex[65], name[72];
  if (!open_root(c, false))
    return false;
  int sub = open_sub_of(c, key, false, hex);
  if (sub < 0)
    return false;
  snprintf(name, sizeof name, "%s.kjc", hex);
  int fd = open_entry(c, sub, name, key);
  uint8_t *buf = NULL;
  size_t size = 0;
  bool ok = fd >= 0 && read_all(fd, c->max_bytes, &buf, &size) && validate(c->mac_key, buf, size, key, out);
  if (!ok) {
    *invalid = fd >= 0;                 /* there was a file, and it failed validation */
    if (fd >= 0)
      discard(c, sub, name, fd);
    free(buf);
    memset(out, 0, sizeof *out);
  } else {
    if (!c->shared)
      touch(fd);
    out->owned = buf;
  }
  if (fd >= 0)
    close(fd);
  close(sub);
  return ok;
}

bool rt_cache_get(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], RtCacheEntry *out) {
  memset(out, 0, sizeof *out);
  if (!c || !c->enabled)
    return false;
  bool invalid;
  bool hit = lookup(c, key, out, &invalid);
  hit ? c->hits++ : c->misses++;
  return hit;
}

bool rt_cache_get_checked(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], RtCacheEntry *out,
                          bool *invalid) {
  memset(out, 0, sizeof *out);
  *invalid = false;
  return c && c->enabled && lookup(c, key, out, invalid);
}

void rt_cache_drop(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], const char *why) {
  char hex[65], name[72];
  if (c && c->hits) /* the caller compiles after all: a miss in the counts */
    c->hits--, c->misses++;
  if (!c || !c->enabled || c->shared || !open_root(c, false))
    return;
  int sub = open_sub_of(c, key, false, hex);
  if (sub < 0)
    return;
  snprintf(name, sizeof name, "%s.kjc", hex);
  discard(c, sub, name, -1);
  close(sub);
  if (!c->warning) {
    char *w = format_text("cache entry '%s' could not be loaded (%s); it was removed and recompiled",
                          build_path(c, key, true), why ? why : "inconsistent contents");
    c->warning = w;
    c->hint = "nothing to do: the entry was rewritten; if this repeats, run `kjit cache clear`";
    c->warn_code = RT_W_CACHE;
  }
}

/* ---------------------------------------------------------------- put --- */

static bool write_all(int fd, const uint8_t *buf, size_t n) {
  while (n) {
    ssize_t w = write(fd, buf, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      if (w == 0)
        errno = ENOSPC;
      return false;
    }
    buf += w, n -= (size_t)w;
  }
  return true;
}

/* A new file "name" in sub: O_EXCL|O_NOFOLLOW, mode 0600, a random name. */
static int make_temp(int sub, char name[32]) {
  for (int tries = 0; tries < 100; tries++) {
    uint64_t r = now_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)tries * 0x9e3779b97f4a7c15ull;
    snprintf(name, 32, ".tmp-w-%012llx", (unsigned long long)(r & 0xffffffffffffull));
    int fd = openat(sub, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != EEXIST)
      return fd;
  }
  return -1;
}

/* Temporary file in the entry's folder, then rename: first writer wins,
 * a later one replaces it with identical content.  No fsync: a crash can
 * leave a torn file, which validation turns into a miss. */
static bool publish(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], const uint8_t *buf, size_t n) {
  char hex[65], name[72], tmp[32];
  int sub = open_sub_of(c, key, true, hex);
  if (sub < 0 && errno == ENOENT) { /* the whole folder was removed under us */
    reopen_root(c);
    sub = open_root(c, true) ? open_sub_of(c, key, true, hex) : -1;
  }
  if (sub < 0)
    return false;
  int fd = make_temp(sub, tmp);
  bool ok = fd >= 0 && write_all(fd, buf, n);
  int err = errno;
  if (fd >= 0 && close(fd) != 0 && ok)
    ok = false, err = errno;
  snprintf(name, sizeof name, "%s.kjc", hex);
  if (ok && renameat(sub, tmp, sub, name) != 0)
    ok = false, err = errno;
  if (!ok && fd >= 0)
    unlinkat(sub, tmp, 0);
  close(sub);
  errno = err;
  return ok;
}

static void account(RtCache *c, size_t n);

bool rt_cache_put(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], const RtCacheEntry *e) {
  if (!c || !c->enabled || !e || c->shared)
    return false;
  errno = 0;
  if (!open_root(c, true))
    return false;
  size_t n = 0;
  uint8_t *buf = serialize(c, key, e, &n);
  if (!buf)
    return false;
  bool ok = publish(c, key, buf, n);
  if (!ok && c->enabled)
    disable(c, errno ? errno : EIO);
  free(buf);
  if (!ok)
    return false;
  c->stores++;
  account(c, n);
  return true;
}

/* ------------------------------------------------------ compile once --- */

void rt_cache_set_lock_fn(RtCache *c, RtFileLockFn fn) {
  if (c)
    c->lock_fn = fn;
}

/* KJIT_TEST_CACHE_HOLD_MS: tests hold the lock this long (to be killed or
 * outwaited while holding it). */
static void hold_for_tests(void) {
  const char *ms = rt_setting(RT_SET_TEST_CACHE_HOLD);
  long v = ms ? strtol(ms, NULL, 10) : 0;
  struct timespec ts = {v / 1000, v % 1000 * 1000000L};
  while (v > 0 && nanosleep(&ts, &ts) != 0 && errno == EINTR)
    continue;
}

/* Takes <xx>/<hex>.lock in the entry's subfolder (made if need be); a
 * read-only or shared cache has nobody storing, so nobody locks. */
static RtLockResult take_lock(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], RtCacheClaim *claim,
                              bool *waited) {
  char hex[65];
  *waited = false;
  if (c->shared || !open_root(c, true))
    return RT_LOCK_UNSUPPORTED;
  int sub = open_sub_of(c, key, true, hex);
  char *name = sub >= 0 ? format_text("%s%s", hex, ".lock") : NULL;
  RtLockResult r = name ? rt_file_lock_wait_at(sub, name, c->lock_wait, c->lock_fn, &claim->lock, waited)
                        : RT_LOCK_UNSUPPORTED;
  if (r == RT_LOCK_TAKEN) {
    claim->path = name, claim->dirfd = sub;
    return r;
  }
  free(name);
  if (sub >= 0)
    close(sub);
  return r;
}

bool rt_cache_claim(RtCache *c, const uint8_t key[RT_CACHE_KEY_SIZE], RtCacheEntry *out,
                    RtCacheClaim *claim) {
  memset(claim, 0, sizeof *claim);
  claim->lock.fd = -1;
  claim->dirfd = -1;
  memset(out, 0, sizeof *out);
  if (!c || !c->enabled)
    return false;
  bool invalid;
  if (lookup(c, key, out, &invalid)) {
    c->hits++;
    return true;
  }
  bool waited = false;
  RtLockResult r = c->enabled ? take_lock(c, key, claim, &waited) : RT_LOCK_UNSUPPORTED;
  c->waits += waited;
  /* Look again: the process we waited for has published the entry (or
   * died), or one published it between our lookup and our lock. */
  if ((waited || r == RT_LOCK_TAKEN) && lookup(c, key, out, &invalid)) {
    rt_cache_release(claim);
    c->hits++;
    return true;
  }
  c->misses++;
  if (r == RT_LOCK_TAKEN)
    hold_for_tests();
  return false;
}

void rt_cache_release(RtCacheClaim *claim) {
  if (!claim || !claim->path)
    return;
  rt_file_unlock_at(claim->dirfd, claim->path, &claim->lock);
  close(claim->dirfd);
  free(claim->path);
  claim->path = NULL;
  claim->dirfd = -1;
}

/* ----------------------------------------------------- scan and evict --- */

typedef struct ScanItem {
  char rel[80];          /* "xx/<name>" under the cache folder */
  uint64_t size;
  uint64_t stamp;        /* last used; 0 when the header is unreadable */
} ScanItem;

typedef struct Scan {
  ScanItem *items;
  size_t n, cap;
  uint64_t bytes;
} Scan;

static bool is_hex2(const char *s) {
  return strlen(s) == 2 && strspn(s, "0123456789abcdef") == 2;
}

static bool has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static uint64_t read_stamp(int sub, const char *name) {
  uint8_t h[HEADER_SIZE];
  const char *why;
  int fd = rt_open_regular_at(sub, name, RT_OPEN_NOFOLLOW, NULL, &why);
  if (fd < 0)
    return 0;
  ssize_t r = pread(fd, h, sizeof h, 0);
  close(fd);
  return r == (ssize_t)sizeof h && memcmp(h, magic, sizeof magic) == 0 ? get_u64(h + OFF_STAMP) : 0;
}

static void scan_add(Scan *s, const char *sub, const char *name, uint64_t size, uint64_t stamp) {
  if (strlen(name) > 72)
    return;
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    ScanItem *items = realloc(s->items, cap * sizeof *items);
    if (!items)
      return;
    s->items = items, s->cap = cap;
  }
  ScanItem *it = &s->items[s->n++];
  snprintf(it->rel, sizeof it->rel, "%s/%s", sub, name);
  it->size = size, it->stamp = stamp;
  s->bytes += size;
}

/* A temporary file a dead writer left behind, or the lock file of a
 * holder that died, an hour old, is removed (a lock only if nobody holds
 * it; rt_file_lock_is_stale_at removes it then). */
static void sweep(int sub, const char *name, const struct stat *st, bool lock) {
  uint64_t mtime = (uint64_t)st->st_mtim.tv_sec * 1000000000ull + (uint64_t)st->st_mtim.tv_nsec;
  if (now_ns() - mtime <= STALE_TMP_NS)
    return;
  if (!lock)
    unlinkat(sub, name, 0);
  else
    rt_file_lock_is_stale_at(sub, name, NULL);
}

/* One subfolder, read through its descriptor: lstat-style (a link is
 * never followed; a link or other non-file named like an entry is removed
 * as the name it is, what it points to untouched). */
static void scan_subdir(RtCache *c, const char *subname, bool stamps, Scan *s) {
  int sub = open_sub(c, subname, false);
  DIR *d = sub >= 0 ? fdopendir(sub) : NULL;
  if (!d) {
    if (sub >= 0)
      close(sub);
    return;
  }
  for (struct dirent *de; (de = readdir(d));) {
    bool entry = has_suffix(de->d_name, ".kjc"), tmp = strncmp(de->d_name, ".tmp-", 5) == 0;
    bool lock = has_suffix(de->d_name, ".lock");
    struct stat st;
    if ((!entry && !tmp && !lock) || fstatat(sub, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
      continue;
    if (!S_ISREG(st.st_mode)) {
      if (!c->shared && !S_ISDIR(st.st_mode))
        unlinkat(sub, de->d_name, 0);
      continue;
    }
    if (tmp || lock) {
      if (!c->shared)
        sweep(sub, de->d_name, &st, lock);
      continue;
    }
    scan_add(s, subname, de->d_name, (uint64_t)st.st_size, stamps ? read_stamp(sub, de->d_name) : 0);
  }
  closedir(d);
}

/* Every entry file under the cache folder; false if it is unreadable or
 * refused. */
static bool scan(RtCache *c, bool stamps, Scan *s) {
  memset(s, 0, sizeof *s);
  if (!*c->dir)
    return false;
  if (!open_root(c, false)) {
    struct stat st;
    return c->enabled && stat(c->dir, &st) != 0 && errno == ENOENT; /* none yet: empty */
  }
  int fd = dup(c->dirfd);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) {
    if (fd >= 0)
      close(fd);
    return false;
  }
  rewinddir(d);
  for (struct dirent *de; (de = readdir(d));)
    if (is_hex2(de->d_name))
      scan_subdir(c, de->d_name, stamps, s);
  closedir(d);
  return true;
}

static void scan_free(Scan *s) { free(s->items); }

/* Removes "xx/name": the subfolder reopened without following a link. */
static bool remove_rel(RtCache *c, const char *rel) {
  char subname[3] = {rel[0], rel[1], '\0'};
  int sub = c->dirfd >= 0 ? openat(c->dirfd, subname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
  if (sub < 0)
    return false;
  bool ok = unlinkat(sub, rel + 3, 0) == 0 || errno == ENOENT;
  close(sub);
  return ok;
}

static int by_stamp(const void *a, const void *b) {
  uint64_t x = ((const ScanItem *)a)->stamp, y = ((const ScanItem *)b)->stamp;
  return x < y ? -1 : x > y;
}

long rt_cache_prune(RtCache *c, uint64_t max_bytes) {
  Scan s;
  if (!c || c->shared || !scan(c, true, &s))
    return -1;
  if (s.n > 1)
    qsort(s.items, s.n, sizeof *s.items, by_stamp);
  long removed = 0;
  for (size_t i = 0; i < s.n && s.bytes > max_bytes; i++)
    if (remove_rel(c, s.items[i].rel)) {
      s.bytes -= s.items[i].size;
      removed++;
    }
  c->evictions += (uint64_t)removed;
  c->total = (int64_t)s.bytes;
  scan_free(&s);
  return removed;
}

/* After a store: past the cap, evict down to 90% of it, so that a cache
 * at its cap does not rescan on every store. */
static void account(RtCache *c, size_t n) {
  if (c->total < 0) {
    Scan s;
    c->total = scan(c, false, &s) ? (int64_t)s.bytes : 0;
    scan_free(&s);
  } else {
    c->total += (int64_t)n;
  }
  if ((uint64_t)c->total > c->max_bytes)
    rt_cache_prune(c, c->max_bytes / 10 * 9);
}

long rt_cache_clear(RtCache *c) {
  Scan s;
  if (!c || c->shared || !scan(c, false, &s))
    return -1;
  long removed = 0;
  for (size_t i = 0; i < s.n; i++)
    removed += remove_rel(c, s.items[i].rel);
  scan_free(&s);
  c->total = 0;
  return removed;
}

void rt_cache_stats(RtCache *c, RtCacheStats *out) {
  memset(out, 0, sizeof *out);
  if (!c)
    return;
  Scan s;
  if (scan(c, false, &s)) {
    out->entries = s.n;
    out->bytes = s.bytes;
    c->total = (int64_t)s.bytes;
  }
  scan_free(&s);
  out->enabled = c->enabled;
  out->dir = c->dir;
  out->max_bytes = c->max_bytes;
  out->hits = c->hits, out->misses = c->misses;
  out->stores = c->stores, out->evictions = c->evictions;
  out->waits = c->waits;
}
