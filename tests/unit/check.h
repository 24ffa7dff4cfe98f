/* check.h - the CHECK family of the C unit tests.  A failed check is
 * printed with its file and line and counted in `failures`; `checks`
 * counts every check made.  Each test's main returns 1 when `failures` is
 * not zero (and may print the counts).
 *   CHECK(cond)               the condition
 *   CHECK(cond, fmt, ...)     the condition, and a printf message on failure
 *   CHECK_STR(got, want)      two strings equal, both printed on failure
 *   CHECK_STATUS(expr, want)  a kjit_status (with <kjit.h> included before;
 *                             a `ctx` in scope, or NULL, gives the last error) */
#ifndef KJIT_TESTS_CHECK_H
#define KJIT_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int failures, checks;

/* "FILE:LINE: check failed: COND[: MESSAGE]" (fmt NULL: no message). */
static inline void check_failed_(const char *file, int line, const char *cond, const char *fmt, ...) {
  fprintf(stderr, "%s:%d: check failed: %s", file, line, cond);
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    fputs(": ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
  }
  fputc('\n', stderr);
}

/* The trailing null pointer ends the message: CHECK(c) passes no format. */
#define CHECK(...) CHECK_AT_(__FILE__, __LINE__, __VA_ARGS__, (const char *)0)
#define CHECK_AT_(file, line, cond, ...)                                       \
  do {                                                                         \
    checks++;                                                                  \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      check_failed_(file, line, #cond, __VA_ARGS__);                           \
    }                                                                          \
  } while (0)

#define CHECK_STR(got, want)                                                   \
  do {                                                                         \
    checks++;                                                                  \
    if (strcmp((got), (want)) != 0) {                                         \
      fprintf(stderr, "%s:%d: got  \"%s\"\n%*swant \"%s\"\n", __FILE__, __LINE__, (got), \
              (int)strlen(__FILE__) + 8, "", (want));                          \
      failures++;                                                              \
    }                                                                          \
  } while (0)

#ifdef KJIT_H
#define CHECK_STATUS(expr, want)                                               \
  do {                                                                         \
    kjit_status got_ = (expr);                                                 \
    checks++;                                                                  \
    if (got_ != (want)) {                                                      \
      failures++;                                                              \
      fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__,        \
              __LINE__, #expr, kjit_status_name(got_), kjit_status_name(want)); \
      if (ctx)                                                                 \
        fprintf(stderr, "  last error: %s\n", kjit_last_error(ctx));           \
    }                                                                          \
  } while (0)
#endif

#endif
