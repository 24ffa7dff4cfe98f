/* trace.c - the KJIT_TRACE event lines (see trace.h). */
#include "common/trace.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t trace_once = PTHREAD_ONCE_INIT;
static int trace_on;                   /* set once, read-only afterwards */

static void read_setting(void) {
  const char *v = getenv("KJIT_TRACE");
  trace_on = v && strcmp(v, "1") == 0;
}

void trace_event(const char *fmt, ...) {
  pthread_once(&trace_once, read_setting);
  if (!trace_on)
    return;
  char line[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "kjit: trace: %s\n", line);   /* one call: lines stay whole */
}
