/* aot_launch.c - launch overhead of kjit aot's generated launchers, paired
 * with raw cuLaunchKernel of the very same CUfunction in one process: the
 * tiny kernels of bench/gpu/kernels/launch_overhead.py (1 and 4 array
 * arguments) through the library `kjit aot` makes of that file.
 *
 *   kjit aot bench/gpu/kernels/launch_overhead.py --arch sm_90 --target cuda -o DIR
 *   cc -std=c11 -O2 -IDIR bench/gpu/aot_launch.c -ldl -lpthread -o aot_launch
 *   aot_launch [LAUNCHES [ROUNDS]]        (defaults 10000, 20)
 *
 * This file includes the generated launch_overhead.c, so the raw loop calls
 * the library's own driver table and the function its launcher loaded (the
 * variant it picks: fits32 and grid32), with the same argument structs:
 * the two loops differ only by the launcher.  For each arity, after 100
 * warm-up launches of each, ROUNDS rounds each time a block of LAUNCHES
 * launcher calls and a block of LAUNCHES raw cuLaunchKernel calls (1 block
 * x 32 threads, default stream, then cuCtxSynchronize), the order swapped
 * every round so drift falls on both; the figures are medians over the
 * rounds of microseconds per launch, and the median of the per-round
 * differences.
 *
 * Output, one line per arity:
 *   PAIRED args=K aot_us=A raw_us=R diff_us=D rounds=N launches=L */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "launch_overhead.c"

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void check(int st, const char *what) {
  if (st != AOT_OK) {
    fprintf(stderr, "aot_launch: %s: %s\n", what, launch_overhead_last_error());
    exit(1);
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The index of the kernel whose mangled name starts with prefix. */
static int func_index(const char *prefix) {
  for (int k = 0; k < AOT_NFUNCS; k++)
    if (strncmp(aot_func_names[k], prefix, strlen(prefix)) == 0)
      return k;
  fprintf(stderr, "aot_launch: the library has no kernel %s\n", prefix);
  exit(1);
}

static launch_overhead_f32_1d arr[4];
static const launch_overhead_config cfg = {{1, 1, 1}, {32, 1, 1}, 0, NULL};

static void aot_block(int nargs, int launches) {
  if (nargs == 1)
    for (int i = 0; i < launches; i++)
      check(launch_overhead_tiny1(&cfg, arr[0]), "tiny1");
  else
    for (int i = 0; i < launches; i++)
      check(launch_overhead_tiny4(&cfg, arr[0], arr[1], arr[2], arr[3]), "tiny4");
}

static void raw_block(CUfunction fn, void **params, int launches) {
  for (int i = 0; i < launches; i++)
    check(aot_cu_check(aot_cu.LaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), "cuLaunchKernel"),
          "raw");
}

/* Microseconds per launch of one timed block, synchronized at its end. */
static double timed(int aot, int nargs, CUfunction fn, void **params, int launches) {
  double t = now_us();
  if (aot)
    aot_block(nargs, launches);
  else
    raw_block(fn, params, launches);
  check(launch_overhead_synchronize(NULL), "synchronize");
  return (now_us() - t) / launches;
}

int main(int argc, char **argv) {
  int launches = argc > 1 ? atoi(argv[1]) : 10000, rounds = argc > 2 ? atoi(argv[2]) : 20;
  launches = launches < 1 ? 1 : launches;
  rounds = rounds < 1 ? 1 : rounds > 1000 ? 1000 : rounds;
  check(launch_overhead_select_target(launch_overhead_TARGET_CUDA), "select_target");
  for (int i = 0; i < 4; i++) {
    void *p;
    check(launch_overhead_malloc(&p, 32 * sizeof(float)), "malloc");
    arr[i] = launch_overhead_f32_1d_c((float *)p, 32);
  }
  void *params[4] = {&arr[0], &arr[1], &arr[2], &arr[3]};
  double *a = malloc(sizeof(double) * (size_t)rounds * 3), *r = a + rounds, *d = r + rounds;
  if (!a)
    return 1;
  for (int nargs = 1; nargs <= 4; nargs += 3) {
    CUfunction fn;
    AotCuModule *m;
    aot_block(nargs, 100);  /* loads the module: the launcher's function is then the raw loop's */
    check(aot_cu_function(func_index(nargs == 1 ? "tiny1" : "tiny4"), 3, &fn, &m), "function");
    raw_block(fn, params, 100);
    check(launch_overhead_synchronize(NULL), "synchronize");
    for (int k = 0; k < rounds; k++) {
      int aot_first = k % 2 == 0;
      double t1 = timed(aot_first, nargs, fn, params, launches);
      double t2 = timed(!aot_first, nargs, fn, params, launches);
      a[k] = aot_first ? t1 : t2, r[k] = aot_first ? t2 : t1, d[k] = a[k] - r[k];
    }
    double dm = median(d, rounds);
    printf("PAIRED args=%d aot_us=%.3f raw_us=%.3f diff_us=%+.3f rounds=%d launches=%d\n", nargs, median(a, rounds),
           median(r, rounds), dm, rounds, launches);
    fflush(stdout);
  }
  free(a);
  return 0;
}
