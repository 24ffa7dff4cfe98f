/* first_load.c - in-process time from a kernel file to a kernel loaded on
 * the GPU, cold (compile: source -> PTX -> cubin, module loaded) and warm
 * (a new program of the same file, its module read from the disk cache).
 *
 * The device is opened and a warm-up kernel launched first, so the
 * driver's start-up is not in the figures.  Each run then times, through
 * the public API, load_file + program_kernel + one launch of one block of
 * 32 threads + synchronize; "launch" is the same launch again on the
 * loaded kernel (what the first figure pays beyond loading).  Cold runs
 * clear a private cache directory before each run; warm runs find it
 * filled.  Prints median and min wall ms per kernel file, or a line
 * saying why it skipped (no CUDA device) and exits 0.
 *
 *   first_load [-n RUNS] FILE.py:KERNEL...
 * Every parameter gets a float32 device array, 1-D of 32 elements, else
 * (when the kernel refuses those) 2-D of 32 x 32.  KJIT_CACHE=0 would make
 * the warm column a second cold one. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kjit.h"

enum { MAX_ARGS = 8 };

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void median_min(double *v, int n, double *med, double *min) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  *med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  *min = v[0];
}

static bool probing; /* args_for's 1-D try: a refusal is expected, not reported */

static bool ok(kjit_context *ctx, kjit_status st, const char *what) {
  if (st != KJIT_OK && !probing)
    fprintf(stderr, "first_load: %s: %s: %s\n", what, kjit_status_name(st), kjit_last_error(ctx));
  return st == KJIT_OK;
}

/* Device arrays for every parameter: float32, 1-D of 32 or 2-D 32 x 32
 * (by trying the 1-D launch first). */
typedef struct Args {
  kjit_array *arr[MAX_ARGS];
  kjit_arg a[MAX_ARGS];
  int n;
} Args;

static bool make_args(kjit_context *ctx, int n, int ndim, Args *out) {
  int64_t shape[2] = {32, 32};
  out->n = n;
  for (int i = 0; i < n; i++) {
    if (!ok(ctx, kjit_array_create_device(ctx, KJIT_FLOAT32, ndim, shape, &out->arr[i]), "device array"))
      return false;
    out->a[i] = kjit_arg_array(out->arr[i]);
  }
  return true;
}

static void free_args(Args *a) {
  for (int i = 0; i < a->n; i++)
    kjit_array_destroy(a->arr[i]);
  a->n = 0;
}

/* load + kernel + launch + synchronize; *launch_ms (may be NULL) gets a
 * second launch + synchronize on the loaded kernel. */
static bool first_launch(kjit_context *ctx, const char *path, const char *name, Args *args,
                         double *ms, double *launch_ms) {
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.block[0] = 32;
  kjit_program *p = NULL;
  kjit_kernel *k = NULL;
  double t0 = now_ms();
  bool good = ok(ctx, kjit_program_load_file(ctx, path, &p), path) &&
              ok(ctx, kjit_program_kernel(p, name, &k), name) &&
              ok(ctx, kjit_launch(k, &cfg, args->a, args->n), "launch") &&
              ok(ctx, kjit_synchronize(ctx), "synchronize");
  *ms = now_ms() - t0;
  if (good && launch_ms) {
    t0 = now_ms();
    good = ok(ctx, kjit_launch(k, &cfg, args->a, args->n), "launch") &&
           ok(ctx, kjit_synchronize(ctx), "synchronize");
    *launch_ms = now_ms() - t0;
  }
  kjit_program_destroy(p);
  return good;
}

/* Arrays for the kernel's parameters: 1-D, else 2-D (matmul). */
static bool args_for(kjit_context *ctx, const char *path, const char *name, Args *args) {
  kjit_program *p = NULL;
  kjit_kernel *k = NULL;
  int n = 0;
  if (!ok(ctx, kjit_program_load_file(ctx, path, &p), path) ||
      !ok(ctx, kjit_program_kernel(p, name, &k), name) || !ok(ctx, kjit_kernel_param_count(k, &n), name)) {
    kjit_program_destroy(p);
    return false;
  }
  kjit_program_destroy(p);
  if (n > MAX_ARGS)
    return false;
  double ms;
  for (int ndim = 1; ndim <= 2; ndim++) {
    probing = ndim == 1;
    bool good = make_args(ctx, n, ndim, args) && first_launch(ctx, path, name, args, &ms, NULL);
    probing = false;
    if (good)
      return true;
    free_args(args);
  }
  return false;
}

static void run_file(kjit_context *ctx, const char *spec, int runs) {
  char path[1024];
  snprintf(path, sizeof path, "%s", spec);
  char *colon = strrchr(path, ':');
  if (!colon) {
    fprintf(stderr, "first_load: %s: give FILE.py:KERNEL\n", spec);
    return;
  }
  *colon = '\0';
  const char *name = colon + 1;
  Args args = {0};
  if (!args_for(ctx, path, name, &args))
    return;
  double *cold = calloc((size_t)runs, sizeof *cold), *warm = calloc((size_t)runs, sizeof *warm);
  double *launch = calloc((size_t)runs, sizeof *launch);
  bool good = true;
  for (int i = 0; i < runs && good; i++) {
    kjit_cache_clear(ctx, NULL);
    good = first_launch(ctx, path, name, &args, &cold[i], &launch[i]) &&
           first_launch(ctx, path, name, &args, &warm[i], NULL);
  }
  if (good) {
    double cm, cn, wm, wn, lm, ln;
    median_min(cold, runs, &cm, &cn);
    median_min(warm, runs, &wm, &wn);
    median_min(launch, runs, &lm, &ln);
    const char *base = strrchr(path, '/');
    printf("| %s:%s | %.2f / %.2f | %.2f / %.2f | %.3f / %.3f |\n", base ? base + 1 : path, name, cm, cn,
           wm, wn, lm, ln);
  }
  free(cold), free(warm), free(launch);
  free_args(&args);
}

int main(int argc, char **argv) {
  int runs = 20, first = 1;
  if (argc > 2 && strcmp(argv[1], "-n") == 0)
    runs = atoi(argv[2]), first = 3;
  if (first >= argc || runs < 1) {
    fprintf(stderr, "usage: first_load [-n RUNS] FILE.py:KERNEL...\n");
    return 2;
  }
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CUDA;
  kjit_context *ctx;
  if (kjit_context_create(&o, &ctx) != KJIT_OK)
    return 1;
  kjit_target t;
  if (kjit_context_target(ctx, &t) != KJIT_OK) {
    const char *why = kjit_last_error(ctx);
    printf("first_load: skipped: no CUDA device (%.*s)\n", (int)strcspn(why, "\n"), why);
    kjit_context_destroy(ctx);
    return 0;
  }
  const char *tmp = getenv("TMPDIR");
  char dirbuf[1024];
  snprintf(dirbuf, sizeof dirbuf, "%s/kjit-first-load.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dirbuf) || !ok(ctx, kjit_cache_configure(ctx, 1, dirbuf), "cache")) {
    kjit_context_destroy(ctx);
    return 1;
  }
  printf("in-process first launch, %d runs (ms, median / min; device opened and warmed first)\n\n", runs);
  printf("| kernel | source -> loaded + launched, cold | warm disk cache -> launched | launch + sync alone |\n");
  printf("| --- | ---: | ---: | ---: |\n");
  for (int i = first; i < argc; i++)
    run_file(ctx, argv[i], runs);
  kjit_cache_clear(ctx, NULL);
  rmdir(dirbuf);
  kjit_context_destroy(ctx);
  return 0;
}
