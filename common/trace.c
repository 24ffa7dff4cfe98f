/* trace.c - the KJIT_TRACE event lines (see trace.h). */
#include "common/trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int trace_on; /* set when the library loads (common/settings.c), read-only after */
static struct timespec trace_t0; /* when tracing was turned on: the library's load */

void trace_enable(int on) {
  trace_on = on;
  clock_gettime(CLOCK_MONOTONIC, &trace_t0);
}

void trace_event(const char *fmt, ...) {
  if (!trace_on)
    return;
  char line[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  double ms = (double)(t.tv_sec - trace_t0.tv_sec) * 1e3 + (double)(t.tv_nsec - trace_t0.tv_nsec) / 1e6;
  fprintf(stderr, "kjit: trace: %8.3f ms %s\n", ms, line); /* one call: lines stay whole */
}
