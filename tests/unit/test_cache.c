/* test_cache.c - the disk cache (cache/cache.c, cache_key.c, cache_api.c).
 *
 * Covers: put/get round trip; a compile repeated is a hit with identical
 * bytes; options, arch, signature, a changed device function, a changed
 * module constant, KJIT_LIBDEVICE and line shifts under lineinfo each give
 * a new key (and whitespace alone does not without lineinfo); truncated,
 * bit-flipped, garbage and wrong-version entries are misses and get
 * rewritten; an unwritable directory (chmod 0500, or as root a path under
 * a regular file and /proc; a read-only bind mount where permitted) and a
 * write cut short (RLIMIT_FSIZE) give one
 * warning and a good compile; LRU eviction order under the size cap;
 * 16 processes compiling the same and different kernels into one directory
 * at once, each kernel compiled by one of them; KJIT_CACHE=0.  Every directory has spaces and non-ASCII letters
 * in its path.  Prints each failure; exit 1 if any. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kjit.h"
#include "cache/cache.h"
#include "check.h"

static char root[256]; /* "<tmp>/kjit cache tëst-XXXXXX" */

/* --------------------------------------------------------------- data --- */

static const char vector_add[] =
    "from numba import cuda\n"
    "\n"
    "SCALE = 2.0\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def twice(x):\n"
    "    return x * SCALE\n"
    "\n"
    "@cuda.jit(\"void(float32[::1], float32[::1], float32[::1])\")\n"
    "def add(x, y, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = x[i] + twice(y[i])\n"
    "\n"
    "@cuda.jit\n"
    "def scale(a, f):\n"
    "    i = cuda.grid(1)\n"
    "    if i < a.size:\n"
    "        a[i] = a[i] * f\n";

/* The same text with `old` replaced by `new` (static buffer). */
static const char *edit(const char *src, const char *old, const char *new) {
  static char bufs[2][4096];
  static int next;
  char *buf = bufs[next++ % 2]; /* src may be the previous result */
  const char *at = strstr(src, old);
  if (!at)
    return src;
  snprintf(buf, sizeof bufs[0], "%.*s%s%s", (int)(at - src), src, new, at + strlen(old));
  return buf;
}

/* ------------------------------------------------------------ helpers --- */

/* dir/name, malloc'd; every one is freed at exit (free_paths). */
static char **paths;
static int npaths;

static char *path_in(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  char **grown = realloc(paths, sizeof *paths * (size_t)(npaths + 1));
  if (!p || !grown)
    abort(); /* a test program out of memory */
  snprintf(p, n, "%s/%s", dir, name);
  paths = grown;
  paths[npaths++] = p;
  return p;
}

static void free_paths(void) {
  for (int i = 0; i < npaths; i++)
    free(paths[i]);
  free(paths);
}

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *f) {
  (void)st, (void)flag, (void)f;
  return remove(p);
}

static void remove_tree(const char *dir) {
  nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static kjit_context *open_ctx(const char *dir) {
  kjit_context *ctx = NULL;
  if (kjit_context_create(NULL, &ctx) != KJIT_OK)
    return NULL;
  kjit_cache_configure(ctx, 1, dir);
  return ctx;
}

typedef struct Result {
  kjit_status st;
  char *ptx;
  size_t len;
  bool hit;              /* the cache answered */
  bool warned;           /* the diagnostics hold the cache warning */
} Result;

static Result compile_src(kjit_context *ctx, const char *src, const char *kernel,
                          const char *sig, const kjit_compile_options *o) {
  Result r = {0};
  kjit_cache_info before, after;
  kjit_cache_stats(ctx, &before);
  kjit_program *p = NULL;
  r.st = kjit_program_load_source(ctx, "k.py", src, &p);
  if (r.st == KJIT_OK)
    r.st = kjit_program_emit(p, kernel, sig, o, KJIT_EMIT_PTX, &r.ptx, &r.len);
  r.warned = strstr(kjit_last_diagnostics(ctx), "caching disabled") != NULL;
  if (r.st != KJIT_OK)
    fprintf(stderr, "compile failed: %s\n", kjit_last_error(ctx));
  kjit_program_destroy(p);
  kjit_cache_stats(ctx, &after);
  r.hit = after.hits > before.hits;
  return r;
}

static bool same_ptx(const Result *a, const Result *b) {
  return a->ptx && b->ptx && a->len == b->len && memcmp(a->ptx, b->ptx, a->len) == 0;
}

static void drop(Result *r) {
  kjit_free(r->ptx);
  r->ptx = NULL;
}

/* The only entry file under dir (NULL if not exactly one). */
static char *only_entry(const char *dir) {
  static char found[1024];
  int n = 0;
  DIR *d = opendir(dir);
  for (struct dirent *de; d && (de = readdir(d));) {
    if (strlen(de->d_name) != 2 || de->d_name[0] == '.')
      continue;
    DIR *s = opendir(path_in(dir, de->d_name));
    for (struct dirent *e; s && (e = readdir(s));)
      if (strstr(e->d_name, ".kjc") && ++n == 1)
        snprintf(found, sizeof found, "%s/%s/%s", dir, de->d_name, e->d_name);
    if (s)
      closedir(s);
  }
  if (d)
    closedir(d);
  return n == 1 ? found : NULL;
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* -------------------------------------------------------------- tests --- */

static void test_round_trip(void) {
  const char *dir = path_in(root, "round trip ü");
  RtCache *c = rt_cache_open_dir(dir, true, NULL);
  uint8_t key[32], other[32];
  for (int i = 0; i < 32; i++)
    key[i] = (uint8_t)i, other[i] = (uint8_t)(i + 1);
  static const uint8_t bin[5] = {0, 1, 2, 0, 255};
  RtCacheEntry e = {0}, got;
  rt_cache_entry_add(&e, RT_SEC_PTX, "hello ptx", 9);
  rt_cache_entry_add(&e, RT_SEC_CUBIN, bin, sizeof bin);
  rt_cache_entry_add(&e, RT_SEC_META, "", 0);
  CHECK(!rt_cache_get(c, key, &got));
  CHECK(rt_cache_put(c, key, &e));
  CHECK(rt_cache_get(c, key, &got));
  size_t n = 0;
  const char *ptx = rt_cache_entry_find(&got, RT_SEC_PTX, &n);
  CHECK(ptx && n == 9 && memcmp(ptx, "hello ptx", 9) == 0 && ptx[9] == '\0');
  const uint8_t *b = rt_cache_entry_find(&got, RT_SEC_CUBIN, &n);
  CHECK(b && n == 5 && memcmp(b, bin, 5) == 0 && ((uintptr_t)b & 7) == 0);
  CHECK(rt_cache_entry_find(&got, RT_SEC_META, &n) && n == 0);
  CHECK(!rt_cache_entry_find(&got, RT_SEC_HOSTOBJ, NULL));
  rt_cache_entry_release(&got);
  CHECK(!rt_cache_get(c, other, &got));
  RtCacheStats s;
  rt_cache_stats(c, &s);
  CHECK(s.enabled && s.entries == 1 && s.hits == 1 && s.misses == 2 && s.stores == 1);
  CHECK(strcmp(s.dir, dir) == 0);
  rt_cache_close(c);
}

/* Same kernel twice: a hit, identical bytes; a new context (as a new
 * process would) hits too. */
static void test_hit(void) {
  const char *dir = path_in(root, "hit é");
  kjit_context *ctx = open_ctx(dir);
  Result a = compile_src(ctx, vector_add, "add", NULL, NULL);
  Result b = compile_src(ctx, vector_add, "add", NULL, NULL);
  CHECK(a.st == KJIT_OK && !a.hit && b.hit && same_ptx(&a, &b));
  kjit_context_destroy(ctx);
  ctx = open_ctx(dir);
  Result c = compile_src(ctx, vector_add, "add", NULL, NULL);
  CHECK(c.hit && same_ptx(&a, &c));
  kjit_context *off = NULL;
  kjit_context_create(NULL, &off);
  kjit_cache_configure(off, 0, dir);
  Result d = compile_src(off, vector_add, "add", NULL, NULL);
  CHECK(!d.hit && same_ptx(&a, &d)); /* a cached compile = a fresh one */
  kjit_context_destroy(off);
  drop(&a), drop(&b), drop(&c), drop(&d);
  kjit_context_destroy(ctx);
}

/* A variant must miss (a new key) and, compiled again, hit. */
static void expect_new_key(kjit_context *ctx, const char *what, const char *src,
                           const char *kernel, const char *sig, const kjit_compile_options *o) {
  Result r = compile_src(ctx, src, kernel, sig, o);
  Result again = compile_src(ctx, src, kernel, sig, o);
  checks++;
  if (r.st != KJIT_OK || r.hit || !again.hit) {
    failures++;
    fprintf(stderr, "test_cache: %s: expected a miss then a hit (status %d, hit %d, %d)\n",
            what, r.st, r.hit, again.hit);
  }
  drop(&r), drop(&again);
}

static void test_keys(void) {
  kjit_context *ctx = open_ctx(path_in(root, "keys 鍵"));
  kjit_compile_options o;
  Result base = compile_src(ctx, vector_add, "add", NULL, NULL);
  kjit_compile_options_init(&o);
  o.arch = "sm_90";
  expect_new_key(ctx, "arch sm_90", vector_add, "add", NULL, &o);
  kjit_compile_options_init(&o);
  o.opt_level = 1;
  expect_new_key(ctx, "opt 1", vector_add, "add", NULL, &o);
  kjit_compile_options_init(&o);
  o.fastmath = 1;
  expect_new_key(ctx, "fastmath", vector_add, "add", NULL, &o);
  kjit_compile_options_init(&o);
  o.max_registers = 32;
  expect_new_key(ctx, "max_registers", vector_add, "add", NULL, &o);
  expect_new_key(ctx, "signature float32", vector_add, "scale", "void(float32[::1], float32)", NULL);
  expect_new_key(ctx, "signature float64", vector_add, "scale", "void(float64[::1], float64)", NULL);
  /* Numba's stale-cache bug: only a device function's body changes */
  expect_new_key(ctx, "device function body", edit(vector_add, "x * SCALE", "x * SCALE + 1.0"),
                 "add", NULL, NULL);
  expect_new_key(ctx, "module constant", edit(vector_add, "SCALE = 2.0", "SCALE = 3.0"), "add",
                 NULL, NULL);
  /* positions are not part of the output without line info ... */
  Result moved = compile_src(ctx, edit(vector_add, "SCALE = 2.0\n", "SCALE = 2.0\n\n\n"), "add",
                             NULL, NULL);
  CHECK(moved.hit && same_ptx(&base, &moved));
  drop(&moved);
  /* ... and are with it */
  kjit_compile_options_init(&o);
  o.lineinfo = 1;
  expect_new_key(ctx, "lineinfo", vector_add, "add", NULL, &o);
  expect_new_key(ctx, "lineinfo, lines moved", edit(vector_add, "SCALE = 2.0\n", "SCALE = 2.0\n\n\n"),
                 "add", NULL, &o);
  /* a codegen setting from the registry (common/settings.c) */
  char same_file[1024]; /* the same libdevice by another path: a new key */
  const char *slash = strrchr(KJIT_LIBDEVICE_PATH, '/');
  snprintf(same_file, sizeof same_file, "%.*s/.%s", slash ? (int)(slash - KJIT_LIBDEVICE_PATH) : 0,
           KJIT_LIBDEVICE_PATH, slash ? slash : "/" KJIT_LIBDEVICE_PATH);
  setenv("KJIT_LIBDEVICE", same_file, 1);
  expect_new_key(ctx, "KJIT_LIBDEVICE", vector_add, "add", NULL, NULL);
  unsetenv("KJIT_LIBDEVICE");
  drop(&base);
  kjit_context_destroy(ctx);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static const char uses_module[] =
    "from numba import cuda\n"
    "import cachemod as m\n"
    "@cuda.jit(\"void(float32[::1])\")\n"
    "def k(a):\n"
    "    i = cuda.grid(1)\n"
    "    if i < a.size:\n"
    "        a[i] = m.twice(a[i]) + m.OFFSET\n";

static const char cachemod[] =
    "from numba import cuda\n"
    "OFFSET = 1.0\n"
    "@cuda.jit(device=True)\n"
    "def twice(x):\n"
    "    return x * 2.0\n";

/* The key covers imported files: a change of an imported device function
 * or constant is a new key; the same files again hit. */
static void test_module_keys(void) {
  const char *dir = path_in(root, "modules ü");
  CHECK(mkdir(dir, 0700) == 0);
  const char *file = path_in(dir, "cachemod.py");
  kjit_context *ctx = open_ctx(path_in(root, "module keys"));
  CHECK(kjit_context_set_search_path(ctx, dir) == KJIT_OK);
  write_text(file, cachemod);
  Result base = compile_src(ctx, uses_module, "k", NULL, NULL);
  Result again = compile_src(ctx, uses_module, "k", NULL, NULL);
  CHECK(base.st == KJIT_OK && !base.hit && again.hit);
  write_text(file, edit(cachemod, "x * 2.0", "x * 3.0"));
  expect_new_key(ctx, "imported device function", uses_module, "k", NULL, NULL);
  write_text(file, edit(cachemod, "OFFSET = 1.0", "OFFSET = 5.0"));
  expect_new_key(ctx, "imported constant", uses_module, "k", NULL, NULL);
  write_text(file, cachemod);
  Result back = compile_src(ctx, uses_module, "k", NULL, NULL);
  CHECK(back.hit && same_ptx(&base, &back));
  drop(&base), drop(&again), drop(&back);
  kjit_context_destroy(ctx);
}

/* Damage the one entry of a fresh directory, compile again: a miss, and
 * the entry is rewritten good (the compile after that hits). */
static void damage_and_check(const char *what, void (*damage)(const char *path)) {
  char name[64];
  snprintf(name, sizeof name, "damaged ✗ %s", what);
  const char *dir = path_in(root, name);
  kjit_context *ctx = open_ctx(dir);
  Result a = compile_src(ctx, vector_add, "add", NULL, NULL);
  char *entry = only_entry(dir);
  CHECK(entry != NULL);
  if (entry)
    damage(entry);
  Result b = compile_src(ctx, vector_add, "add", NULL, NULL);
  Result c = compile_src(ctx, vector_add, "add", NULL, NULL);
  checks++;
  if (b.st != KJIT_OK || b.hit || !same_ptx(&a, &b) || !c.hit || !same_ptx(&a, &c)) {
    failures++;
    fprintf(stderr, "test_cache: %s entry: expected miss, rewrite, hit (hit %d, %d)\n", what,
            b.hit, c.hit);
  }
  drop(&a), drop(&b), drop(&c);
  kjit_context_destroy(ctx);
}

static void patch(const char *path, long off, const void *bytes, size_t n) {
  int fd = open(path, O_WRONLY);
  if (fd >= 0 && pwrite(fd, bytes, n, off) != (ssize_t)n)
    fprintf(stderr, "patch %s failed\n", path);
  if (fd >= 0)
    close(fd);
}

static void truncate_entry(const char *p) { CHECK(truncate(p, file_size(p) - 7) == 0); }
static void truncate_header(const char *p) { CHECK(truncate(p, 40) == 0); }
static void flip_payload_bit(const char *p) {
  uint8_t b;
  int fd = open(p, O_RDWR);
  long at = file_size(p) - 40;
  if (pread(fd, &b, 1, at) == 1) {
    b ^= 0x10;
    CHECK(pwrite(fd, &b, 1, at) == 1);
  }
  close(fd);
}
static void garbage(const char *p) {
  FILE *f = fopen(p, "w");
  for (int i = 0; i < 3000; i++)
    fputc((i * 131) & 0xff, f);
  fclose(f);
}
static void wrong_version(const char *p) { patch(p, 8, "\x63\x00\x00\x00", 4); }
/* Inverts a byte of the key echo (writing a fixed value would leave it as it
 * was whenever the key already holds that byte there). */
static void wrong_key(const char *p) {
  uint8_t b;
  int fd = open(p, O_RDWR);
  if (fd >= 0 && pread(fd, &b, 1, 20) == 1) {
    b = (uint8_t)~b;
    CHECK(pwrite(fd, &b, 1, 20) == 1);
  }
  if (fd >= 0)
    close(fd);
}
static void empty_file(const char *p) { CHECK(truncate(p, 0) == 0); }
static void huge_length(const char *p) { patch(p, 48, "\xff\xff\xff\xff\xff\xff\xff\x7f", 8); }

static void test_damage(void) {
  damage_and_check("truncated", truncate_entry);
  damage_and_check("header only", truncate_header);
  damage_and_check("empty", empty_file);
  damage_and_check("bit flip", flip_payload_bit);
  damage_and_check("garbage", garbage);
  damage_and_check("wrong version", wrong_version);
  damage_and_check("wrong key echo", wrong_key);
  damage_and_check("huge length", huge_length);
}

/* Count of "caching disabled" warnings over two compiles: exactly one,
 * both compiles good. */
static void expect_one_warning(const char *what, const char *dir) {
  kjit_context *ctx = open_ctx(dir);
  Result a = compile_src(ctx, vector_add, "add", NULL, NULL);
  Result b = compile_src(ctx, vector_add, "add", NULL, NULL);
  kjit_cache_info s;
  kjit_cache_stats(ctx, &s);
  checks++;
  if (a.st != KJIT_OK || b.st != KJIT_OK || !a.warned || b.warned || s.enabled || !a.ptx ||
      !strstr(a.ptx, ".entry")) {
    failures++;
    fprintf(stderr, "test_cache: %s: expected one warning and good PTX (warned %d, %d; status %d, %d)\n",
            what, a.warned, b.warned, a.st, b.st);
  }
  drop(&a), drop(&b);
  kjit_context_destroy(ctx);
}

static void test_unwritable(void) {
  /* root ignores permission bits: only test them where they bite */
  const char *ro = path_in(root, "read only ø");
  mkdir(ro, 0700);
  chmod(ro, 0500);
  if (geteuid() != 0)
    expect_one_warning("chmod 0500", ro);
  chmod(ro, 0700);
  /* meaningful as root too: a regular file in the way (ENOTDIR), a
   * directory that cannot be created (/proc) */
  const char *file = path_in(root, "a file ø");
  FILE *f = fopen(file, "w");
  if (f)
    fclose(f);
  expect_one_warning("path under a regular file", path_in(file, "cache"));
  expect_one_warning("regular file as the directory", file);
  expect_one_warning("/proc", "/proc/kjit-cache");
}

/* A real read-only file system (EROFS): a read-only bind mount in a
 * private mount namespace, in a child.  Needs root with CAP_SYS_ADMIN;
 * elsewhere this case is skipped (the others above still run). */
static void test_read_only_mount(void) {
  const char *src = path_in(root, "ro source"), *dst = path_in(root, "ro mount ø");
  mkdir(src, 0700);
  mkdir(dst, 0700);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount(src, dst, NULL, MS_BIND, NULL) != 0 ||
        mount(NULL, dst, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0)
      _exit(77);
    int before = failures;
    expect_one_warning("read-only file system", path_in(dst, "kjit"));
    _exit(failures == before ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
    printf("test_cache: read-only bind mount not permitted here; EROFS case skipped\n");
  else
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* A write cut short (as on a full disk): RLIMIT_FSIZE makes write() fail
 * with EFBIG.  In a child, so the limit dies with it. */
static void test_short_write(void) {
  const char *dir = path_in(root, "short write ✂");
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {200, 200};
    setrlimit(RLIMIT_FSIZE, &rl);
    int before = failures;
    expect_one_warning("file size limit", dir);
    _exit(failures == before ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK(only_entry(dir) == NULL); /* no partial entry published */
  DIR *d = opendir(dir);
  int tmp = 0;
  for (struct dirent *de; d && (de = readdir(d));)
    if (strlen(de->d_name) == 2 && de->d_name[0] != '.') {
      DIR *s = opendir(path_in(dir, de->d_name));
      for (struct dirent *e; s && (e = readdir(s));)
        tmp += e->d_name[0] != '.' || strncmp(e->d_name, ".tmp-", 5) == 0;
      if (s)
        closedir(s);
    }
  if (d)
    closedir(d);
  CHECK(tmp == 0); /* the temporary file was removed */
}

/* Cap 4000 bytes, entries of 1120: the fourth store evicts the least
 * recently *used* entry, not the oldest written. */
static void test_lru(void) {
  const char *dir = path_in(root, "lru ⌛");
  setenv("KJIT_CACHE_MAX_BYTES", "4000", 1);
  RtCache *c = rt_cache_open_dir(dir, true, NULL);
  unsetenv("KJIT_CACHE_MAX_BYTES");
  static char payload[1000];
  memset(payload, 'x', sizeof payload);
  RtCacheEntry e = {0}, got;
  rt_cache_entry_add(&e, RT_SEC_PTX, payload, sizeof payload);
  uint8_t k[5][32] = {{1}, {2}, {3}, {4}, {5}}; /* A B C D E */
  for (int i = 0; i < 3; i++)
    CHECK(rt_cache_put(c, k[i], &e));
  CHECK(file_size(rt_cache_entry_path(c, k[0])) == 1120);
  CHECK(rt_cache_get(c, k[0], &got)); /* A used: B is now the LRU */
  rt_cache_entry_release(&got);
  CHECK(rt_cache_put(c, k[3], &e));
  CHECK(file_size(rt_cache_entry_path(c, k[1])) < 0);  /* B evicted */
  CHECK(file_size(rt_cache_entry_path(c, k[0])) > 0);
  CHECK(file_size(rt_cache_entry_path(c, k[2])) > 0);
  CHECK(rt_cache_get(c, k[2], &got)); /* C used: A is the LRU */
  rt_cache_entry_release(&got);
  CHECK(rt_cache_put(c, k[4], &e));
  CHECK(file_size(rt_cache_entry_path(c, k[0])) < 0);  /* A evicted */
  for (int i = 2; i < 5; i++)
    CHECK(file_size(rt_cache_entry_path(c, k[i])) > 0);
  RtCacheStats s;
  rt_cache_stats(c, &s);
  CHECK(s.entries == 3 && s.bytes == 3360 && s.evictions == 2);
  CHECK(rt_cache_prune(c, 2000) == 2);
  rt_cache_stats(c, &s);
  CHECK(s.entries == 1 && file_size(rt_cache_entry_path(c, k[4])) > 0);
  CHECK(rt_cache_clear(c) == 1);
  rt_cache_close(c);
}

/* Each child compiles the shared kernel, its own variant and the shared
 * one again, several times, comparing every PTX with the expected text. */
#define NPROC 16
static int run_child(const char *dir, int id, char *const *want) {
  kjit_context *ctx = open_ctx(dir);
  char constant[32];
  snprintf(constant, sizeof constant, "SCALE = %d.0", id % 4 + 10);
  const char *srcs[2] = {vector_add, NULL};
  char own[4096];
  snprintf(own, sizeof own, "%s", edit(vector_add, "SCALE = 2.0", constant));
  srcs[1] = own;
  int bad = 0;
  for (int round = 0; round < 4; round++)
    for (int s = 0; s < 2; s++) {
      Result r = compile_src(ctx, srcs[s], "add", NULL, NULL);
      const char *w = want[s == 0 ? 0 : 1 + id % 4];
      bad += r.st != KJIT_OK || r.warned || !r.ptx || strcmp(r.ptx, w) != 0;
      drop(&r);
    }
  kjit_cache_info ci;
  kjit_cache_stats(ctx, &ci);
  kjit_context_destroy(ctx);
  return bad ? 100 : (int)ci.misses; /* the compiles this process made */
}

static void validate_all(const char *dir, int *entries) {
  RtCache *c = rt_cache_open_dir(dir, true, NULL);
  DIR *d = opendir(dir);
  *entries = 0;
  for (struct dirent *de; d && (de = readdir(d));) {
    if (strlen(de->d_name) != 2 || de->d_name[0] == '.')
      continue;
    DIR *s = opendir(path_in(dir, de->d_name));
    for (struct dirent *e; s && (e = readdir(s));) {
      if (e->d_name[0] == '.' && (!e->d_name[1] || e->d_name[1] == '.'))
        continue;
      uint8_t key[32];
      bool ok = strlen(e->d_name) == 68;
      for (int i = 0; ok && i < 32; i++)
        ok = sscanf(e->d_name + 2 * i, "%2hhx", &key[i]) == 1;
      RtCacheEntry got;
      ok = ok && rt_cache_get(c, key, &got);
      CHECK(ok);
      if (ok)
        rt_cache_entry_release(&got);
      (*entries)++;
    }
    if (s)
      closedir(s);
  }
  if (d)
    closedir(d);
  rt_cache_close(c);
}

static void test_concurrent(void) {
  const char *dir = path_in(root, "concurrent ⚡");
  char *want[5];
  kjit_context *off = NULL;
  kjit_context_create(NULL, &off);
  kjit_cache_configure(off, 0, NULL);
  for (int v = 0; v < 5; v++) {
    char constant[32];
    snprintf(constant, sizeof constant, "SCALE = %d.0", v + 9);
    Result r = compile_src(off, v ? edit(vector_add, "SCALE = 2.0", constant) : vector_add, "add",
                           NULL, NULL);
    want[v] = r.ptx;
  }
  kjit_context_destroy(off);
  fflush(stderr);
  pid_t pids[NPROC];
  for (int i = 0; i < NPROC; i++)
    if ((pids[i] = fork()) == 0)
      _exit(run_child(dir, i, want));
  int ok = 0, compiles = 0;
  for (int i = 0; i < NPROC; i++) {
    int status = 0;
    waitpid(pids[i], &status, 0);
    ok += WIFEXITED(status) && WEXITSTATUS(status) < 100;
    compiles += WIFEXITED(status) && WEXITSTATUS(status) < 100 ? WEXITSTATUS(status) : 0;
  }
  CHECK(ok == NPROC);
  CHECK(compiles == 5); /* each key compiled once (compile locks), the rest read */
  int entries = 0;
  validate_all(dir, &entries);
  CHECK(entries == 5); /* the shared kernel + 4 variants, no temp files */
  for (int v = 0; v < 5; v++)
    kjit_free(want[v]);
}

static void test_disabled(void) {
  const char *dir = path_in(root, "disabled");
  setenv("KJIT_CACHE", "0", 1);
  kjit_context *ctx = open_ctx(dir);
  Result a = compile_src(ctx, vector_add, "add", NULL, NULL);
  kjit_cache_info s;
  kjit_cache_stats(ctx, &s);
  CHECK(a.st == KJIT_OK && !s.enabled && s.misses == 0 && access(dir, F_OK) != 0);
  drop(&a);
  kjit_context_destroy(ctx);
  unsetenv("KJIT_CACHE");
}

int main(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(root, sizeof root, "%s/kjit cache tëst-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    return 1;
  }
  unsetenv("KJIT_CACHE");
  unsetenv("KJIT_CACHE_MAX_BYTES");
  test_round_trip();
  test_hit();
  test_keys();
  test_module_keys();
  test_damage();
  test_unwritable();
  test_read_only_mount();
  test_short_write();
  test_lru();
  test_concurrent();
  test_disabled();
  if (!getenv("KJIT_TEST_KEEP")) /* keep the directories to look at */
    remove_tree(root);
  free_paths();
  printf("test_cache: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
