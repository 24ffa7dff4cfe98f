/* test_cache_lock.c - compile once: the per-entry compile locks
 * (cache/cache_lock.c, rt_cache_claim) and the CPU target's host objects
 * in the disk cache (host/cache_host.c).
 *
 * Covers: a lock is exclusive between open file descriptions, a bounded
 * wait gives up on time, unlock removes the file; a holder that dies (a
 * child exiting, SIGKILL) leaves a lock the next process takes at once; a
 * filesystem whose flock fails (ENOLCK, EINVAL: a stand-in lock function)
 * means no waiting and "each compiles"; a claim that finds the entry
 * locked waits for the holder's store and reads it (a hit, one wait), and
 * one that outwaits KJIT_CACHE_LOCK_WAIT compiles itself; an hour-old lock
 * file is swept when unheld and kept when held; a bad
 * KJIT_CACHE_LOCK_WAIT warns; on the CPU target a second context loads the
 * kernel's object from the cache (kernels and kjit_call's device
 * functions) with the same results; one object serving two argument
 * records in one JIT; the host key includes the CPU name and features.  Exit 1 on any failure. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kjit.h"
#include "cache/cache.h"
#include "check.h"

static char root[256];

static char *path_in(const char *name) {
  static char buf[4][512];
  static int k;
  char *p = buf[k++ % 4];
  snprintf(p, sizeof buf[0], "%s/%s", root, name);
  return p;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *f) {
  (void)st, (void)flag, (void)f;
  return remove(p);
}

/* ------------------------------------------------------ file locks --- */

static void test_exclusive(void) {
  const char *p = path_in("a.lock");
  RtFileLock a, b;
  bool waited = false;
  CHECK(rt_file_lock_try(p, NULL, &a) == RT_LOCK_TAKEN && a.fd >= 0);
  CHECK(rt_file_lock_try(p, NULL, &b) == RT_LOCK_BUSY && b.fd < 0);
  double t0 = now_s();
  CHECK(rt_file_lock_wait(p, 0.2, NULL, &b, &waited) == RT_LOCK_BUSY && waited);
  double dt = now_s() - t0;
  CHECK(dt >= 0.2 && dt < 2.0); /* bounded: gave up after the wait */
  rt_file_unlock(p, &a);
  CHECK(a.fd == -1 && access(p, F_OK) != 0); /* unlocked and removed */
  CHECK(rt_file_lock_wait(p, 0.2, NULL, &b, &waited) == RT_LOCK_TAKEN && !waited);
  CHECK(!rt_file_lock_is_stale(p, NULL)); /* held: not stale, kept */
  CHECK(access(p, F_OK) == 0);
  rt_file_unlock(p, &b);
}

/* A holder that dies without unlocking: its lock is free at once (flock
 * dies with the process), the file stays and is reused. */
static void test_dead_holder(int sig) {
  const char *p = path_in("dead.lock");
  int pipefd[2];
  CHECK(pipe(pipefd) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    RtFileLock l;
    char c = rt_file_lock_try(p, NULL, &l) == RT_LOCK_TAKEN ? 'y' : 'n';
    if (write(pipefd[1], &c, 1) != 1 || !sig)
      _exit(0);        /* exits holding it */
    pause();           /* killed holding it */
    _exit(0);
  }
  char c = 0;
  CHECK(read(pipefd[0], &c, 1) == 1 && c == 'y');
  RtFileLock l;
  if (sig) { /* still alive, holding it */
    CHECK(rt_file_lock_try(p, NULL, &l) == RT_LOCK_BUSY);
    kill(pid, sig);
  }
  waitpid(pid, NULL, 0);
  CHECK(access(p, F_OK) == 0); /* the dead holder's file */
  bool waited;
  double t0 = now_s();
  CHECK(rt_file_lock_wait(p, 5.0, NULL, &l, &waited) == RT_LOCK_TAKEN);
  CHECK(now_s() - t0 < 1.0);
  rt_file_unlock(p, &l);
  close(pipefd[0]);
  close(pipefd[1]);
}

static int no_lock_errno;
static int no_lock(int fd, int op) {
  (void)fd, (void)op;
  errno = no_lock_errno;
  return -1;
}

/* flock failing as on some network filesystems: no wait, no lock. */
static void test_unsupported(void) {
  const char *p = path_in("nfs.lock");
  int errs[] = {ENOLCK, EINVAL, EOPNOTSUPP};
  for (int i = 0; i < 3; i++) {
    no_lock_errno = errs[i];
    RtFileLock l;
    bool waited = true;
    double t0 = now_s();
    CHECK(rt_file_lock_wait(p, 5.0, no_lock, &l, &waited) == RT_LOCK_UNSUPPORTED);
    CHECK(!waited && l.fd < 0 && now_s() - t0 < 1.0);
  }
  RtFileLock l;
  CHECK(rt_file_lock_try(path_in("no such dir/x.lock"), NULL, &l) == RT_LOCK_UNSUPPORTED);
}

/* ----------------------------------------------------------- claims --- */

static const uint8_t key1[RT_CACHE_KEY_SIZE] = {0x42, 1, 2, 3};

static RtCacheEntry entry_of(const char *text) {
  RtCacheEntry e = {0};
  rt_cache_entry_add(&e, RT_SEC_PTX, text, strlen(text));
  return e;
}

static RtCache *open_cache(const char *dir) {
  return rt_cache_open_dir(path_in(dir), true, NULL);
}

/* The child claims while the parent holds the entry's lock; the parent
 * stores and releases; the child reads the entry after one wait. */
static void test_wait_then_read(void) {
  RtCache *c = open_cache("claims");
  RtCacheEntry got;
  RtCacheClaim claim;
  CHECK(!rt_cache_claim(c, key1, &got, &claim) && claim.lock.fd >= 0);
  fflush(stderr);
  int ready[2];
  CHECK(pipe(ready) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    RtCache *w = open_cache("claims");
    RtCacheEntry e;
    RtCacheClaim cl;
    if (write(ready[1], "r", 1) != 1)
      _exit(2);
    bool hit = rt_cache_claim(w, key1, &e, &cl);
    size_t n = 0;
    const char *t = hit ? rt_cache_entry_find(&e, RT_SEC_PTX, &n) : NULL;
    RtCacheStats s;
    rt_cache_stats(w, &s);
    _exit(hit && t && n == 5 && memcmp(t, "entry", 5) == 0 && s.hits == 1 && s.misses == 0 &&
          s.waits == 1 ? 0 : 1);
  }
  char r;
  CHECK(read(ready[0], &r, 1) == 1);
  struct timespec ts = {0, 300 * 1000000L};
  nanosleep(&ts, NULL); /* the child is waiting now */
  close(ready[0]);
  close(ready[1]);
  RtCacheEntry e = entry_of("entry");
  CHECK(rt_cache_put(c, key1, &e));
  rt_cache_release(&claim);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  RtCacheStats s;
  rt_cache_stats(c, &s);
  CHECK(s.misses == 1 && s.hits == 0 && s.waits == 0 && s.stores == 1 && s.entries == 1);
  rt_cache_close(c);
}

/* A holder that outlives the bounded wait: the waiter compiles itself. */
static void test_wait_runs_out(void) {
  setenv("KJIT_CACHE_LOCK_WAIT", "0.2", 1);
  RtCache *c = open_cache("outwaited"), *w = open_cache("outwaited");
  unsetenv("KJIT_CACHE_LOCK_WAIT");
  RtCacheEntry got;
  RtCacheClaim held, mine;
  CHECK(!rt_cache_claim(c, key1, &got, &held) && held.lock.fd >= 0);
  double t0 = now_s();
  CHECK(!rt_cache_claim(w, key1, &got, &mine) && mine.lock.fd < 0);
  CHECK(now_s() - t0 >= 0.2 && now_s() - t0 < 2.0);
  RtCacheEntry e = entry_of("mine");
  CHECK(rt_cache_put(w, key1, &e)); /* published unlocked: still atomic */
  rt_cache_release(&mine);
  rt_cache_release(&held);
  RtCacheStats s;
  rt_cache_stats(w, &s);
  CHECK(s.misses == 1 && s.waits == 1 && s.entries == 1);
  CHECK(rt_cache_claim(c, key1, &got, &held)); /* now a hit */
  rt_cache_entry_release(&got);
  rt_cache_close(c);
  rt_cache_close(w);
}

/* Where flock fails, claims neither lock nor wait: each compiles. */
static void test_claim_unsupported(void) {
  RtCache *c = open_cache("netfs"), *w = open_cache("netfs");
  no_lock_errno = ENOLCK;
  rt_cache_set_lock_fn(c, no_lock);
  rt_cache_set_lock_fn(w, no_lock);
  RtCacheEntry got;
  RtCacheClaim a, b;
  double t0 = now_s();
  CHECK(!rt_cache_claim(c, key1, &got, &a) && a.lock.fd < 0);
  CHECK(!rt_cache_claim(w, key1, &got, &b) && b.lock.fd < 0);
  CHECK(now_s() - t0 < 1.0);
  RtCacheEntry e = entry_of("both");
  CHECK(rt_cache_put(c, key1, &e) && rt_cache_put(w, key1, &e));
  rt_cache_release(&a);
  rt_cache_release(&b);
  CHECK(rt_cache_claim(c, key1, &got, &a));
  rt_cache_entry_release(&got);
  rt_cache_close(c);
  rt_cache_close(w);
}

/* A lock file two hours old: removed by a scan when nobody holds it (its
 * holder died), kept while it is held. */
static void test_stale_lock_sweep(void) {
  RtCache *c = open_cache("sweep");
  RtCacheEntry got;
  RtCacheClaim claim;
  CHECK(!rt_cache_claim(c, key1, &got, &claim) && claim.path);
  char path[1024]; /* the claim names the lock file in its subfolder */
  int dir = claim.dirfd;
  snprintf(path, sizeof path, "%s", claim.path ? claim.path : "");
  struct timespec old[2] = {{time(NULL) - 7200, 0}, {time(NULL) - 7200, 0}};
  CHECK(utimensat(dir, path, old, 0) == 0);
  RtCacheStats s;
  rt_cache_stats(c, &s); /* held: kept */
  CHECK(faccessat(dir, path, F_OK, 0) == 0);
  close(claim.lock.fd); /* the holder "dies": unlocked, file left behind */
  claim.lock.fd = -1;
  free(claim.path);
  claim.path = NULL;
  CHECK(faccessat(dir, path, F_OK, 0) == 0);
  rt_cache_stats(c, &s); /* unheld and old: removed */
  CHECK(faccessat(dir, path, F_OK, 0) != 0);
  close(dir);
  rt_cache_close(c);
}

static void test_bad_wait_setting(void) {
  const char *bad[] = {"soon", "-1", "1e9", "5s"};
  for (int i = 0; i < 4; i++) {
    kjit_context *ctx = NULL;
    setenv("KJIT_CACHE_LOCK_WAIT", bad[i], 1);
    kjit_context_create(NULL, &ctx);
    kjit_cache_info ci;
    kjit_cache_stats(ctx, &ci);
    CHECK(strstr(kjit_last_diagnostics(ctx), "KJIT_CACHE_LOCK_WAIT") != NULL);
    kjit_context_destroy(ctx);
  }
  unsetenv("KJIT_CACHE_LOCK_WAIT");
}

/* ------------------------------------------------ CPU target objects --- */

static const char kernels[] =
    "from numba import cuda\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def twice(x):\n"
    "    return x * 2.0\n"
    "\n"
    "@cuda.jit(\"void(float32[::1], float32[::1])\")\n"
    "def dbl(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = twice(x[i]) + 1\n";

typedef struct Run {
  float out[64];
  double callret;
  kjit_cache_info ci;
  bool ok;
} Run;

/* Launches dbl on 64 elements and calls twice(3.5) in a fresh context. */
static Run run_cpu(const char *dir) {
  Run r = {.ok = false};
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  kjit_context *ctx = NULL;
  kjit_program *p = NULL;
  kjit_kernel *k = NULL;
  kjit_array *x = NULL, *out = NULL;
  float xs[64];
  for (int i = 0; i < 64; i++)
    xs[i] = (float)i;
  int64_t n = 64;
  kjit_value v = {0};
  bool ok = kjit_context_create(&o, &ctx) == KJIT_OK && kjit_cache_configure(ctx, 1, dir) == KJIT_OK &&
            kjit_program_load_source(ctx, "k.py", kernels, &p) == KJIT_OK &&
            kjit_program_kernel(p, "dbl", &k) == KJIT_OK &&
            kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, xs, &x) == KJIT_OK &&
            kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, r.out, &out) == KJIT_OK;
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = 2, cfg.block[0] = 32;
  kjit_arg args[2] = {kjit_arg_array(x), kjit_arg_array(out)};
  kjit_arg a35 = kjit_arg_f64(3.5);
  kjit_function *twice;
  ok = ok && kjit_launch(k, &cfg, args, 2) == KJIT_OK && kjit_program_function(p, "twice", &twice) == KJIT_OK &&
       kjit_call(twice, &a35, 1, &v) == KJIT_OK;
  if (!ok)
    fprintf(stderr, "run_cpu: %s\n", ctx ? kjit_last_error(ctx) : "no context");
  r.callret = v.value.f64;
  kjit_cache_stats(ctx, &r.ci);
  kjit_context_destroy(ctx);
  r.ok = ok;
  return r;
}

static void test_host_objects(void) {
  const char *dir = path_in("host objects");
  Run cold = run_cpu(dir), warm = run_cpu(dir);
  CHECK(cold.ok && warm.ok);
  for (int i = 0; i < 64; i++) /* out = 2x + 1, computed here */
    CHECK(cold.out[i] == 2.0f * (float)i + 1 && warm.out[i] == cold.out[i]);
  CHECK(cold.callret == 7.0 && warm.callret == 7.0);
  CHECK(cold.ci.misses == 2 && cold.ci.stores == 2 && cold.ci.hits == 0); /* kernel + C-ABI wrapper */
  CHECK(warm.ci.hits == 2 && warm.ci.misses == 0 && warm.ci.stores == 0);
  CHECK(warm.ci.entries == 2);
}

/* A contiguous and a strided array both fit float32[:]: two argument
 * records, one typed signature, one cache entry; the second launch finds
 * the object already in the JIT and only looks its entry up. */
static void test_same_object_twice(void) {
  static const char src[] =
      "from numba import cuda\n"
      "@cuda.jit(\"void(float32[:])\")\n"
      "def inc(a):\n"
      "    i = cuda.grid(1)\n"
      "    if i < a.size:\n"
      "        a[i] += 1\n";
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  kjit_context *ctx = NULL;
  kjit_program *p = NULL;
  kjit_kernel *k = NULL;
  kjit_array *c = NULL, *v = NULL;
  float buf[8] = {0};
  int64_t n8 = 8, n4 = 4, stride = 8;
  bool ok = kjit_context_create(&o, &ctx) == KJIT_OK &&
            kjit_cache_configure(ctx, 1, path_in("twice")) == KJIT_OK &&
            kjit_program_load_source(ctx, "inc.py", src, &p) == KJIT_OK &&
            kjit_program_kernel(p, "inc", &k) == KJIT_OK &&
            kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n8, NULL, buf, &c) == KJIT_OK &&
            kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n4, &stride, buf, &v) == KJIT_OK;
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.block[0] = 8;
  kjit_arg ac = kjit_arg_array(c), av = kjit_arg_array(v);
  ok = ok && kjit_launch(k, &cfg, &ac, 1) == KJIT_OK && kjit_launch(k, &cfg, &av, 1) == KJIT_OK;
  if (!ok && ctx)
    fprintf(stderr, "same object twice: %s\n", kjit_last_error(ctx));
  CHECK(ok);
  for (int i = 0; i < 8; i++) /* every element +1, the even ones +1 again */
    CHECK(buf[i] == (i % 2 ? 1.0f : 2.0f));
  kjit_cache_info ci;
  kjit_cache_stats(ctx, &ci);
  CHECK(ci.misses == 1 && ci.hits == 1 && ci.entries == 1);
  kjit_context_destroy(ctx);
}

/* The host object key holds the CPU name and features. */
static void test_host_key(void) {
  CgOptions o = {.opt_level = 3};
  CgTarget a = {CG_HOST, "x86_64-pc-linux-gnu", "znver3", "+avx2,+fma", 0, false};
  CgTarget b = a, c = a;
  b.cpu = "skylake";
  c.features = "+avx2,-fma";
  RtCacheKeyInput in = {NULL, 0, &a, &o, RT_OUT_HOSTOBJ, 0};
  uint8_t ka[32], kb[32], kc[32], kd[32];
  char *text = NULL;
  rt_cache_key(&in, ka, &text);
  CHECK(text && strstr(text, "cpu=znver3 features=+avx2,+fma") && strstr(text, "hostobj"));
  free(text);
  in.target = &b;
  rt_cache_key(&in, kb, NULL);
  in.target = &c;
  rt_cache_key(&in, kc, NULL);
  in.target = &a;
  in.output = RT_OUT_HOSTOBJ_CABI;
  rt_cache_key(&in, kd, NULL);
  CHECK(memcmp(ka, kb, 32) != 0 && memcmp(ka, kc, 32) != 0 && memcmp(ka, kd, 32) != 0);
}

int main(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(root, sizeof root, "%s/kjit lock tëst-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    return 1;
  }
  unsetenv("KJIT_CACHE");
  unsetenv("KJIT_CACHE_LOCK_WAIT");
  unsetenv("KJIT_TEST_CACHE_HOLD_MS");
  test_exclusive();
  test_dead_holder(0);
  test_dead_holder(SIGKILL);
  test_unsupported();
  test_wait_then_read();
  test_wait_runs_out();
  test_claim_unsupported();
  test_stale_lock_sweep();
  test_bad_wait_setting();
  test_host_objects();
  test_same_object_twice();
  test_host_key();
  if (!getenv("KJIT_TEST_KEEP"))
    nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  printf("test_cache_lock: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
