/* mpi_collatz.c - kjit under MPI: every rank loads the same kernel file
 * (examples/mpi/collatz.py), runs it on its slice of 1..N, and the ranks'
 * results are combined on rank 0 and checked against the host.
 *
 * Each rank runs on GPU `local_rank % device_count` where the machine has
 * GPUs (a context bound to that device), else on the cpu target; the local
 * rank is the rank among those on the same host (MPI_Comm_split_type), so
 * on one host it is the rank itself, and on several hosts each host's
 * ranks spread over its own GPUs.  The slices'
 * stopping times are summed and maximised with MPI_Reduce and collected
 * with MPI_Gatherv; rank 0 recomputes all of 1..N on the host and compares
 * every element, the sum and the maximum.  Every rank also reports whether
 * it compiled the kernel or read it from the disk cache (kjit_cache_stats
 * of its context), gathered with MPI_Gather: when all ranks share one
 * cache directory (examples/mpi/run.sh makes a fresh one), that line shows
 * how many compiled.  docs/scale.md explains the set-up.
 *
 *   mpirun -np 4 mpi_collatz [--n N] [--target auto|cpu|cuda] [KERNEL.py]
 *
 * Exit 0 on every rank when rank 0's check passed, 1 otherwise. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kjit.h>

typedef struct Opts {
  int64_t n;              /* numbers 1..n */
  kjit_target target;     /* AUTO: cuda when there are GPUs */
  const char *kernel_file;
} Opts;

/* What each rank tells rank 0 about itself (doubles, for one MPI_Gather). */
enum { R_OK, R_CUDA, R_DEVICE, R_COMPILED, R_COMPILE_MS, R_HITS, R_MISSES, R_STORES, R_NFIELDS };

/* Stopping time of n (the number of 3n+1 / n/2 steps down to 1). */
static int64_t steps_of(int64_t n) {
  int64_t s = 0;
  while (n != 1) {
    n = n % 2 == 0 ? n / 2 : 3 * n + 1;
    s++;
  }
  return s;
}

static int parse(int argc, char **argv, Opts *o) {
  *o = (Opts){.n = (int64_t)1 << 20, .target = KJIT_TARGET_AUTO,
              .kernel_file = "examples/mpi/collatz.py"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
    if (strcmp(a, "--n") == 0 && i + 1 < argc) o->n = atoll(v), i++;
    else if (strcmp(a, "--target") == 0 && strcmp(v, "cpu") == 0) o->target = KJIT_TARGET_CPU, i++;
    else if (strcmp(a, "--target") == 0 && strcmp(v, "cuda") == 0) o->target = KJIT_TARGET_CUDA, i++;
    else if (strcmp(a, "--target") == 0 && strcmp(v, "auto") == 0) i++;
    else if (a[0] != '-') o->kernel_file = a;
    else return 0;
  }
  return o->n >= 1;
}

/* Rank r's slice of 1..n: [*lo, *lo + *len), the remainder spread over the
 * first ranks. */
static void slice(int64_t n, int size, int r, int64_t *lo, int64_t *len) {
  int64_t base = n / size, rem = n % size;
  *len = base + (r < rem);
  *lo = 1 + base * r + (r < rem ? r : rem);
}

/* This rank's number among the ranks of its host (collective: every rank
 * calls it). */
static int local_rank(void) {
  MPI_Comm node;
  int r = 0;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
      MPI_SUCCESS) {
    MPI_Comm_rank(node, &r);
    MPI_Comm_free(&node);
  }
  return r;
}

/* Runs the kernel on this rank's slice into out[0..len); fills info. */
static int run_slice(const Opts *o, int rank, int local, int64_t lo, int64_t len,
                     int64_t *out, double *info) {
  int count = 0;
  kjit_device_count(&count);
  kjit_context_options co;
  kjit_context_options_init(&co);
  co.target = o->target == KJIT_TARGET_AUTO ? (count ? KJIT_TARGET_CUDA : KJIT_TARGET_CPU)
                                            : o->target;
  if (co.target == KJIT_TARGET_CUDA)
    co.device = count ? local % count : 0;
  info[R_CUDA] = co.target == KJIT_TARGET_CUDA;
  info[R_DEVICE] = co.target == KJIT_TARGET_CUDA ? co.device : -1;
  kjit_context *ctx = NULL;
  kjit_program *prog;
  kjit_kernel *k;
  kjit_array *a;
  kjit_status st = kjit_context_create(&co, &ctx);
  if (st == KJIT_OK) st = kjit_program_load_file(ctx, o->kernel_file, &prog);
  if (st == KJIT_OK) st = kjit_program_kernel(prog, "collatz", &k);
  if (st == KJIT_OK) st = kjit_array_wrap(ctx, KJIT_INT64, 1, &len, NULL, out, &a);
  if (st == KJIT_OK) {
    kjit_launch_config cfg;
    kjit_launch_config_init(&cfg);
    cfg.block[0] = 128;
    cfg.grid[0] = (uint32_t)((len + 127) / 128);
    kjit_arg args[2] = {kjit_arg_i64(lo), kjit_arg_array(a)};
    st = kjit_launch(k, &cfg, args, 2);          /* host array: copied in and back */
  }
  kjit_cache_info ci;
  if (st == KJIT_OK && (st = kjit_cache_stats(ctx, &ci)) == KJIT_OK) {
    kjit_last_timing(ctx, &info[R_COMPILE_MS], NULL, NULL);
    info[R_HITS] = (double)ci.hits;
    info[R_MISSES] = (double)ci.misses;
    info[R_STORES] = (double)ci.stores;
    /* read the cache: every lookup hit; anything else compiled here */
    info[R_COMPILED] = !(ci.hits > 0 && ci.misses == 0);
  }
  if (st != KJIT_OK)
    fprintf(stderr, "rank %d: %s\n%s", rank, kjit_status_name(st), ctx ? kjit_last_error(ctx) : "");
  info[R_OK] = st == KJIT_OK;
  kjit_context_destroy(ctx);
  return st == KJIT_OK;
}

/* Rank 0: every element, the sum and the maximum against the host. */
static int check(const Opts *o, const int64_t *all, int64_t sum, int64_t max) {
  int64_t want_sum = 0, want_max = 0, wrong = 0, first = -1;
  for (int64_t i = 0; i < o->n; i++) {
    int64_t s = steps_of(i + 1);
    want_sum += s;
    want_max = s > want_max ? s : want_max;
    if (all[i] != s && wrong++ == 0)
      first = i;
  }
  printf("check: sum of stopping times %lld (host %lld), max %lld (host %lld), "
         "%lld of %lld elements wrong\n", (long long)sum, (long long)want_sum, (long long)max,
         (long long)want_max, (long long)wrong, (long long)o->n);
  if (first >= 0)
    printf("check: first wrong: n = %lld gave %lld, host %lld\n", (long long)first + 1,
           (long long)all[first], (long long)steps_of(first + 1));
  return wrong == 0 && sum == want_sum && max == want_max;
}

/* Rank 0: one line per rank, then how many compiled. */
static int report(const double *infos, int size) {
  int compiled = 0, cached = 0, looked = 0, ok = 1;
  for (int r = 0; r < size; r++) {
    const double *f = &infos[r * R_NFIELDS];
    char where[32];
    if (f[R_CUDA])
      snprintf(where, sizeof where, "cuda device %d", (int)f[R_DEVICE]);
    else
      snprintf(where, sizeof where, "cpu target");
    printf("rank %d: %s, %s, compile %.1f ms, cache %d hit(s) %d miss(es) %d store(s) -> %s\n", r,
           where, f[R_OK] ? "ran" : "FAILED", f[R_COMPILE_MS], (int)f[R_HITS], (int)f[R_MISSES],
           (int)f[R_STORES], !f[R_OK] ? "-" : f[R_COMPILED] ? "compiled" : "read the cache");
    ok &= f[R_OK] != 0;
    compiled += f[R_OK] && f[R_COMPILED];
    cached += f[R_OK] && !f[R_COMPILED];
    looked += f[R_HITS] + f[R_MISSES] > 0;
  }
  if (!looked)   /* said, not hidden: the count below is then every rank */
    printf("note: no rank looked in the disk cache (this target's code is not cached), "
           "so each compiled\n");
  printf("compiles: %d of %d ranks compiled the kernel, %d read it from the shared cache\n",
         compiled, size, cached);
  return ok;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Opts o;
  if (!parse(argc, argv, &o)) {
    if (rank == 0)
      fputs("usage: mpi_collatz [--n N] [--target auto|cpu|cuda] [KERNEL.py]\n", stderr);
    MPI_Finalize();
    return 2;
  }
  int64_t lo, len;
  slice(o.n, size, rank, &lo, &len);
  int64_t *out = calloc((size_t)len + 1, sizeof *out);
  double info[R_NFIELDS] = {0};
  if (!out) {
    fprintf(stderr, "rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  run_slice(&o, rank, local_rank(), lo, len, out, info);

  /* combine: partial sums and maxima, the slices, the ranks' reports */
  long long mine_sum = 0, mine_max = 0, sum = 0, max = 0;
  for (int64_t i = 0; info[R_OK] && i < len; i++) {
    mine_sum += out[i];
    mine_max = out[i] > mine_max ? out[i] : mine_max;
  }
  MPI_Reduce(&mine_sum, &sum, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine_max, &max, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  int *counts = NULL, *displs = NULL;
  int64_t *all = NULL;
  double *infos = NULL;
  if (rank == 0) {
    counts = calloc((size_t)size, sizeof *counts);
    displs = calloc((size_t)size, sizeof *displs);
    all = calloc((size_t)o.n, sizeof *all);
    infos = calloc((size_t)size * R_NFIELDS, sizeof *infos);
    for (int r = 0; r < size; r++) {
      int64_t rlo, rlen;
      slice(o.n, size, r, &rlo, &rlen);
      counts[r] = (int)rlen;
      displs[r] = (int)(rlo - 1);
    }
  }
  MPI_Gatherv(out, (int)len, MPI_INT64_T, all, counts, displs, MPI_INT64_T, 0, MPI_COMM_WORLD);
  MPI_Gather(info, R_NFIELDS, MPI_DOUBLE, infos, R_NFIELDS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int ok = 1;
  if (rank == 0) {
    printf("mpi_collatz: %d ranks, n = %lld, kernel file %s\n", size, (long long)o.n,
           o.kernel_file);
    ok = report(infos, size);
    ok = check(&o, all, sum, max) && ok;
    printf("mpi_collatz: %s\n", ok ? "ok" : "FAILED");
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  free(out);
  free(counts);
  free(displs);
  free(all);
  free(infos);
  MPI_Finalize();
  return ok ? 0 : 1;
}
