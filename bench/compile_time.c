/* compile_time.c - in-process source -> PTX compile time through the C API.
 *
 * For each kernel file: one warm-up compile (reported as "first": it pays
 * for initialising LLVM's NVPTX target and loading libdevice), then N timed
 * runs, each a fresh kjit_program_load_file + kjit_program_emit(PTX) +
 * kjit_program_destroy on one context.  Prints median and min per file.
 *
 *   compile_time [-n RUNS] [--arch sm_XX] FILE.py...  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kjit.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One load + compile + destroy; returns milliseconds or -1 on error. */
static double compile_once(kjit_context *ctx, const char *path, const char *arch,
                           size_t *ptx_len) {
  kjit_compile_options o;
  kjit_compile_options_init(&o);
  o.arch = arch;
  double t0 = now_ms();
  kjit_program *p = NULL;
  char *ptx = NULL;
  kjit_status st = kjit_program_load_file(ctx, path, &p);
  if (st == KJIT_OK)
    st = kjit_program_emit(p, NULL, NULL, &o, KJIT_EMIT_PTX, &ptx, ptx_len);
  kjit_free(ptx);
  kjit_program_destroy(p);
  double t1 = now_ms();
  if (st != KJIT_OK) {
    fprintf(stderr, "compile_time: %s: %s\n%s", path, kjit_status_name(st),
            kjit_last_error(ctx));
    return -1;
  }
  return t1 - t0;
}

int main(int argc, char **argv) {
  int runs = 20;
  const char *arch = "sm_80";
  int first = 1;
  while (first < argc && argv[first][0] == '-') {
    if (strcmp(argv[first], "-n") == 0 && first + 1 < argc)
      runs = atoi(argv[first + 1]), first += 2;
    else if (strcmp(argv[first], "--arch") == 0 && first + 1 < argc)
      arch = argv[first + 1], first += 2;
    else
      break;
  }
  if (first >= argc || runs < 1) {
    fprintf(stderr, "usage: compile_time [-n RUNS] [--arch sm_XX] FILE.py...\n");
    return 2;
  }
  kjit_context *ctx;
  if (kjit_context_create(NULL, &ctx) != KJIT_OK)
    return 1;
  double *t = malloc(sizeof *t * (size_t)runs);
  int rc = 0;
  printf("in-process source -> PTX (%s, kjit %s, %d runs after 1 warm-up)\n",
         arch, kjit_version(), runs);
  printf("%-28s %10s %10s %10s %9s\n", "kernel file", "first ms", "median ms",
         "min ms", "PTX bytes");
  for (int f = first; f < argc; f++) {
    size_t len = 0;
    double cold = compile_once(ctx, argv[f], arch, &len);
    if (cold < 0) {
      rc = 1;
      continue;
    }
    int ok = 1;
    for (int i = 0; i < runs && ok; i++)
      ok = (t[i] = compile_once(ctx, argv[f], arch, &len)) >= 0;
    if (!ok) {
      rc = 1;
      continue;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    double median = runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
    const char *base = strrchr(argv[f], '/');
    printf("%-28s %10.3f %10.3f %10.3f %9zu\n", base ? base + 1 : argv[f], cold,
           median, t[0], len);
  }
  free(t);
  kjit_context_destroy(ctx);
  return rc;
}
