/* vadd_multi.c - one process, every GPU: out = x + y over N float32
 * elements (default 2^28, so 2 x 1 GiB of inputs), split in equal slices
 * across K devices, run three ways and checked element by element:
 *
 *   one       device 0 alone does the whole vector (the baseline);
 *   threads   a host thread per device, each with its own context bound to
 *             its device (kjit_context_options.device), arrays and
 *             launches there;
 *   switch    one thread drives every device's context in turn: launches
 *             of device arrays are queued (asynchronous), so the devices
 *             work at once, then each is synchronized.
 *
 * Timed: the kernel phase (launch to synchronize, inputs already on the
 * devices), median of --repeat runs, as GB/s of the 3 x 4 bytes moved per
 * element and as a speed-up over `one`.  The copies in and out are timed
 * too but are not part of the ratio (they are bound by the host's memory
 * and PCIe, not by the devices).  Written against kjit.h alone; docs/scale.md
 * explains the patterns.
 *
 *   vadd_multi [--n N] [--devices K] [--repeat R] [--target cuda|cpu] [KERNEL.py]
 *
 * --target cpu runs the same program with K cpu-target contexts standing in
 * for devices (host arrays, synchronous launches): how CI checks the
 * program here.  Exit 0 when every result is right, 1 otherwise, 77 when
 * the cuda target is asked for on a machine without a GPU. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread barriers */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kjit.h>

#define MAX_DEVICES 64

typedef struct Opts {
  int64_t n;              /* elements in all */
  int devices;            /* K; 0 = every device */
  int repeat;             /* timed runs per mode */
  kjit_target target;     /* KJIT_TARGET_CUDA or KJIT_TARGET_CPU */
  const char *kernel_file;
} Opts;

/* One slice of the vector on one device, with its own context. */
typedef struct Part {
  const Opts *o;
  int device;             /* the ordinal its context is bound to */
  int64_t off, n;         /* the slice */
  const float *hx, *hy;   /* host inputs (whole vectors) */
  float *hout;            /* host result (whole vector) */
  kjit_context *ctx;
  kjit_kernel *k;
  kjit_array *x, *y, *out;    /* where the kernel reads and writes */
  kjit_array *host_out;       /* the slice of hout (cuda: copied into) */
  double copy_in_ms, copy_out_ms;
  int failed;
} Part;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int part_fail(Part *p, const char *what, kjit_status st) {
  fprintf(stderr, "vadd_multi: device %d: %s failed (%s)\n%s", p->device, what,
          kjit_status_name(st), p->ctx ? kjit_last_error(p->ctx) : "");
  p->failed = 1;
  return 1;
}

/* The slice's host views (no copy). */
static kjit_status wrap_slice(Part *p, const float *base, kjit_array **out) {
  return kjit_array_wrap(p->ctx, KJIT_FLOAT32, 1, &p->n, NULL, (void *)(base + p->off), out);
}

/* Context, program and arrays of one part; on the cuda target the inputs
 * are copied to its device.  Safe to run in the part's own thread. */
static int part_open(Part *p) {
  kjit_context_options co;
  kjit_context_options_init(&co);
  co.target = p->o->target;
  co.device = p->device;
  kjit_status st;
  kjit_program *prog;
  kjit_array *hx, *hy;
  if ((st = kjit_context_create(&co, &p->ctx)) != KJIT_OK)
    return part_fail(p, "creating the context", st);
  if ((st = kjit_program_load_file(p->ctx, p->o->kernel_file, &prog)) != KJIT_OK ||
      (st = kjit_program_kernel(prog, "add_kernel", &p->k)) != KJIT_OK)
    return part_fail(p, "loading add_kernel", st);
  if ((st = wrap_slice(p, p->hx, &hx)) != KJIT_OK || (st = wrap_slice(p, p->hy, &hy)) != KJIT_OK ||
      (st = wrap_slice(p, p->hout, &p->host_out)) != KJIT_OK)
    return part_fail(p, "wrapping the host slices", st);
  if (p->o->target == KJIT_TARGET_CPU) {      /* no device memory: work in place */
    p->x = hx, p->y = hy, p->out = p->host_out;
    return 0;
  }
  double t0 = now_ms();
  if ((st = kjit_array_to_device(p->ctx, hx, &p->x)) != KJIT_OK ||
      (st = kjit_array_to_device(p->ctx, hy, &p->y)) != KJIT_OK ||
      (st = kjit_array_create_device(p->ctx, KJIT_FLOAT32, 1, &p->n, &p->out)) != KJIT_OK)
    return part_fail(p, "copying the inputs to the device", st);
  p->copy_in_ms = now_ms() - t0;
  return 0;
}

/* Queues the kernel over the slice (asynchronous with device arrays). */
static int part_launch(Part *p) {
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.block[0] = 256;
  cfg.grid[0] = (uint32_t)((p->n + 255) / 256);
  kjit_arg args[3] = {kjit_arg_array(p->x), kjit_arg_array(p->y), kjit_arg_array(p->out)};
  kjit_status st = kjit_launch(p->k, &cfg, args, 3);
  return st == KJIT_OK ? 0 : part_fail(p, "launching add_kernel", st);
}

static int part_sync(Part *p) {
  kjit_status st = kjit_synchronize(p->ctx);
  return st == KJIT_OK ? 0 : part_fail(p, "synchronizing", st);
}

/* The result back into the host vector (cuda), then the context goes. */
static int part_close(Part *p) {
  if (p->ctx && !p->failed && p->out != p->host_out) {
    double t0 = now_ms();
    kjit_status st = kjit_array_copy(p->host_out, p->out);
    p->copy_out_ms = now_ms() - t0;
    if (st != KJIT_OK)
      part_fail(p, "copying the result back", st);
  }
  kjit_context_destroy(p->ctx);
  p->ctx = NULL;
  return p->failed;
}

/* ------------------------------------------------------------ timing --- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

/* ------------------------------------------------------------- modes --- */

/* Slices of n over k parts on devices 0..k-1 (the last one takes the rest). */
static void split(Part *parts, int k, const Opts *o, const float *x, const float *y, float *out) {
  int64_t each = o->n / k;
  for (int d = 0; d < k; d++) {
    parts[d] = (Part){.o = o, .device = d, .off = each * d, .n = d == k - 1 ? o->n - each * d : each,
                      .hx = x, .hy = y, .hout = out};
  }
}

/* One thread drives the k parts: open each, then per run queue every
 * launch and synchronize every device. */
static int run_switching(Part *parts, int k, int repeat, double *ms) {
  int bad = 0;
  for (int d = 0; d < k && !bad; d++)
    bad = part_open(&parts[d]);
  double *t = calloc((size_t)repeat + 1, sizeof *t);
  for (int r = 0; r <= repeat && !bad && t; r++) {   /* run 0: warm-up */
    double t0 = now_ms();
    for (int d = 0; d < k && !bad; d++)
      bad = part_launch(&parts[d]);
    for (int d = 0; d < k && !bad; d++)
      bad = part_sync(&parts[d]);
    t[r] = now_ms() - t0;
  }
  *ms = bad || !t ? 0 : median(t + 1, repeat);
  free(t);
  for (int d = 0; d < k; d++)
    bad |= part_close(&parts[d]);
  return bad;
}

typedef struct Shared {
  Part *parts;
  int k, repeat;
  pthread_barrier_t start, done;   /* k workers + the timing thread */
  atomic_int failed;               /* set by any part that failed */
} Shared;

typedef struct Worker {
  Shared *s;
  int d;
} Worker;

/* A device's thread: open, then per run launch + synchronize between the
 * two barriers the timing thread measures. */
static void *worker(void *arg) {
  Worker *w = arg;
  Shared *s = w->s;
  Part *p = &s->parts[w->d];
  int bad = part_open(p);
  for (int r = 0; r <= s->repeat; r++) {
    pthread_barrier_wait(&s->start);
    if (!bad && !s->failed)
      bad = part_launch(p) || part_sync(p);
    if (bad)
      s->failed = 1;
    pthread_barrier_wait(&s->done);
  }
  part_close(p);
  return NULL;
}

static int run_threads(Part *parts, int k, int repeat, double *ms) {
  Shared s = {.parts = parts, .k = k, .repeat = repeat};
  atomic_init(&s.failed, 0);
  pthread_t th[MAX_DEVICES];
  Worker w[MAX_DEVICES];
  double *t = calloc((size_t)repeat + 1, sizeof *t);
  if (!t || pthread_barrier_init(&s.start, NULL, (unsigned)k + 1) != 0 ||
      pthread_barrier_init(&s.done, NULL, (unsigned)k + 1) != 0)
    return 1;
  for (int d = 0; d < k; d++) {
    w[d] = (Worker){&s, d};
    pthread_create(&th[d], NULL, worker, &w[d]);
  }
  for (int r = 0; r <= repeat; r++) {            /* run 0: warm-up */
    pthread_barrier_wait(&s.start);
    double t0 = now_ms();
    pthread_barrier_wait(&s.done);
    t[r] = now_ms() - t0;
  }
  int bad = s.failed;
  for (int d = 0; d < k; d++) {
    pthread_join(th[d], NULL);
    bad |= parts[d].failed;
  }
  *ms = bad ? 0 : median(t + 1, repeat);
  free(t);
  pthread_barrier_destroy(&s.start);
  pthread_barrier_destroy(&s.done);
  return bad;
}

/* ------------------------------------------------------------- check --- */

/* Exact: x and y are small multiples of 1/4, so every sum is a float. */
static int64_t count_wrong(const float *x, const float *y, const float *out, int64_t n) {
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; i++)
    wrong += out[i] != x[i] + y[i];
  return wrong;
}

static void report(const char *mode, int k, const Opts *o, const Part *parts, double ms,
                   double base_ms, int64_t wrong) {
  double in = 0, out = 0;
  for (int d = 0; d < k; d++) {
    in = parts[d].copy_in_ms > in ? parts[d].copy_in_ms : in;
    out += parts[d].copy_out_ms;
  }
  double gbs = ms > 0 ? 12.0 * (double)o->n / (ms * 1e6) : 0;
  printf("%-8s %2d device%s  kernel %9.3f ms  %8.1f GB/s  x%.2f vs one  "
         "(copy in %.1f ms, out %.1f ms)  %s\n", mode, k, k == 1 ? " " : "s", ms, gbs,
         ms > 0 ? base_ms / ms : 0, in, out, wrong ? "WRONG" : "results ok");
  if (wrong)
    printf("  %lld of %lld elements wrong\n", (long long)wrong, (long long)o->n);
}

/* ------------------------------------------------------------- main --- */

static int usage(void) {
  fputs("usage: vadd_multi [--n N] [--devices K] [--repeat R] [--target cuda|cpu] "
        "[KERNEL.py]\n", stderr);
  return 2;
}

static int parse(int argc, char **argv, Opts *o) {
  *o = (Opts){.n = (int64_t)1 << 28, .repeat = 5, .target = KJIT_TARGET_CUDA,
              .kernel_file = "examples/vector_add.py"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--n") == 0 && v) o->n = atoll(v), i++;
    else if (strcmp(a, "--devices") == 0 && v) o->devices = atoi(v), i++;
    else if (strcmp(a, "--repeat") == 0 && v) o->repeat = atoi(v), i++;
    else if (strcmp(a, "--target") == 0 && v && strcmp(v, "cpu") == 0) o->target = KJIT_TARGET_CPU, i++;
    else if (strcmp(a, "--target") == 0 && v && strcmp(v, "cuda") == 0) i++;
    else if (a[0] != '-') o->kernel_file = a;
    else return usage();
  }
  if (o->n < 1 || o->repeat < 1 || o->devices < 0 || o->devices > MAX_DEVICES)
    return usage();
  return 0;
}

/* K: every device (cuda), --devices (at most the device count), 2 on cpu. */
static int pick_devices(const Opts *o, int *k) {
  int count = 0;
  kjit_device_count(&count);
  if (o->target == KJIT_TARGET_CPU) {
    *k = o->devices ? o->devices : 2;
    return 0;
  }
  if (count == 0) {
    printf("SKIP: no CUDA device (kjit info says why); --target cpu runs this on the cpu\n");
    return 77;
  }
  *k = o->devices ? o->devices : count;
  if (*k > count) {
    fprintf(stderr, "vadd_multi: --devices %d, but this machine has %d\n", *k, count);
    return 2;
  }
  for (int d = 0; d < *k; d++) {
    kjit_device_info info;
    if (kjit_device_get_info(d, &info) == KJIT_OK)
      printf("device %d: %s, sm_%d%d, %.1f GiB, %d SMs\n", d, info.name, info.cc_major,
             info.cc_minor, (double)info.total_memory / (1 << 30), info.multiprocessors);
  }
  return 0;
}

int main(int argc, char **argv) {
  Opts o;
  int k = 0, rc = parse(argc, argv, &o);
  if (rc || (rc = pick_devices(&o, &k)))
    return rc;
  float *x = malloc((size_t)o.n * sizeof *x), *y = malloc((size_t)o.n * sizeof *y);
  float *out = malloc((size_t)o.n * sizeof *out);
  Part *parts = calloc((size_t)k, sizeof *parts);
  if (!x || !y || !out || !parts) {
    fputs("vadd_multi: out of host memory\n", stderr);
    return 1;
  }
  for (int64_t i = 0; i < o.n; i++) {
    x[i] = (float)(i % 4096) * 0.25f;
    y[i] = (float)((i * 7) % 1024) * 0.5f;
  }
  printf("vadd_multi: %lld float32 elements (%.2f GiB per array), %s target, %d device%s, "
         "median of %d runs\n", (long long)o.n, (double)o.n * 4 / (1 << 30),
         o.target == KJIT_TARGET_CPU ? "cpu" : "cuda", k, k == 1 ? "" : "s", o.repeat);
  double base = 0, ms = 0;
  int bad = 0;
  static const char *const modes[] = {"one", "threads", "switch"};
  for (int m = 0; m < 3; m++) {
    int parts_n = m == 0 ? 1 : k;
    memset(out, 0xff, (size_t)o.n * sizeof *out);   /* NaN: a missed element shows */
    split(parts, parts_n, &o, x, y, out);
    int failed = m == 1 ? run_threads(parts, parts_n, o.repeat, &ms)
                        : run_switching(parts, parts_n, o.repeat, &ms);
    int64_t wrong = failed ? o.n : count_wrong(x, y, out, o.n);
    if (m == 0)
      base = ms;
    report(modes[m], parts_n, &o, parts, ms, base, wrong);
    bad |= failed || wrong;
  }
  free(parts);
  free(x);
  free(y);
  free(out);
  printf("vadd_multi: %s\n", bad ? "FAILED" : "ok");
  return bad ? 1 : 0;
}
