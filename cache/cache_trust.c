/* cache_trust.c - what the disk cache trusts (docs/cache.md, "Security").
 *
 * A CPU-target entry is object code that kjit loads and calls, so an entry
 * someone else could have written would run their code as the user.  Two
 * rules close that: (1) every folder and entry kjit uses is owned by the
 * running user (or root) and writable by nobody else, checked on the open
 * descriptor (never by a second lookup of the path); (2) every entry
 * carries an HMAC-SHA256 made with a per-user key kept in the user's
 * private config folder (mode 0600), so an entry copied from another
 * cache, or forged by someone who can compute the key of the lookup, fails
 * verification.  A shared read-only cache (KJIT_CACHE_SHARED=1) may be
 * owned by another user but still writable only by that owner, and its
 * entries are verified with the key file KJIT_CACHE_KEY names. */
#include "cache/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "common/file.h"
#include "common/settings.h"

const char *rt_cache_untrusted(const struct stat *st, bool shared, char *buf, size_t n) {
  uid_t me = geteuid();
  if (!shared && st->st_uid != me && st->st_uid != 0) {
    snprintf(buf, n, "it is owned by uid %u, not by this user (uid %u)", (unsigned)st->st_uid, (unsigned)me);
    return buf;
  }
  if (st->st_mode & (S_IWGRP | S_IWOTH)) {
    snprintf(buf, n, "it is writable by %s (mode %04o)",
             (st->st_mode & S_IWOTH) ? "others" : "its group", (unsigned)(st->st_mode & 07777));
    return buf;
  }
  return NULL;
}

/* ---------------------------------------------------------- the key --- */

static char *key_path(void) {
  const char *k = rt_setting(RT_SET_CACHE_KEY);
  if (k)
    return strdup(k);
  const char *xdg = rt_setting(RT_SET_XDG_CONFIG_HOME), *home = rt_setting(RT_SET_HOME);
  if (!xdg && !home) {
    struct passwd *pw = getpwuid(getuid());
    home = pw ? pw->pw_dir : NULL;
  }
  if (!xdg && !home)
    return NULL;
  size_t n = strlen(xdg ? xdg : home) + 32;
  char *p = malloc(n);
  if (p)
    snprintf(p, n, "%s/%s", xdg ? xdg : home, xdg ? "kjit/cache-key" : ".config/kjit/cache-key");
  return p;
}

/* mkdir -p of path's folder, new folders 0700. */
static void make_parent(const char *path) {
  char *p = strdup(path);
  char *slash = p ? strrchr(p, '/') : NULL;
  if (slash && slash != p) {
    *slash = '\0';
    for (char *s = p + 1; *s; s++)
      if (*s == '/') {
        *s = '\0';
        mkdir(p, 0700);
        *s = '/';
      }
    mkdir(p, 0700);
  }
  free(p);
}

/* 32 random bytes written to a private temporary, then linked into place:
 * link fails if another process made the key first, and then its key is
 * the one read back (both processes end up using one key). */
static void create_key(const char *path) {
  uint8_t k[RT_CACHE_MAC_KEY];
  size_t got = 0;
  while (got < sizeof k) {
    ssize_t r = getrandom(k + got, sizeof k - got, 0);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return;
    got += (size_t)r;
  }
  make_parent(path);
  size_t n = strlen(path) + 24;
  char *tmp = malloc(n);
  if (!tmp)
    return;
  snprintf(tmp, n, "%s.tmp-XXXXXX", path);
  int fd = mkstemp(tmp); /* mode 0600 */
  if (fd >= 0) {
    bool ok = write(fd, k, sizeof k) == (ssize_t)sizeof k;
    ok = close(fd) == 0 && ok;
    if (ok && link(tmp, path) != 0 && errno != EEXIST)
      (void)0;
    unlink(tmp);
  }
  free(tmp);
}

bool rt_cache_load_key(bool shared, uint8_t key[RT_CACHE_MAC_KEY], char *err, size_t errlen) {
  char *path = key_path();
  if (!path) {
    snprintf(err, errlen, "no folder for the cache's integrity key (HOME and XDG_CONFIG_HOME are unset)");
    return false;
  }
  bool explicit_key = rt_setting(RT_SET_CACHE_KEY) != NULL;
  const char *why = NULL;
  struct stat st;
  int fd = rt_open_regular_at(AT_FDCWD, path, RT_OPEN_NOFOLLOW, &st, &why);
  if (fd < 0 && !why && errno == ENOENT && !shared) {
    create_key(path);
    fd = rt_open_regular_at(AT_FDCWD, path, RT_OPEN_NOFOLLOW, &st, &why);
  }
  char reason[160];
  const char *bad = fd < 0 ? (why ? why : strerror(errno)) : NULL;
  if (!bad && (bad = rt_cache_untrusted(&st, shared, reason, sizeof reason)) == NULL && !explicit_key &&
      (st.st_mode & 077))
    bad = "it is readable by others (the key must be private: mode 0600)";
  ssize_t got = bad ? -1 : pread(fd, key, RT_CACHE_MAC_KEY, 0);
  if (!bad && (got != RT_CACHE_MAC_KEY || st.st_size != RT_CACHE_MAC_KEY))
    bad = "it is not a 32-byte key";
  if (fd >= 0)
    close(fd);
  if (bad)
    snprintf(err, errlen, "the cache's integrity key '%s' cannot be used: %s", path, bad);
  free(path);
  return !bad;
}

/* HMAC-SHA256 (RFC 2104) over two parts: the entry's header fields and
 * its payload. */
void rt_cache_mac(const uint8_t key[RT_CACHE_MAC_KEY], const void *a, size_t alen, const void *b,
                  size_t blen, uint8_t out[SHA256_SIZE]) {
  uint8_t pad[64], inner[SHA256_SIZE];
  Sha256 h;
  memset(pad, 0x36, sizeof pad);
  for (int i = 0; i < RT_CACHE_MAC_KEY; i++)
    pad[i] ^= key[i];
  sha256_init(&h);
  sha256_update(&h, pad, sizeof pad);
  sha256_update(&h, a, alen);
  sha256_update(&h, b, blen);
  sha256_final(&h, inner);
  for (int i = 0; i < 64; i++)
    pad[i] ^= 0x36 ^ 0x5c;
  sha256_init(&h);
  sha256_update(&h, pad, sizeof pad);
  sha256_update(&h, inner, sizeof inner);
  sha256_final(&h, out);
}
