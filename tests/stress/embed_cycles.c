/* embed_cycles.c - a long-running host program on the C API: N cycles of
 * load a program from source, get a kernel, make arrays, launch, check the
 * results, destroy everything; memory must stay bounded.
 *
 *   embed_cycles [CYCLES] [--target cpu|cuda|auto] [--report M]
 *                [--new-every K] [--context-every C] [--bound-mib B]
 *                [--leak-programs]
 *
 * The target defaults to $KJIT_STRESS_TARGET, else cpu, so the same binary
 * runs on a GPU machine with --target cuda.  The kernel source changes every
 * K cycles (a constant in it), so one cycle in K compiles new code and the
 * others compile source seen before: on the cuda target and for the PTX
 * each cycle emits, those are disk-cache hits (a temporary cache
 * directory, removed at the end); the second launch of a cycle hits the
 * kernel's in-memory specialization table.  Even cycles run an elementwise
 * kernel (no barrier), odd ones a shared-memory reduction with syncthreads
 * (fibers on the cpu target).  The context is recreated every C cycles.
 *
 * Every M cycles it prints the cycle, the rate, VmRSS and VmHWM.  It fails
 * (exit 1) on a wrong result, a failing call, or when VmRSS at the end
 * exceeds VmRSS after the warm-up (10% of the cycles) by more than B MiB
 * (docs/reliability.md, "Long-running embed", says why that bound).
 * --leak-programs skips kjit_program_destroy (the programs then live until
 * their context goes), the leak of a host that forgets it: the run must
 * fail, which shows the bound catches such a leak. */
#define _GNU_SOURCE 1   /* before any header: mkdtemp, nftw (stress.h) */
#include "stress.h"

/* AddressSanitizer parks freed memory in its quarantine (256 MiB), so
 * VmRSS grows with every free: the bound means nothing there, and
 * LeakSanitizer checks leaks at exit instead. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifdef UNDER_ASAN
static const int rss_bound_checked = 0;
#else
static const int rss_bound_checked = 1;
#endif

#define N 1000            /* elements; not a multiple of the block */
#define BLOCK 128

static const char *source_fmt =
    "from numba import cuda, float32\n"
    "\n"
    "OFFSET = %d\n"
    "\n"
    "@cuda.jit\n"
    "def axpy(a, x, y, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = a * x[i] + y[i] + OFFSET\n"
    "\n"
    "@cuda.jit\n"
    "def block_sum(x, out):\n"
    "    s = cuda.shared.array(128, float32)\n"
    "    t = cuda.threadIdx.x\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.size:\n"
    "        s[t] = x[i]\n"
    "    else:\n"
    "        s[t] = 0\n"
    "    cuda.syncthreads()\n"
    "    step = 64\n"
    "    while step > 0:\n"
    "        if t < step:\n"
    "            s[t] += s[t + step]\n"
    "        cuda.syncthreads()\n"
    "        step //= 2\n"
    "    if t == 0:\n"
    "        out[cuda.blockIdx.x] = s[0] + OFFSET\n";

typedef struct Options {
  long cycles, report, new_every, context_every;
  double bound_mib;
  int target;
  int leak_programs;      /* never kjit_program_destroy (see the header) */
} Options;

typedef struct Run {
  kjit_context *ctx;
  const char *cache_dir;
  float x[N], y[N];       /* caller memory, wrapped without a copy */
} Run;

static int failed(Run *r, long cycle, const char *what, kjit_status st) {
  fprintf(stderr, "embed_cycles: cycle %ld: %s failed (%s)\n%s", cycle, what,
          kjit_status_name(st), r->ctx ? kjit_last_error(r->ctx) : "");
  return 1;
}

static int new_context(Run *r, int target) {
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = (kjit_target)target;
  if (kjit_context_create(&o, &r->ctx) != KJIT_OK)
    return 1;
  return kjit_cache_configure(r->ctx, 1, r->cache_dir) != KJIT_OK;
}

/* out = 2x + y + OFFSET, launched twice (the second hits the kernel's
 * specialization table). */
static int run_axpy(Run *r, long cycle, kjit_program *prog, int offset) {
  kjit_kernel *k;
  kjit_array *x, *y, *out;
  int64_t n = N;
  kjit_status st;
  if ((st = kjit_program_kernel(prog, "axpy", &k)) != KJIT_OK)
    return failed(r, cycle, "kjit_program_kernel(axpy)", st);
  if ((st = kjit_array_wrap(r->ctx, KJIT_FLOAT32, 1, &n, NULL, r->x, &x)) != KJIT_OK ||
      (st = kjit_array_wrap(r->ctx, KJIT_FLOAT32, 1, &n, NULL, r->y, &y)) != KJIT_OK ||
      (st = kjit_array_create(r->ctx, KJIT_FLOAT32, 1, &n, &out)) != KJIT_OK)
    return failed(r, cycle, "making the arrays", st);
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = (N + BLOCK - 1) / BLOCK;
  cfg.block[0] = BLOCK;
  kjit_arg args[4] = {kjit_arg_f64(2.0), kjit_arg_array(x), kjit_arg_array(y),
                      kjit_arg_array(out)};
  for (int rep = 0; rep < 2; rep++)
    if ((st = kjit_launch(k, &cfg, args, 4)) != KJIT_OK)
      return failed(r, cycle, "kjit_launch(axpy)", st);
  const float *o = kjit_array_data(out);
  for (int i = 0; i < N; i++)
    if (o[i] != 2.0f * r->x[i] + r->y[i] + (float)offset) {
      fprintf(stderr, "embed_cycles: cycle %ld: axpy out[%d] = %g, want %g\n", cycle, i,
              o[i], 2.0f * r->x[i] + r->y[i] + (float)offset);
      return 1;
    }
  kjit_array_destroy(x);
  kjit_array_destroy(y);
  kjit_array_destroy(out);
  return 0;
}

/* out[b] = sum of block b's elements + OFFSET (syncthreads: fibers). */
static int run_block_sum(Run *r, long cycle, kjit_program *prog, int offset) {
  enum { NB = (N + BLOCK - 1) / BLOCK };
  kjit_kernel *k;
  kjit_array *x, *out;
  int64_t n = N, nb = NB;
  kjit_status st;
  if ((st = kjit_program_kernel(prog, "block_sum", &k)) != KJIT_OK)
    return failed(r, cycle, "kjit_program_kernel(block_sum)", st);
  if ((st = kjit_array_wrap(r->ctx, KJIT_FLOAT32, 1, &n, NULL, r->x, &x)) != KJIT_OK ||
      (st = kjit_array_create(r->ctx, KJIT_FLOAT32, 1, &nb, &out)) != KJIT_OK)
    return failed(r, cycle, "making the arrays", st);
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = NB;
  cfg.block[0] = BLOCK;
  kjit_arg args[2] = {kjit_arg_array(x), kjit_arg_array(out)};
  if ((st = kjit_launch(k, &cfg, args, 2)) != KJIT_OK)
    return failed(r, cycle, "kjit_launch(block_sum)", st);
  const float *o = kjit_array_data(out);
  for (int b = 0; b < NB; b++) {
    float want = (float)offset;
    for (int i = b * BLOCK; i < (b + 1) * BLOCK && i < N; i++)
      want += r->x[i];
    if (o[b] != want) {
      fprintf(stderr, "embed_cycles: cycle %ld: block_sum out[%d] = %g, want %g\n", cycle,
              b, o[b], want);
      return 1;
    }
  }
  kjit_array_destroy(x);
  kjit_array_destroy(out);
  return 0;
}

/* The PTX of axpy: compiled by LLVM once per source, then from the disk
 * cache. */
static int emit_ptx(Run *r, long cycle, kjit_program *prog) {
  kjit_compile_options co;
  kjit_compile_options_init(&co);
  co.arch = "sm_80";
  char *ptx = NULL;
  size_t len = 0;
  kjit_status st = kjit_program_emit(prog, "axpy",
                                     "void(float64, float32[::1], float32[::1], float32[::1])",
                                     &co, KJIT_EMIT_PTX, &ptx, &len);
  if (st != KJIT_OK)
    return failed(r, cycle, "kjit_program_emit", st);
  int bad = len == 0 || !strstr(ptx, ".entry");
  kjit_free(ptx);
  if (bad)
    fprintf(stderr, "embed_cycles: cycle %ld: PTX without an .entry\n", cycle);
  return bad;
}

static int one_cycle(Run *r, const Options *o, long cycle) {
  int offset = (int)(cycle / o->new_every);
  char src[2048], name[64];
  snprintf(src, sizeof src, source_fmt, offset);
  snprintf(name, sizeof name, "cycle%ld.py", cycle);
  kjit_program *prog;
  kjit_status st = kjit_program_load_source(r->ctx, name, src, &prog);
  if (st != KJIT_OK)
    return failed(r, cycle, "kjit_program_load_source", st);
  int rc = cycle % 2 == 0 ? run_axpy(r, cycle, prog, offset)
                          : run_block_sum(r, cycle, prog, offset);
  if (rc == 0)
    rc = emit_ptx(r, cycle, prog);
  if (!o->leak_programs)
    kjit_program_destroy(prog);
  return rc;
}

static int parse_args(int argc, char **argv, Options *o) {
  *o = (Options){.cycles = 2000, .report = 0, .new_every = 10, .context_every = 1000,
                 .bound_mib = 8, .target = stress_parse_target(getenv("KJIT_STRESS_TARGET"))};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--target") == 0 && v)
      o->target = stress_parse_target(argv[++i]);
    else if (strcmp(a, "--report") == 0 && v)
      o->report = atol(argv[++i]);
    else if (strcmp(a, "--new-every") == 0 && v)
      o->new_every = atol(argv[++i]);
    else if (strcmp(a, "--context-every") == 0 && v)
      o->context_every = atol(argv[++i]);
    else if (strcmp(a, "--bound-mib") == 0 && v)
      o->bound_mib = atof(argv[++i]);
    else if (strcmp(a, "--leak-programs") == 0)
      o->leak_programs = 1;
    else if (a[0] != '-')
      o->cycles = atol(a);
    else {
      fprintf(stderr, "usage: embed_cycles [CYCLES] [--target cpu|cuda|auto] [--report M] "
                      "[--new-every K] [--context-every C] [--bound-mib B] [--leak-programs]\n");
      return 1;
    }
  }
  if (o->report <= 0)
    o->report = o->cycles >= 10 ? o->cycles / 10 : 1;
  if (o->target < 0 || o->cycles < 1 || o->new_every < 1 || o->context_every < 1) {
    fprintf(stderr, "embed_cycles: bad arguments\n");
    return 1;
  }
  return 0;
}

static void report(long cycle, double t0, const char *what) {
  double dt = stress_now_s() - t0;
  printf("%s cycle %ld: %.1f s, %.1f cycles/s, VmRSS %.1f MiB, VmHWM %.1f MiB\n", what, cycle,
         dt, dt > 0 ? (double)cycle / dt : 0.0, stress_status_kib("VmRSS") / 1024.0,
         stress_status_kib("VmHWM") / 1024.0);
  fflush(stdout);
}

int main(int argc, char **argv) {
  Options o;
  if (parse_args(argc, argv, &o))
    return 2;
  if (o.leak_programs && !rss_bound_checked) {
    printf("embed_cycles: skipped: no RSS bound under AddressSanitizer\n");
    return 77;
  }
  char dir[4096];
  if (stress_make_cache_dir(dir, sizeof dir) != 0) {
    perror("embed_cycles: cache directory");
    return 1;
  }
  static Run r;
  r.cache_dir = dir;
  for (int i = 0; i < N; i++) {
    r.x[i] = (float)(i % 7);
    r.y[i] = (float)(i % 5);
  }
  long warm = o.cycles / 10 > 0 ? o.cycles / 10 : 1;
  long rss_warm = -1, rss_last = -1;
  double t0 = stress_now_s();
  int rc = 0;
  for (long c = 0; c < o.cycles && rc == 0; c++) {
    if (c % o.context_every == 0) {
      kjit_context_destroy(r.ctx);
      if ((rc = new_context(&r, o.target)) != 0) {
        fprintf(stderr, "embed_cycles: cannot create a context\n");
        break;
      }
    }
    rc = one_cycle(&r, &o, c);
    if (c + 1 == warm)
      rss_warm = stress_status_kib("VmRSS");
    if (c + 1 == o.cycles)
      rss_last = stress_status_kib("VmRSS");
    if ((c + 1) % o.report == 0)
      report(c + 1, t0, "after");
  }
  kjit_context_destroy(r.ctx);
  stress_remove_tree(dir);
  if (rc)
    return rc;
  long rss_end = stress_status_kib("VmRSS");
  double grew = (rss_last - rss_warm) / 1024.0;
  printf("cycles %ld, %.1f s; VmRSS after warm-up (%ld cycles) %.1f MiB, after the last cycle "
         "%.1f MiB (%+.1f MiB; bound %.0f MiB), after the last kjit_context_destroy %.1f MiB; "
         "VmHWM %.1f MiB\n",
         o.cycles, stress_now_s() - t0, warm, rss_warm / 1024.0, rss_last / 1024.0, grew,
         o.bound_mib, rss_end / 1024.0, stress_status_kib("VmHWM") / 1024.0);
  if (rss_warm < 0 || rss_last < 0) {
    fprintf(stderr, "embed_cycles: cannot read /proc/self/status\n");
    return 1;
  }
  if (!rss_bound_checked) {
    printf("embed_cycles: bound not checked under AddressSanitizer (LeakSanitizer checks "
           "leaks at exit)\n");
    return 0;
  }
  if (grew > o.bound_mib) {
    fprintf(stderr, "embed_cycles: VmRSS grew by %.1f MiB after the warm-up (bound %.0f MiB)\n",
            grew, o.bound_mib);
    return 1;
  }
  return 0;
}
