/* trace.c - the KJIT_TRACE event lines (see trace.h). */
#include "common/trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int trace_on; /* set when the library loads (runtime/settings.c), read-only after */

void trace_enable(int on) { trace_on = on; }

void trace_event(const char *fmt, ...) {
  if (!trace_on)
    return;
  char line[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "kjit: trace: %s\n", line);   /* one call: lines stay whole */
}
