/* check.h - the CHECK macro of the C unit tests: a failed condition is
 * printed with its file and line and counted; the test's main returns 1
 * when `failures` is not zero (and may print `checks`, the number made). */
#ifndef KJIT_TESTS_CHECK_H
#define KJIT_TESTS_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond)                                                            \
  do {                                                                         \
    checks++;                                                                  \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#endif
