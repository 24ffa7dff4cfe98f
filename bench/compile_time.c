/* compile_time.c - in-process source -> PTX compile time through the C API,
 * and the cost of whole processes.
 *
 * For each kernel file: one warm-up compile (reported as "first": it pays
 * for initialising LLVM's NVPTX target and loading libdevice), then N timed
 * runs, each a fresh kjit_program_load_file + kjit_program_emit(PTX) +
 * kjit_program_destroy on one context.  Prints the median and min of the
 * wall time and of the process's CPU time per file: on a loaded machine the
 * minimum CPU time is the steady figure (other work only adds to it).
 *
 * With --spawn, runs the command N times as fresh processes (after one
 * warm-up run) and prints the median and min of the wall time and of the
 * child's CPU time (user + system, from wait4), under the given label.
 *
 *   compile_time [-n RUNS] [--arch sm_XX] FILE.py...
 *   compile_time [-n RUNS] --spawn LABEL CMD [ARGS...]  */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kjit.h"

typedef struct Sample {
  double wall, cpu; /* milliseconds */
} Sample;

static double clock_ms(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median and min of n values (sorts v). */
static void stats(double *v, int n, double *median, double *min) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  *median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  *min = v[0];
}

/* Prints median/min wall then median/min CPU of n samples. */
static void print_stats(const Sample *s, int n) {
  double *v = malloc(sizeof *v * (size_t)n), med, min;
  for (int i = 0; i < n; i++)
    v[i] = s[i].wall;
  stats(v, n, &med, &min);
  printf(" %10.3f %10.3f", med, min);
  for (int i = 0; i < n; i++)
    v[i] = s[i].cpu;
  stats(v, n, &med, &min);
  printf(" %10.3f %10.3f", med, min);
  free(v);
}

/* One load + compile + destroy; false on error. */
static bool compile_once(kjit_context *ctx, const char *path, const char *arch, size_t *ptx_len,
                         Sample *s) {
  kjit_compile_options o;
  kjit_compile_options_init(&o);
  o.arch = arch;
  double w0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
  kjit_program *p = NULL;
  char *ptx = NULL;
  kjit_status st = kjit_program_load_file(ctx, path, &p);
  if (st == KJIT_OK)
    st = kjit_program_emit(p, NULL, NULL, &o, KJIT_EMIT_PTX, &ptx, ptx_len);
  kjit_free(ptx);
  kjit_program_destroy(p);
  s->wall = clock_ms(CLOCK_MONOTONIC) - w0;
  s->cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
  if (st != KJIT_OK)
    fprintf(stderr, "compile_time: %s: %s\n%s", path, kjit_status_name(st), kjit_last_error(ctx));
  return st == KJIT_OK;
}

static int in_process(int runs, const char *arch, char **files, int nfiles) {
  kjit_context *ctx;
  if (kjit_context_create(NULL, &ctx) != KJIT_OK)
    return 1;
  Sample *t = malloc(sizeof *t * (size_t)runs);
  int rc = 0;
  printf("in-process source -> PTX (%s, kjit %s, %d runs after 1 warm-up; ms)\n", arch, kjit_version(), runs);
  printf("%-24s %10s %10s %10s %10s %10s %9s\n", "kernel file", "first", "wall med", "wall min",
         "CPU med", "CPU min", "PTX bytes");
  for (int f = 0; f < nfiles; f++) {
    size_t len = 0;
    Sample cold;
    bool ok = compile_once(ctx, files[f], arch, &len, &cold);
    for (int i = 0; i < runs && ok; i++)
      ok = compile_once(ctx, files[f], arch, &len, &t[i]);
    if (!ok) {
      rc = 1;
      continue;
    }
    const char *base = strrchr(files[f], '/');
    printf("%-24s %10.3f", base ? base + 1 : files[f], cold.wall);
    print_stats(t, runs);
    printf(" %9zu\n", len);
  }
  free(t);
  kjit_context_destroy(ctx);
  return rc;
}

/* One fresh process of argv (stdout to /dev/null); false if it fails. */
static bool spawn_once(char **argv, Sample *s) {
  double w0 = clock_ms(CLOCK_MONOTONIC);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0)
      dup2(fd, 1);
    execvp(argv[0], argv);
    _exit(127);
  }
  int status;
  struct rusage ru;
  if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
    return false;
  s->wall = clock_ms(CLOCK_MONOTONIC) - w0;
  s->cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int spawn(int runs, const char *label, char **argv) {
  Sample *t = malloc(sizeof *t * (size_t)(runs + 1));
  bool ok = true;
  for (int i = 0; i <= runs && ok; i++) /* run 0 warms the page cache */
    ok = spawn_once(argv, &t[i > 0 ? i - 1 : 0]);
  if (!ok) {
    fprintf(stderr, "compile_time: %s failed\n", argv[0]);
    free(t);
    return 1;
  }
  printf("%-40s", label);
  print_stats(t, runs);
  printf("\n");
  free(t);
  return 0;
}

int main(int argc, char **argv) {
  int runs = 20;
  const char *arch = "sm_80", *label = NULL;
  int first = 1;
  while (first < argc && argv[first][0] == '-') {
    if (strcmp(argv[first], "-n") == 0 && first + 1 < argc)
      runs = atoi(argv[first + 1]), first += 2;
    else if (strcmp(argv[first], "--arch") == 0 && first + 1 < argc)
      arch = argv[first + 1], first += 2;
    else if (strcmp(argv[first], "--spawn") == 0 && first + 1 < argc)
      label = argv[first + 1], first += 2;
    else
      break;
  }
  if (first >= argc || runs < 1) {
    fprintf(stderr, "usage: compile_time [-n RUNS] [--arch sm_XX] FILE.py...\n"
                    "       compile_time [-n RUNS] --spawn LABEL CMD [ARGS...]\n");
    return 2;
  }
  if (label)
    return spawn(runs, label, argv + first);
  return in_process(runs, arch, argv + first, argc - first);
}
