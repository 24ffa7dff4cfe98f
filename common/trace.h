/* trace.h - KJIT_TRACE=1: one stderr line per costly one-time event (a
 * library dlopen'd, libdevice read, a cache hit or miss, a codegen or a
 * link), so a test can show what a run loads and what it skips, and a
 * person where a first run's time goes.
 *
 * Off by default: then trace_event costs one load of a flag.  The variable is
 * read once per process, when libkjit loads, by common/settings.c (common/
 * sits below runtime/ and reads no environment itself). */
#ifndef KJIT_COMMON_TRACE_H
#define KJIT_COMMON_TRACE_H

/* Turns the event lines on or off (common/settings.c, from KJIT_TRACE). */
void trace_enable(int on);
/* Prints "kjit: trace: ", the milliseconds since libkjit loaded and the
 * formatted text, when KJIT_TRACE is 1. */
void trace_event(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
