/* kjit_tune.c - `kjit tune FILE.py:KERNEL ARGS...` and `kjit run --block
 * tuned`, once tools/kjit.c has read the arguments as `kjit run` does.
 *
 * kjit tune builds the candidate launch configurations the kernel allows
 * (kjit_tuning_info_get says its index dimensions, whether its grid is free
 * and whether it takes dynamic shared memory), runs each once from the
 * original inputs and compares every array with the first candidate's (a
 * kernel whose results depend on the geometry is refused, by name), then
 * times each with events (CUDA events on the GPU, the host clock on the
 * CPU), prints the table and stores the fastest (kjit_tuning_store).  The
 * whole run stays inside --budget seconds.  One progress line per
 * candidate goes to stderr, so a long run shows where it is in a terminal
 * and in a log alike. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_run.h"

#define MAX_CANDIDATES 96
#define MIN_REPS 5            /* timed runs of a candidate, at least */
#define MAX_REPS 200          /* and at most, unless --repeat says */

typedef struct Cand {
  uint32_t block[3], grid[3];
  size_t shared;
  int grid_policy, sm_multiple, shared_policy;
  double median, spread;      /* ms */
  int reps;                   /* timed runs; 0: not measured */
  const char *skipped;        /* why it did not run (static text) */
} Cand;

typedef struct Tune {
  const CliTune *in;
  kjit_tuning_info info;
  kjit_target target;
  Cand c[MAX_CANDIDATES];
  int n;
  kjit_array **pristine;      /* per argument: the inputs as given (C copies) */
  kjit_array **expect;        /* the first candidate's results */
  kjit_arg *timed;            /* the arguments of the timed runs (device copies on the GPU) */
  double deadline;            /* seconds on the monotonic clock */
} Tune;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------- candidates --- */

static uint32_t ceil_div(uint64_t a, uint64_t b) {
  uint64_t q = (a + b - 1) / b;
  return q > 0x7fffffffu ? 0x7fffffffu : (uint32_t)q;
}

static int same_cand(const Cand *a, const Cand *b) {
  return !memcmp(a->block, b->block, sizeof a->block) && !memcmp(a->grid, b->grid, sizeof a->grid) &&
         a->shared == b->shared;
}

/* Adds one configuration (block, grid by policy, shared) unless present or
 * over the limits. */
static void add(Tune *t, const uint32_t block[3], int policy, int mult, int shared_policy) {
  const CliTune *in = t->in;
  uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
  uint64_t ref = (uint64_t)in->ref.block[0] * in->ref.block[1] * in->ref.block[2];
  if (t->n >= MAX_CANDIDATES || threads > (uint64_t)t->info.max_threads_per_block || threads == 0)
    return;
  Cand c = {.grid_policy = policy, .sm_multiple = mult, .shared_policy = shared_policy};
  memcpy(c.block, block, sizeof c.block);
  c.shared = shared_policy == KJIT_TUNE_SHARED_PER_THREAD ? in->ref.shared_bytes * threads / ref
                                                          : in->ref.shared_bytes;
  if (policy == KJIT_TUNE_GRID_SMS) {
    c.grid[0] = (uint32_t)(mult * t->info.multiprocessors), c.grid[1] = c.grid[2] = 1;
  } else if (in->cover_array) {
    const int64_t *shape = kjit_array_shape(in->cover_array);
    int nd = kjit_array_ndim(in->cover_array);
    for (int d = 0; d < 3; d++)
      c.grid[d] = ceil_div(d < nd ? (uint64_t)shape[d] : 1, block[d]);
  } else {
    for (int d = 0; d < 3; d++)
      c.grid[d] = ceil_div((uint64_t)in->ref.grid[d] * in->ref.block[d], block[d]);
  }
  if (c.grid[1] > 65535 || c.grid[2] > 65535)
    return;
  for (int i = 0; i < t->n; i++)
    if (same_cand(&t->c[i], &c))
      return;
  t->c[t->n++] = c;
}

/* Blocks and shared sizes for every block shape the kernel's dimensions
 * allow; the configuration as given first (every other is compared with
 * it). */
static void add_blocks(Tune *t, int policy, int mult) {
  static const uint32_t one[] = {32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024};
  static const uint32_t two[][2] = {{8, 8}, {16, 4}, {16, 8}, {32, 2}, {32, 4}, {8, 16}, {16, 16},
                                    {32, 8}, {64, 4}, {128, 2}, {32, 16}, {64, 8}, {32, 32}};
  static const uint32_t three[][3] = {{4, 4, 4}, {8, 4, 4}, {8, 8, 2}, {8, 8, 4}, {16, 8, 2},
                                      {16, 8, 4}, {32, 4, 2}, {32, 8, 2}, {16, 16, 2}, {8, 8, 8},
                                      {16, 16, 4}, {32, 8, 4}};
  int shared = t->info.dynamic_shared && t->in->ref.shared_bytes > 0;
  int sp = shared ? KJIT_TUNE_SHARED_PER_THREAD : KJIT_TUNE_SHARED_FIXED;
  int dims = t->info.dims;
  size_t n = dims == 1 ? sizeof one / sizeof one[0] : dims == 2 ? sizeof two / sizeof two[0]
                                                                 : sizeof three / sizeof three[0];
  for (size_t i = 0; i < n; i++) {
    uint32_t b[3] = {1, 1, 1};
    for (int d = 0; d < dims; d++)
      b[d] = dims == 1 ? one[i] : dims == 2 ? two[i][d] : three[i][d];
    add(t, b, policy, mult, sp);
    uint64_t threads = (uint64_t)b[0] * b[1] * b[2];
    uint64_t ref = (uint64_t)t->in->ref.block[0] * t->in->ref.block[1] * t->in->ref.block[2];
    if (shared && threads < ref)     /* the given size fits a smaller block too */
      add(t, b, policy, mult, KJIT_TUNE_SHARED_FIXED);
  }
}

static void make_candidates(Tune *t) {
  const CliTune *in = t->in;
  int shared = t->info.dynamic_shared && in->ref.shared_bytes > 0;
  add(t, in->ref.block, KJIT_TUNE_GRID_COVER, 0,
      shared ? KJIT_TUNE_SHARED_PER_THREAD : KJIT_TUNE_SHARED_FIXED);
  add_blocks(t, KJIT_TUNE_GRID_COVER, 0);
  if (!t->info.grid_stride || t->info.dims != 1)
    return;
  static const int mults[] = {1, 2, 4, 8, 16, 32};
  static const uint32_t blocks[] = {128, 256, 512};
  for (size_t m = 0; m < sizeof mults / sizeof mults[0]; m++) {
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
      add(t, (uint32_t[3]){blocks[b], 1, 1}, KJIT_TUNE_GRID_SMS, mults[m],
          shared ? KJIT_TUNE_SHARED_PER_THREAD : KJIT_TUNE_SHARED_FIXED);
    add(t, in->ref.block, KJIT_TUNE_GRID_SMS, mults[m],
        shared ? KJIT_TUNE_SHARED_PER_THREAD : KJIT_TUNE_SHARED_FIXED);
  }
}

/* "256" or "16x16"; "cover 4096" or "4xSMs 528" */
static void block_text(const uint32_t b[3], char *out, size_t n) {
  if (b[2] > 1)
    snprintf(out, n, "%ux%ux%u", b[0], b[1], b[2]);
  else if (b[1] > 1)
    snprintf(out, n, "%ux%u", b[0], b[1]);
  else
    snprintf(out, n, "%u", b[0]);
}

static void grid_text(const Cand *c, char *out, size_t n) {
  char g[48];
  block_text(c->grid, g, sizeof g);
  if (c->grid_policy == KJIT_TUNE_GRID_SMS)
    snprintf(out, n, "%dxSMs (%s)", c->sm_multiple, g);
  else
    snprintf(out, n, "cover (%s)", g);
}

/* ----------------------------------------------------- array copies --- */

static kjit_status like(kjit_context *ctx, const kjit_array *a, kjit_array **out) {
  if (kjit_array_dtype(a) == KJIT_RECORD)
    return kjit_array_create_record(ctx, kjit_array_descr(a), kjit_array_ndim(a), kjit_array_shape(a), out);
  return kjit_array_create(ctx, kjit_array_dtype(a), kjit_array_ndim(a), kjit_array_shape(a), out);
}

static kjit_array *array_arg(const Tune *t, int i) {
  const kjit_arg *v = &t->in->vals[i];
  return v->kind == KJIT_ARG_ARRAY ? v->value.array : NULL;
}

/* A C-ordered copy of every array argument into copies[]. */
static int snapshot(Tune *t, kjit_array **copies) {
  for (int i = 0; i < t->in->nvals; i++) {
    kjit_array *a = array_arg(t, i);
    if (!a)
      continue;
    kjit_status st = copies[i] ? KJIT_OK : like(t->in->ctx, a, &copies[i]);
    if (st == KJIT_OK)
      st = kjit_array_copy(copies[i], a);
    if (st != KJIT_OK) {
      fputs(kjit_last_error(t->in->ctx), stderr);
      fprintf(stderr, "kjit: error: kjit tune copies argument '%s' to start every candidate from "
                      "the same inputs, and could not\nhint: give C-contiguous arrays\n",
              t->in->params[i]);
      return EXIT_ERRORS;
    }
  }
  return EXIT_OK;
}

static int restore(Tune *t) {
  for (int i = 0; i < t->in->nvals; i++)
    if (t->pristine[i] && kjit_array_copy(array_arg(t, i), t->pristine[i]) != KJIT_OK) {
      fputs(kjit_last_error(t->in->ctx), stderr);
      return EXIT_ERRORS;
    }
  return EXIT_OK;
}

/* Floats agree to a relative 1e-5 (an atomic sum's order may differ by an
 * ulp or so; NaN matches NaN); everything else byte for byte.  The first
 * differing element's index, or -1. */
static int64_t first_difference(const kjit_array *x, const kjit_array *y) {
  int64_t n = kjit_array_size(x);
  size_t w = (size_t)kjit_array_itemsize(x);
  kjit_dtype dt = kjit_array_dtype(x);
  const unsigned char *p = kjit_array_data(x), *q = kjit_array_data(y);
  int f32 = dt == KJIT_FLOAT32 || dt == KJIT_COMPLEX64, f64 = dt == KJIT_FLOAT64 || dt == KJIT_COMPLEX128;
  int64_t parts = n * (int64_t)(dt == KJIT_COMPLEX64 || dt == KJIT_COMPLEX128 ? 2 : 1);
  for (int64_t i = 0; (f32 || f64) && i < parts; i++) {
    double a, b;
    if (f32) { float fa, fb; memcpy(&fa, p + 4 * i, 4); memcpy(&fb, q + 4 * i, 4); a = fa, b = fb; }
    else { memcpy(&a, p + 8 * i, 8); memcpy(&b, q + 8 * i, 8); }
    if (!(a == b || (isnan(a) && isnan(b)) || fabs(a - b) <= 1e-5 * fmax(fabs(a), fabs(b))))
      return parts > n ? i / 2 : i;
  }
  if (f32 || f64)
    return -1;
  for (int64_t i = 0; i < n; i++)
    if (memcmp(p + (size_t)i * w, q + (size_t)i * w, w))
      return i;
  return -1;
}

/* ------------------------------------------------------------ runs --- */

static kjit_launch_config config_of(const Cand *c) {
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  memcpy(cfg.grid, c->grid, sizeof cfg.grid);
  memcpy(cfg.block, c->block, sizeof cfg.block);
  cfg.shared_bytes = c->shared;
  return cfg;
}

/* The candidate from the original inputs, its arrays compared with the
 * first's (which become the expectation). */
static int check_results(Tune *t, int k, kjit_array **scratch) {
  Cand *c = &t->c[k];
  kjit_launch_config cfg = config_of(c);
  if (restore(t) != EXIT_OK)
    return EXIT_ERRORS;
  kjit_status st = kjit_launch(t->in->kernel, &cfg, t->in->vals, t->in->nvals);
  if (st == KJIT_OK)
    st = kjit_synchronize(t->in->ctx);
  if (st != KJIT_OK) {
    if (k == 0 || st == KJIT_ERROR_KERNEL_FAULT) {  /* a fault: geometry-dependent too */
      fputs(kjit_last_error(t->in->ctx), stderr);
      if (k > 0)
        fprintf(stderr, "kjit: error: kernel '%s' faulted with block %u,%u,%u but not with the "
                        "configuration given: its behaviour depends on the launch geometry, so "
                        "it cannot be tuned\n", t->in->kname, c->block[0], c->block[1], c->block[2]);
      return EXIT_ERRORS;
    }
    c->skipped = "the launch failed";
    fprintf(stderr, "kjit: note: tune: block %u,%u,%u skipped: %s", c->block[0], c->block[1],
            c->block[2], kjit_last_error(t->in->ctx));
    return EXIT_OK;
  }
  kjit_array **into = k == 0 ? t->expect : scratch;
  if (snapshot(t, into) != EXIT_OK)
    return EXIT_ERRORS;
  for (int i = 0; k > 0 && i < t->in->nvals; i++) {
    int64_t at = into[i] ? first_difference(t->expect[i], into[i]) : -1;
    if (at < 0)
      continue;
    char b0[48], b1[48], g0[64], g1[64];
    block_text(t->c[0].block, b0, sizeof b0), block_text(c->block, b1, sizeof b1);
    grid_text(&t->c[0], g0, sizeof g0), grid_text(c, g1, sizeof g1);
    fprintf(stderr, "kjit: error: kernel '%s' gives different results with block %s, grid %s, "
                    "shared %zu than with block %s, grid %s, shared %zu (array '%s', element %" PRId64
                    "): its results depend on the launch geometry, so it cannot be tuned\n"
                    "hint: a kernel tunes when every thread's work depends only on its global "
                    "index (cuda.grid); one that uses blockDim or the block's shared memory as part "
                    "of its result keeps the configuration it was written for\n",
            t->in->kname, b1, g1, c->shared, b0, g0, t->c[0].shared, t->in->params[i], at);
    return EXIT_ERRORS;
  }
  return EXIT_OK;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Times candidate k: one warm-up, then runs timed one by one with events
 * until MAX_REPS (or --repeat) or its share of the budget is spent. */
static int time_candidate(Tune *t, int k, void *e0, void *e1, int left) {
  Cand *c = &t->c[k];
  kjit_launch_config cfg = config_of(c);
  kjit_context *ctx = t->in->ctx;
  double start = now_s(), share = (t->deadline - start) / (left > 0 ? left : 1);
  double samples[MAX_REPS];
  int max = t->in->repeat > 0 ? (t->in->repeat < MAX_REPS ? t->in->repeat : MAX_REPS) : MAX_REPS;
  if (kjit_launch(t->in->kernel, &cfg, t->timed, t->in->nvals) != KJIT_OK)
    goto failed;
  int n = 0;
  while (n < max) {
    double ms = 0;
    if (kjit_event_record(ctx, e0, NULL) != KJIT_OK ||
        kjit_launch(t->in->kernel, &cfg, t->timed, t->in->nvals) != KJIT_OK ||
        kjit_event_record(ctx, e1, NULL) != KJIT_OK || kjit_event_elapsed_ms(ctx, e0, e1, &ms) != KJIT_OK)
      goto failed;
    samples[n++] = ms;
    double now = now_s();
    if (t->in->repeat <= 0 && n >= MIN_REPS && (now - start >= share || now >= t->deadline))
      break;
  }
  qsort(samples, (size_t)n, sizeof *samples, cmp_double);
  c->reps = n;
  c->median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  c->spread = samples[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1] - samples[n / 4];
  return EXIT_OK;
failed:
  fputs(kjit_last_error(ctx), stderr);
  return EXIT_ERRORS;
}

/* The timed runs' arguments: on the GPU device copies of the arrays (so
 * only the kernel is between the events); on the CPU the arrays
 * themselves. */
static int make_timed(Tune *t) {
  t->timed = calloc((size_t)t->in->nvals + 1, sizeof *t->timed);
  if (!t->timed)
    return EXIT_ERRORS;
  for (int i = 0; i < t->in->nvals; i++) {
    t->timed[i] = t->in->vals[i];
    kjit_array *a = array_arg(t, i), *d = NULL;
    if (!a || t->target != KJIT_TARGET_CUDA)
      continue;
    if (kjit_array_to_device(t->in->ctx, a, &d) != KJIT_OK) {
      fputs(kjit_last_error(t->in->ctx), stderr);
      return EXIT_ERRORS;
    }
    t->timed[i] = kjit_arg_array(d);
  }
  return EXIT_OK;
}

/* ----------------------------------------------------------- report --- */

static int best_of(const Tune *t) {
  int best = 0;
  for (int i = 1; i < t->n; i++)
    if (t->c[i].reps && (!t->c[best].reps || t->c[i].median < t->c[best].median))
      best = i;
  return best;
}

static void print_table(const Tune *t, int best) {
  printf("tune: kernel %s, %d candidates on %s, shapes %s\n", t->in->kname, t->n, t->info.device,
         t->info.shapes);
  printf("  %-12s %-26s %-10s %12s %12s %6s\n", "block", "grid", "shared", "median ms", "spread ms", "runs");
  for (int i = 0; i < t->n; i++) {
    const Cand *c = &t->c[i];
    char b[48], g[64], s[24];
    block_text(c->block, b, sizeof b);
    grid_text(c, g, sizeof g);
    snprintf(s, sizeof s, "%zu", c->shared);
    if (!c->reps) {
      printf("  %-12s %-26s %-10s %12s %12s %6s  (%s)\n", b, g, s, "-", "-", "-",
             c->skipped ? c->skipped : "not run: budget spent");
      continue;
    }
    printf("%c %-12s %-26s %-10s %12.6f %12.6f %6d%s\n", i == best ? '*' : ' ', b, g, s, c->median,
           c->spread, c->reps, i == 0 ? "  (as given)" : "");
  }
}

static int store(Tune *t, int best) {
  const Cand *c = &t->c[best];
  kjit_tuning r;
  memset(&r, 0, sizeof r);
  memcpy(r.block, c->block, sizeof r.block);
  memcpy(r.ref_block, t->in->ref.block, sizeof r.ref_block);
  r.grid_policy = c->grid_policy;
  r.sm_multiple = c->sm_multiple;
  r.shared_policy = c->shared_policy;
  r.shared_bytes = c->shared;
  r.median_ms = c->median;
  r.spread_ms = c->spread;
  if (kjit_tuning_store(t->in->kernel, t->in->vals, t->in->nvals, &r) != KJIT_OK) {
    fputs(kjit_last_error(t->in->ctx), stderr);
    return EXIT_ERRORS;
  }
  kjit_cli_print_diagnostics(t->in->ctx);
  const Cand *ref = &t->c[0];
  char b[48], g[64];
  block_text(c->block, b, sizeof b);
  grid_text(c, g, sizeof g);
  printf("tuned: block %s, grid %s, shared %zu: %.6f ms (as given %.6f ms, %.2fx)\n", b, g, c->shared,
         c->median, ref->median, c->median > 0 ? ref->median / c->median : 1.0);
  printf("stored: key %.16s (kernel %s, device %s, shapes %s)\n", t->info.key, t->info.kernel,
         t->info.device, t->info.shapes);
  return EXIT_OK;
}

/* ------------------------------------------------------------ driver --- */

static int refuse_grid_sync(const Tune *t) {
  fprintf(stderr, "kjit: error: kernel '%s' synchronizes the grid (cuda.cg.this_grid().sync()): "
                  "its grid must stay resident, so kjit tune does not change it\n"
                  "hint: size the grid with kjit_kernel_max_cooperative_grid\n", t->in->kname);
  return EXIT_ERRORS;
}

static int run_candidates(Tune *t) {
  kjit_array **scratch = calloc((size_t)t->in->nvals + 1, sizeof *scratch);
  void *e0 = NULL, *e1 = NULL;
  int rc = scratch ? EXIT_OK : EXIT_ERRORS;
  for (int k = 0; rc == EXIT_OK && k < t->n; k++)  /* every result first: a refusal costs no timing */
    rc = check_results(t, k, scratch);
  if (rc == EXIT_OK) rc = make_timed(t);
  if (rc == EXIT_OK && (kjit_event_create(t->in->ctx, &e0) != KJIT_OK ||
                        kjit_event_create(t->in->ctx, &e1) != KJIT_OK)) {
    fputs(kjit_last_error(t->in->ctx), stderr);
    rc = EXIT_ERRORS;
  }
  for (int k = 0; rc == EXIT_OK && k < t->n; k++) {
    if (t->c[k].skipped)
      continue;
    if (k > 0 && now_s() >= t->deadline) {
      fprintf(stderr, "kjit: note: tune: the budget of %g s is spent after %d of %d candidates\n",
              t->in->budget, k, t->n);
      break;
    }
    rc = time_candidate(t, k, e0, e1, t->n - k);
    char b[48];
    block_text(t->c[k].block, b, sizeof b);
    if (rc == EXIT_OK)
      fprintf(stderr, "kjit: tune: [%d/%d] block %s: median %.6f ms over %d runs\n", k + 1, t->n, b,
              t->c[k].median, t->c[k].reps);
  }
  for (int i = 0; scratch && i < t->in->nvals; i++)
    kjit_array_destroy(scratch[i]);
  free(scratch);
  if (e0) kjit_event_destroy(t->in->ctx, e0);
  if (e1) kjit_event_destroy(t->in->ctx, e1);
  return rc;
}

int kjit_cli_tune(const CliTune *in) {
  Tune t = {.in = in, .deadline = now_s() + in->budget};
  kjit_context_target(in->ctx, &t.target);
  if (kjit_tuning_info_get(in->kernel, in->vals, in->nvals, &t.info) != KJIT_OK) {
    fputs(kjit_last_error(in->ctx), stderr);
    return EXIT_ERRORS;
  }
  if (t.info.grid_sync)
    return refuse_grid_sync(&t);
  make_candidates(&t);
  t.pristine = calloc((size_t)in->nvals + 1, sizeof *t.pristine);
  t.expect = calloc((size_t)in->nvals + 1, sizeof *t.expect);
  int rc = t.pristine && t.expect ? snapshot(&t, t.pristine) : EXIT_ERRORS;
  if (rc == EXIT_OK)
    rc = run_candidates(&t);
  if (rc == EXIT_OK) {
    int best = best_of(&t);
    print_table(&t, best);
    rc = store(&t, best);
  }
  for (int i = 0; i < in->nvals; i++) {
    if (t.pristine) kjit_array_destroy(t.pristine[i]);
    if (t.expect) kjit_array_destroy(t.expect[i]);
    if (t.timed && t.timed[i].kind == KJIT_ARG_ARRAY && t.timed[i].value.array != in->vals[i].value.array)
      kjit_array_destroy(t.timed[i].value.array);
  }
  free(t.pristine);
  free(t.expect);
  free(t.timed);
  return rc;
}

/* ----------------------------------------------------- --block tuned --- */

int kjit_cli_tuned_block(kjit_context *ctx, kjit_kernel *k, const char *kname, const kjit_arg *vals,
                         int n, int explicit_grid, kjit_launch_config *cfg, int *found) {
  kjit_tuning r;
  *found = 0;
  kjit_status st = kjit_tuning_load(k, vals, n, &r);
  if (st == KJIT_OK)
    kjit_cli_print_diagnostics(ctx);
  if (st == KJIT_ERROR_NOT_FOUND) {               /* a corrupt record's warning, not the E499 */
    const char *d = kjit_last_diagnostics(ctx), *e = strstr(d, "error[E499]");
    while (e && e > d && e[-1] != '\n')
      e--;
    fprintf(stderr, "%.*s", (int)(e ? e - d : 0), d);
    fprintf(stderr, "kjit: note: --block tuned: no tuning record for kernel '%s' on this device "
                    "and shape class; using --block auto (run kjit tune to make one)\n", kname);
    return EXIT_OK;
  }
  if (st != KJIT_OK) {
    fputs(kjit_last_error(ctx), stderr);
    return EXIT_ERRORS;
  }
  /* the grid as given was written for the block kjit tune started from */
  memcpy(cfg->block, r.ref_block, sizeof cfg->block);
  (void)explicit_grid;                             /* else --grid cover: recomputes it */
  if (kjit_launch_config_tuned(k, vals, n, cfg) != KJIT_OK) {
    fputs(kjit_last_error(ctx), stderr);
    return EXIT_ERRORS;
  }
  *found = r.grid_policy == KJIT_TUNE_GRID_SMS ? 2 : 1;
  char b[48];
  block_text(cfg->block, b, sizeof b);
  fprintf(stderr, "kjit: note: --block tuned: block %s%s (measured %.6f ms by kjit tune)\n", b,
          r.grid_policy == KJIT_TUNE_GRID_SMS ? ", grid by SM count" : "", r.median_ms);
  return EXIT_OK;
}
