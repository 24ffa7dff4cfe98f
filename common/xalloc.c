/* xalloc.c - the checked allocators of common/xalloc.h: each returns the
 * memory or ends the process with one line on stderr (as LLVM's
 * report_bad_alloc_error does), so callers need no NULL path.  A request
 * of 0 bytes asks for 1, so the result is always a distinct pointer. */
#include "common/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t bytes) {
  fprintf(stderr, "kjit: out of memory (%zu bytes)\n", bytes);
  abort(); /* allocation failure is not user input; there is no recovery */
}

void *xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    out_of_memory(size);
  return p;
}

void *xcalloc(size_t n, size_t size) {
  if (size && n > (size_t)-1 / size)
    out_of_memory((size_t)-1);
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    out_of_memory(n * size);
  return p;
}

void *xrealloc(void *old, size_t size) {
  void *p = realloc(old, size ? size : 1);
  if (!p)
    out_of_memory(size);
  return p;
}

char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}
