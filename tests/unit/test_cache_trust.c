/* test_cache_trust.c - what the disk cache trusts (cache/cache_trust.c,
 * docs/cache.md "Security"), through the cache's own interface.
 *
 * Covers: folders and entries made 0700/0600; a cache folder or subfolder
 * writable by group or others, or a subfolder that is a link, turns the
 * cache off with one warning naming the path and the fix; stats and clear
 * never delete through a linked subfolder; a link at a lock's name creates
 * nothing where it points; a FIFO or a link at an entry's name is a miss
 * (no hang) and is removed as a name; an entry copied from a cache with
 * another integrity key, or sealed with a plain checksum, is a miss; the
 * key file is made 0600 and refused when others can read it; a shared
 * cache (KJIT_CACHE_SHARED=1) is read, verified and never written.
 * Runs in a temporary folder with XDG_CONFIG_HOME inside it. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/cache.h"
#include "common/arena.h"
#include "check.h"

static char root[256];
static const uint8_t key1[RT_CACHE_KEY_SIZE] = {0x42, 1, 2, 3};
static const uint8_t key2[RT_CACHE_KEY_SIZE] = {0x42, 9, 9, 9};

static const char *in(const char *name) {
  static char bufs[8][512];
  static int next;
  char *b = bufs[next++ % 8];
  snprintf(b, sizeof bufs[0], "%s/%s", root, name);
  return b;
}

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *f) {
  (void)st, (void)flag, (void)f;
  return remove(p);
}

static RtCacheEntry entry_of(const char *text) {
  RtCacheEntry e = {0};
  rt_cache_entry_add(&e, RT_SEC_PTX, text, strlen(text));
  return e;
}

static int mode_of(const char *p) {
  struct stat st;
  return lstat(p, &st) == 0 ? (int)(st.st_mode & 07777) : -1;
}

/* The pending warning's text ("" when none). */
static const char *warning_of(RtCache *c) {
  static char buf[2048];
  Arena a;
  Diags d;
  arena_init(&a);
  diags_init(&d, &a);
  rt_cache_flush_warnings(c, &d);
  const Diag *w = d.list.len ? &d.list.data[0] : NULL;
  snprintf(buf, sizeof buf, "%s%s%s", w ? w->msg : "", w && w->hint ? " | " : "", w && w->hint ? w->hint : "");
  arena_destroy(&a);
  return buf;
}

static bool put_get(RtCache *c, const uint8_t *key, const char *text) {
  RtCacheEntry e = entry_of(text), got;
  bool ok = rt_cache_put(c, key, &e) && rt_cache_get(c, key, &got);
  if (ok)
    rt_cache_entry_release(&got);
  return ok;
}

static void test_modes(void) {
  RtCache *c = rt_cache_open_dir(in("modes/cache"), true, NULL);
  CHECK(put_get(c, key1, "one"));
  const char *entry = rt_cache_entry_path(c, key1);
  CHECK(mode_of(entry) == 0600, "entry mode %o", mode_of(entry));
  CHECK(mode_of(in("modes/cache")) == 0700);
  CHECK(mode_of(in("config/kjit/cache-key")) == 0600);
  rt_cache_close(c);
}

static void test_group_writable(void) {
  const char *dir = in("gw");
  mkdir(dir, 0700);
  chmod(dir, 0777);
  RtCache *c = rt_cache_open_dir(dir, true, NULL);
  RtCacheEntry e = entry_of("x"), got;
  CHECK(!rt_cache_put(c, key1, &e) && !rt_cache_get(c, key1, &got) && !rt_cache_enabled(c));
  const char *w = warning_of(c);
  CHECK(strstr(w, "is not used: it is writable by others (mode 0777); caching disabled") && strstr(w, dir) &&
        strstr(w, "chmod 700"), "%s", w);
  CHECK(*warning_of(c) == '\0'); /* once */
  rt_cache_close(c);
  /* a subfolder made group-writable after the fact */
  chmod(dir, 0700);
  c = rt_cache_open_dir(dir, true, NULL);
  CHECK(put_get(c, key1, "x"));
  rt_cache_close(c);
  char sub[600];
  snprintf(sub, sizeof sub, "%s", rt_cache_entry_path(c = rt_cache_open_dir(dir, true, NULL), key1));
  *strrchr(sub, '/') = '\0';
  chmod(sub, 0770);
  CHECK(!rt_cache_get(c, key1, &got) && !rt_cache_enabled(c));
  w = warning_of(c);
  CHECK(strstr(w, "cache subfolder") && strstr(w, "writable by its group"), "%s", w);
  rt_cache_close(c);
}

/* <cache>/<xx> replaced by a link to a folder of someone's files. */
static void test_linked_subfolder(void) {
  const char *dir = in("lsub"), *victim = in("victim");
  mkdir(victim, 0700);
  RtCache *c = rt_cache_open_dir(dir, true, NULL);
  CHECK(put_get(c, key1, "x"));
  char sub[600], cmd[2600];
  snprintf(sub, sizeof sub, "%s", rt_cache_entry_path(c, key1));
  rt_cache_close(c);
  char *slash = strrchr(sub, '/');
  *slash = '\0';
  /* the victim folder holds a file named like the entry */
  snprintf(cmd, sizeof cmd, "mv '%s'/*.kjc '%s'/ && rmdir '%s' && ln -s '%s' '%s'", sub, victim, sub, victim, sub);
  CHECK(system(cmd) == 0);
  c = rt_cache_open_dir(dir, true, NULL);
  RtCacheStats s;
  rt_cache_stats(c, &s);
  CHECK(rt_cache_clear(c) <= 0);
  snprintf(cmd, sizeof cmd, "test $(ls '%s' | wc -l) -eq 1", victim);
  CHECK(system(cmd) == 0, "a file in the linked folder was deleted");
  CHECK(strstr(warning_of(c), "is a symbolic link"));
  rt_cache_close(c);
}

/* A link at the lock's name: claiming the entry creates nothing there. */
static void test_linked_lock(void) {
  const char *dir = in("llock");
  RtCache *c = rt_cache_open_dir(dir, true, NULL);
  CHECK(put_get(c, key2, "other")); /* makes the folders */
  char lock[700], target[600];
  snprintf(lock, sizeof lock, "%s", rt_cache_entry_path(c, key1));
  strcpy(strstr(lock, ".kjc"), ".lock");
  snprintf(target, sizeof target, "%s", in("planted"));
  char sub[700];
  snprintf(sub, sizeof sub, "%s", lock);
  *strrchr(sub, '/') = '\0';
  mkdir(sub, 0700);
  CHECK(symlink(target, lock) == 0);
  RtCacheEntry got;
  RtCacheClaim cl;
  CHECK(!rt_cache_claim(c, key1, &got, &cl));
  rt_cache_release(&cl);
  CHECK(access(target, F_OK) != 0, "a file was created through the link");
  rt_cache_close(c);
}

/* A FIFO, and a link to one, at an entry's name: a miss at once. */
static void test_fifo_entry(void) {
  const char *dir = in("fifo");
  RtCache *c = rt_cache_open_dir(dir, true, NULL);
  CHECK(put_get(c, key1, "x"));
  char entry[700];
  snprintf(entry, sizeof entry, "%s", rt_cache_entry_path(c, key1));
  rt_cache_close(c);
  for (int link = 0; link < 2; link++) {
    unlink(entry);
    if (link) {
      mkfifo(in("a fifo"), 0600);
      CHECK(symlink(in("a fifo"), entry) == 0);
    } else {
      CHECK(mkfifo(entry, 0600) == 0);
    }
    c = rt_cache_open_dir(dir, true, NULL);
    RtCacheEntry got;
    alarm(10); /* a hang fails the test */
    CHECK(!rt_cache_get(c, key1, &got));
    alarm(0);
    const char *w = warning_of(c);
    CHECK(strstr(w, link ? "it is a symbolic link" : "it is a FIFO"), "%s", w);
    struct stat st;
    CHECK(lstat(entry, &st) != 0, "the bad name was not removed");
    CHECK(put_get(c, key1, "again"));
    rt_cache_close(c);
  }
  struct stat st;
  CHECK(lstat(in("a fifo"), &st) == 0 && S_ISFIFO(st.st_mode)); /* the target untouched */
}

/* An entry sealed with another key (a copied cache) is not trusted. */
static void test_foreign_key(void) {
  const char *dir = in("foreign");
  RtCache *c = rt_cache_open_dir(dir, true, NULL);
  CHECK(put_get(c, key1, "mine"));
  rt_cache_close(c);
  setenv("KJIT_CACHE_KEY", in("other key"), 1);
  FILE *f = fopen(in("other key"), "w");
  for (int i = 0; f && i < RT_CACHE_MAC_KEY; i++)
    fputc(i * 7, f);
  if (f)
    fclose(f);
  chmod(in("other key"), 0600);
  c = rt_cache_open_dir(dir, true, NULL);
  RtCacheEntry got;
  CHECK(!rt_cache_get(c, key1, &got), "an entry sealed with another key was loaded");
  CHECK(put_get(c, key1, "theirs"));
  rt_cache_close(c);
  /* a key file others can write is refused */
  chmod(in("other key"), 0666);
  c = rt_cache_open_dir(dir, true, NULL);
  CHECK(!rt_cache_get(c, key1, &got) && !rt_cache_enabled(c));
  CHECK(strstr(warning_of(c), "integrity key"));
  rt_cache_close(c);
  unsetenv("KJIT_CACHE_KEY");
  /* the user's own key readable by others: refused */
  chmod(in("config/kjit/cache-key"), 0644);
  c = rt_cache_open_dir(dir, true, NULL);
  CHECK(!rt_cache_get(c, key1, &got) && strstr(warning_of(c), "readable by others"));
  rt_cache_close(c);
  chmod(in("config/kjit/cache-key"), 0600);
}

/* A shared cache: read and verified with the key it names, never written. */
static void test_shared(void) {
  const char *dir = in("shared");
  setenv("KJIT_CACHE_KEY", in("shared key"), 1);
  FILE *f = fopen(in("shared key"), "w");
  for (int i = 0; f && i < RT_CACHE_MAC_KEY; i++)
    fputc(i * 13 + 1, f);
  if (f)
    fclose(f);
  chmod(in("shared key"), 0644);
  RtCache *c = rt_cache_open_dir(dir, true, NULL);
  CHECK(put_get(c, key1, "prepared"));
  rt_cache_close(c);
  setenv("KJIT_CACHE_SHARED", "1", 1);
  c = rt_cache_open_dir(dir, true, NULL);
  RtCacheEntry got, e = entry_of("new");
  CHECK(rt_cache_get(c, key1, &got));
  rt_cache_entry_release(&got);
  CHECK(!rt_cache_put(c, key2, &e) && !rt_cache_get(c, key2, &got));
  CHECK(rt_cache_clear(c) < 0);
  rt_cache_close(c);
  unsetenv("KJIT_CACHE_KEY");
  c = rt_cache_open_dir(dir, true, NULL); /* verified with the wrong key: nothing */
  CHECK(!rt_cache_get(c, key1, &got));
  rt_cache_close(c);
  unsetenv("KJIT_CACHE_SHARED");
}

static void test_empty_prune(void) {
  RtCache *c = rt_cache_open_dir(in("empty"), true, NULL);
  CHECK(rt_cache_prune(c, 0) == 0);
  rt_cache_close(c);
}

int main(void) {
  snprintf(root, sizeof root, "%s/kjit trust tëst-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(root))
    return perror("mkdtemp"), 1;
  setenv("XDG_CONFIG_HOME", in("config"), 1);
  unsetenv("KJIT_CACHE_KEY");
  unsetenv("KJIT_CACHE_SHARED");
  unsetenv("KJIT_CACHE");
  test_modes();
  test_group_writable();
  test_linked_subfolder();
  test_linked_lock();
  test_fifo_entry();
  test_foreign_key();
  test_shared();
  test_empty_prune();
  nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  printf("test_cache_trust: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
