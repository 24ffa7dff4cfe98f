/* embed_threads.c - several host threads using ONE context at once, as
 * include/kjit.h's thread-safety contract allows:
 *
 *   embed_threads [--threads T] [--iterations I] [--target cpu|cuda|auto]
 *
 * Phase 1, own programs: each thread loads programs from source (threads
 * t and t+4 load the same text, so the same kernels are compiled twice at
 * once; the others differ by a constant), gets kernels, makes arrays,
 * launches, checks, destroys; and makes one failing call per iteration,
 * checking that kjit_last_error names *its* mistake while the others keep
 * calling.  Phase 2, shared handles: one program and kernel handle made by
 * the main thread; every thread launches that same handle with its own
 * arrays (two argument types, so specializations are compiled while other
 * threads launch), and asks the shared program for its kernels.  Phase 3:
 * cheap calls in a tight loop (arrays made and destroyed, failing calls and
 * their messages), where calls of different threads overlap most.
 *
 * The barrier kernel (syncthreads: fibers on the cpu target) is left out
 * when built with ThreadSanitizer, which would need fiber annotations in
 * the executor (docs/reliability.md). */
#define _GNU_SOURCE 1   /* before any header: mkdtemp, nftw (stress.h) */
#include <pthread.h>

#include "stress.h"

#if defined(__SANITIZE_THREAD__)
#define NO_BARRIERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NO_BARRIERS 1
#endif
#endif

#define N 777
#define BLOCK 64
#define MAX_THREADS 64

static const char *source_fmt =
    "from numba import cuda, float32\n"
    "\n"
    "OFFSET = %d\n"
    "\n"
    "@cuda.jit\n"
    "def scale_add(a, x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = a * x[i] + OFFSET\n"
    "\n"
    "@cuda.jit\n"
    "def block_sum(x, out):\n"
    "    s = cuda.shared.array(64, float32)\n"
    "    t = cuda.threadIdx.x\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.size:\n"
    "        s[t] = x[i]\n"
    "    else:\n"
    "        s[t] = 0\n"
    "    cuda.syncthreads()\n"
    "    step = 32\n"
    "    while step > 0:\n"
    "        if t < step:\n"
    "            s[t] += s[t + step]\n"
    "        cuda.syncthreads()\n"
    "        step //= 2\n"
    "    if t == 0:\n"
    "        out[cuda.blockIdx.x] = s[0] + OFFSET\n";

typedef struct Shared {
  kjit_context *ctx;
  kjit_program *prog;      /* phase 2 */
  kjit_kernel *kernel;     /* phase 2: scale_add of prog (OFFSET 0) */
  int iterations;
  pthread_barrier_t start;
} Shared;

typedef struct Worker {
  Shared *sh;
  int id;
  int failures;
  pthread_t thread;
} Worker;

static void complain(Worker *w, const char *fmt, const char *a, long b) {
  fprintf(stderr, "embed_threads: thread %d: ", w->id);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  w->failures++;
}

static int check(Worker *w, kjit_status st, const char *what) {
  if (st == KJIT_OK)
    return 0;
  complain(w, "%s failed: %ld", what, (long)st);
  fprintf(stderr, "%s", kjit_last_error(w->sh->ctx));
  return 1;
}

static kjit_launch_config geometry(int64_t n) {
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = (uint32_t)((n + BLOCK - 1) / BLOCK);
  cfg.block[0] = BLOCK;
  return cfg;
}

/* out = a*x + offset with x[i] = i % 11 + id, in float32 or float64. */
static int launch_scale_add(Worker *w, kjit_kernel *k, kjit_dtype dt, double a, int offset) {
  kjit_context *ctx = w->sh->ctx;
  int64_t n = N;
  kjit_array *x, *out;
  if (check(w, kjit_array_create(ctx, dt, 1, &n, &x), "kjit_array_create") ||
      check(w, kjit_array_create(ctx, dt, 1, &n, &out), "kjit_array_create"))
    return 1;
  void *xp = kjit_array_data(x);
  for (int i = 0; i < N; i++) {
    double v = i % 11 + w->id;
    if (dt == KJIT_FLOAT32) ((float *)xp)[i] = (float)v;
    else ((double *)xp)[i] = v;
  }
  kjit_launch_config cfg = geometry(n);
  kjit_arg args[3] = {kjit_arg_f64(a), kjit_arg_array(x), kjit_arg_array(out)};
  int bad = check(w, kjit_launch(k, &cfg, args, 3), "kjit_launch(scale_add)");
  const void *op = kjit_array_data(out);
  for (int i = 0; i < N && !bad; i++) {
    double want = a * (i % 11 + w->id) + offset;
    double got = dt == KJIT_FLOAT32 ? ((const float *)op)[i] : ((const double *)op)[i];
    if (got != want) {
      complain(w, "scale_add: wrong value at %s%ld", "", i);
      bad = 1;
    }
  }
  kjit_array_destroy(x);
  kjit_array_destroy(out);
  return bad;
}

#ifndef NO_BARRIERS
static int launch_block_sum(Worker *w, kjit_kernel *k, int offset) {
  kjit_context *ctx = w->sh->ctx;
  int64_t n = N, nb = (N + BLOCK - 1) / BLOCK;
  kjit_array *x, *out;
  if (check(w, kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &x), "kjit_array_create") ||
      check(w, kjit_array_create(ctx, KJIT_FLOAT32, 1, &nb, &out), "kjit_array_create"))
    return 1;
  float *xp = kjit_array_data(x);
  for (int i = 0; i < N; i++)
    xp[i] = (float)(i % 5 + w->id);
  kjit_launch_config cfg = geometry(n);
  kjit_arg args[2] = {kjit_arg_array(x), kjit_arg_array(out)};
  int bad = check(w, kjit_launch(k, &cfg, args, 2), "kjit_launch(block_sum)");
  const float *op = kjit_array_data(out);
  for (int b = 0; b < nb && !bad; b++) {
    float want = (float)offset;
    for (int i = b * BLOCK; i < (b + 1) * BLOCK && i < N; i++)
      want += xp[i];
    if (op[b] != want) {
      complain(w, "block_sum: wrong value in block %s%ld", "", b);
      bad = 1;
    }
  }
  kjit_array_destroy(x);
  kjit_array_destroy(out);
  return bad;
}
#endif

/* A failing call whose message only this thread's mistake can produce. */
static int own_error(Worker *w, kjit_program *prog, int it) {
  char name[64];
  snprintf(name, sizeof name, "missing_t%d_i%d", w->id, it);
  kjit_kernel *k;
  if (kjit_program_kernel(prog, name, &k) != KJIT_ERROR_NOT_FOUND) {
    complain(w, "kjit_program_kernel(%s) did not fail%ld", name, 0);
    return 1;
  }
  if (!strstr(kjit_last_error(w->sh->ctx), name)) {
    complain(w, "kjit_last_error does not name '%s' (iteration %ld)", name, it);
    fprintf(stderr, "it says: %s\n", kjit_last_error(w->sh->ctx));
    return 1;
  }
  return 0;
}

/* Phase 1: this thread's own programs. */
static void own_programs(Worker *w) {
  for (int it = 0; it < w->sh->iterations && !w->failures; it++) {
    int offset = w->id % 4 + 10 * (it % 3);   /* threads t and t+4 share sources */
    char src[2048], name[64];
    snprintf(src, sizeof src, source_fmt, offset);
    snprintf(name, sizeof name, "thread%d.py", w->id);
    kjit_program *prog;
    kjit_kernel *k;
    if (check(w, kjit_program_load_source(w->sh->ctx, name, src, &prog), "load_source"))
      return;
    if (!check(w, kjit_program_kernel(prog, "scale_add", &k), "kjit_program_kernel"))
      launch_scale_add(w, k, it % 2 ? KJIT_FLOAT64 : KJIT_FLOAT32, 3.0, offset);
#ifndef NO_BARRIERS
    if (!w->failures && !check(w, kjit_program_kernel(prog, "block_sum", &k), "kjit_program_kernel"))
      launch_block_sum(w, k, offset);
#endif
    if (!w->failures)
      own_error(w, prog, it);
    kjit_program_destroy(prog);
  }
}

/* Phase 3: cheap calls in a tight loop, so that calls of different threads
 * really overlap: arrays made and destroyed (the context's array list), a
 * failing call on the shared program and its message (the per-thread last
 * error), the kernel's parameter names. */
static void hammer(Worker *w) {
  kjit_context *ctx = w->sh->ctx;
  int64_t n = 16 + w->id;
  for (int it = 0; it < w->sh->iterations * 5000 && !w->failures; it++) {
    kjit_array *a, *b;
    if (check(w, kjit_array_create(ctx, KJIT_INT32, 1, &n, &a), "kjit_array_create") ||
        check(w, kjit_array_create(ctx, KJIT_FLOAT64, 1, &n, &b), "kjit_array_create"))
      return;
    if (kjit_array_size(a) != n || kjit_array_size(b) != n)
      complain(w, "array size wrong%s at %ld", "", it);
    kjit_array_destroy(a);
    if (it % 8 == 0)
      own_error(w, w->sh->prog, it);
    kjit_array_destroy(b);
    const char *name = NULL;
    if (kjit_kernel_param_name(w->sh->kernel, 1, &name) != KJIT_OK || strcmp(name, "x") != 0)
      complain(w, "kjit_kernel_param_name: %s at %ld", name ? name : "NULL", it);
  }
}

/* Phase 2: the shared program and kernel handle. */
static void shared_handles(Worker *w) {
  for (int it = 0; it < w->sh->iterations && !w->failures; it++) {
    kjit_kernel *k;
    if (check(w, kjit_program_kernel(w->sh->prog, "scale_add", &k), "kjit_program_kernel"))
      return;
    if (k != w->sh->kernel) {
      complain(w, "kjit_program_kernel gave another handle%s%ld", "", 0);
      return;
    }
    launch_scale_add(w, k, (it + w->id) % 2 ? KJIT_FLOAT64 : KJIT_FLOAT32, 0.5, 0);
  }
}

static void *worker_main(void *arg) {
  Worker *w = arg;
  pthread_barrier_wait(&w->sh->start);
  own_programs(w);
  pthread_barrier_wait(&w->sh->start);   /* main thread loads the program */
  pthread_barrier_wait(&w->sh->start);
  shared_handles(w);
  pthread_barrier_wait(&w->sh->start);   /* all hammer at once */
  hammer(w);
  return NULL;
}

int main(int argc, char **argv) {
  int nthreads = 8, iterations = 12;
  int target = stress_parse_target(getenv("KJIT_STRESS_TARGET"));
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--threads") == 0) nthreads = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--iterations") == 0) iterations = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--target") == 0) target = stress_parse_target(argv[i + 1]);
    else break;
  }
  if (nthreads < 1 || nthreads > MAX_THREADS || iterations < 1 || target < 0 || argc % 2 == 0) {
    fprintf(stderr, "usage: embed_threads [--threads T] [--iterations I] "
                    "[--target cpu|cuda|auto]\n");
    return 2;
  }
  char dir[4096];
  if (stress_make_cache_dir(dir, sizeof dir) != 0) {
    perror("embed_threads: cache directory");
    return 1;
  }
  static Shared sh;
  static Worker ws[MAX_THREADS];
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = (kjit_target)target;
  if (kjit_context_create(&o, &sh.ctx) != KJIT_OK || kjit_cache_configure(sh.ctx, 1, dir) != KJIT_OK)
    return 1;
  sh.iterations = iterations;
  pthread_barrier_init(&sh.start, NULL, (unsigned)nthreads + 1);
  double t0 = stress_now_s();
  for (int i = 0; i < nthreads; i++) {
    ws[i] = (Worker){.sh = &sh, .id = i};
    if (pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]) != 0)
      return 1;
  }
  pthread_barrier_wait(&sh.start);
  pthread_barrier_wait(&sh.start);       /* phase 1 done */
  double t1 = stress_now_s();
  char src[2048];
  snprintf(src, sizeof src, source_fmt, 0);
  int rc = kjit_program_load_source(sh.ctx, "shared.py", src, &sh.prog) != KJIT_OK ||
           kjit_program_kernel(sh.prog, "scale_add", &sh.kernel) != KJIT_OK;
  if (rc)
    fprintf(stderr, "embed_threads: shared program: %s", kjit_last_error(sh.ctx));
  pthread_barrier_wait(&sh.start);
  pthread_barrier_wait(&sh.start);       /* phase 3 starts */
  int failures = rc;
  for (int i = 0; i < nthreads; i++) {
    pthread_join(ws[i].thread, NULL);
    failures += ws[i].failures;
  }
  double t2 = stress_now_s();
  kjit_context_destroy(sh.ctx);
  stress_remove_tree(dir);
  pthread_barrier_destroy(&sh.start);
  printf("embed_threads: %d threads x %d iterations on one context%s: own programs %.1f s, "
         "shared kernel and cheap calls %.1f s, %d failures\n",
         nthreads, iterations,
#ifdef NO_BARRIERS
         " (no barrier kernel)",
#else
         "",
#endif
         t1 - t0, t2 - t1, failures);
  return failures ? 1 : 0;
}
