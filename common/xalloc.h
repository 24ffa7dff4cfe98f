/* xalloc.h - checked host allocation.  The library's policy for a host
 * out-of-memory is LLVM's: print one line, "kjit: out of memory (N
 * bytes)", and abort(); it is never the answer to user input, and code
 * that can fail softly (a cache, a degraded analysis) keeps plain malloc
 * and its own check.  These never return NULL. */
#ifndef KJIT_COMMON_XALLOC_H
#define KJIT_COMMON_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

#endif
