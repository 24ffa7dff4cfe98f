/* aot_launch.c - launch overhead of kjit aot's generated launchers: the
 * tiny kernels of bench/gpu/kernels/launch_overhead.py through the library
 * `kjit aot` makes of that file (bench/run_aot.sh builds it), timed with
 * raw_launch.c's loop: 100 warm-up launches, then the best of 3 batches of
 * LAUNCHES back-to-back launches of 1 block x 32 threads on the default
 * stream and a synchronize; microseconds per launch.
 *
 * Output (as raw_launch.c's, for report lines side by side):
 *   OVERHEAD impl=aot args=K us_per_launch=U launches=L */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "launch_overhead.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int check(launch_overhead_status st) {
  if (st != launch_overhead_OK) {
    fprintf(stderr, "aot_launch: %s\n", launch_overhead_last_error());
    exit(1);
  }
  return 0;
}

int main(int argc, char **argv) {
  int launches = argc > 1 ? atoi(argv[1]) : 10000;
  if (launches < 1)
    launches = 1;
  check(launch_overhead_select_target(launch_overhead_TARGET_CUDA));
  void *p[4];
  launch_overhead_f32_1d a[4];
  for (int i = 0; i < 4; i++) {
    check(launch_overhead_malloc(&p[i], 32 * sizeof(float)));
    a[i] = launch_overhead_f32_1d_c((float *)p[i], 32);
  }
  launch_overhead_config cfg = {{1, 1, 1}, {32, 1, 1}, 0, NULL};
  for (int nargs = 1; nargs <= 4; nargs += 3) {
    for (int i = 0; i < 100; i++)
      check(nargs == 1 ? launch_overhead_tiny1(&cfg, a[0]) : launch_overhead_tiny4(&cfg, a[0], a[1], a[2], a[3]));
    check(launch_overhead_synchronize(NULL));
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
      double t = now_ms();
      if (nargs == 1)
        for (int i = 0; i < launches; i++)
          check(launch_overhead_tiny1(&cfg, a[0]));
      else
        for (int i = 0; i < launches; i++)
          check(launch_overhead_tiny4(&cfg, a[0], a[1], a[2], a[3]));
      check(launch_overhead_synchronize(NULL));
      double us = (now_ms() - t) * 1e3 / launches;
      best = us < best ? us : best;
    }
    printf("OVERHEAD impl=aot args=%d us_per_launch=%.3f launches=%d\n", nargs, best, launches);
    fflush(stdout);
  }
  return 0;
}
