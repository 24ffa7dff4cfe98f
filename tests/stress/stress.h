/* stress.h - small helpers shared by the embed stress programs
 * (embed_cycles.c, embed_threads.c): the target from the command line or
 * KJIT_STRESS_TARGET, memory figures from /proc/self/status, and a
 * temporary disk-cache directory that is removed at the end.
 *
 * Header-only on purpose: the programs are written against kjit.h alone,
 * as a host application would be, and link nothing else of kjit. */
#ifndef KJIT_TESTS_STRESS_H
#define KJIT_TESTS_STRESS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* mkdtemp, nftw: define it before any header */
#endif
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kjit.h>

/* "cpu", "cuda" or "auto" -> kjit_target; -1 for anything else. */
static int stress_parse_target(const char *s) {
  if (!s || !*s || strcmp(s, "cpu") == 0)
    return KJIT_TARGET_CPU;
  if (strcmp(s, "cuda") == 0)
    return KJIT_TARGET_CUDA;
  if (strcmp(s, "auto") == 0)
    return KJIT_TARGET_AUTO;
  return -1;
}

/* A field of /proc/self/status in KiB ("VmRSS", "VmHWM"); -1 if absent. */
static long stress_status_kib(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  char line[256];
  long v = -1;
  size_t n = strlen(field);
  while (fgets(line, sizeof line, f))
    if (strncmp(line, field, n) == 0 && line[n] == ':') {
      v = strtol(line + n + 1, NULL, 10);
      break;
    }
  fclose(f);
  return v;
}

static double stress_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A fresh directory under $TMPDIR (else P_tmpdir) for the disk cache, so runs
 * start cold and leave the user's cache alone.  Returns 0 or -1. */
static int stress_make_cache_dir(char *buf, size_t len) {
  const char *tmp = getenv("TMPDIR");
  snprintf(buf, len, "%s/kjit-stress-XXXXXX", tmp && *tmp ? tmp : P_tmpdir);
  return mkdtemp(buf) ? 0 : -1;
}

static int stress_remove_one(const char *path, const struct stat *st, int flag,
                             struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

/* Removes the cache directory and everything in it. */
static void stress_remove_tree(const char *dir) {
  nftw(dir, stress_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
