/* arena.c - bump allocator backing one compilation.
 *
 * Chunks are malloc'ed blocks linked newest-first; a request larger than the
 * default chunk gets a chunk of its own.  Nothing is freed individually:
 * arena_destroy releases every chunk at once. */
#include "common/arena.h"
#include "common/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CHUNK_SIZE (64 * 1024)
#define ALIGN 16

struct ArenaChunk {
  ArenaChunk *next; /* older chunk */
  size_t used, cap; /* bytes used / available in data */
  _Alignas(16) unsigned char data[];
};

void arena_init(Arena *a) {
  a->head = NULL;
  a->total = 0;
}

void arena_destroy(Arena *a) {
  ArenaChunk *c = a->head;
  while (c) {
    ArenaChunk *next = c->next;
    free(c);
    c = next;
  }
  a->head = NULL;
  a->total = 0;
}

static ArenaChunk *new_chunk(Arena *a, size_t need) {
  size_t cap = need > CHUNK_SIZE ? need : CHUNK_SIZE;
  ArenaChunk *c = xmalloc(sizeof(ArenaChunk) + cap);
  c->used = 0;
  c->cap = cap;
  c->next = a->head;
  a->head = c;
  return c;
}

static size_t rounded(size_t size) {
  size_t n = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
  return n ? n : ALIGN;
}

/* n bytes (a multiple of ALIGN), not cleared. */
static void *take(Arena *a, size_t n) {
  ArenaChunk *c = a->head;
  if (!c || c->cap - c->used < n)
    c = new_chunk(a, n);
  void *p = c->data + c->used;
  c->used += n;
  a->total += n;
  return p;
}

void *arena_alloc(Arena *a, size_t size) {
  size_t n = rounded(size);
  void *p = take(a, n);
  memset(p, 0, n);
  return p;
}

/* The bytes past `old` are zeroed.  The newest allocation of the newest
 * chunk grows where it is when the chunk has room (a vector being filled
 * is usually that); else the block moves and the old one is abandoned.
 * Only the new part is cleared: clearing whole doubled vectors was a
 * fifth of a warm compile's time. */
void *arena_realloc(Arena *a, void *p, size_t old, size_t size) {
  if (size <= old)
    return p;
  size_t n = rounded(size), had = rounded(old);
  ArenaChunk *c = a->head;
  if (p && old && c && (unsigned char *)p + had == c->data + c->used && c->cap - c->used >= n - had) {
    c->used += n - had;
    a->total += n - had;
    memset((unsigned char *)p + old, 0, n - old);
    return p;
  }
  unsigned char *q = take(a, n);
  if (p && old)
    memcpy(q, p, old);
  memset(q + old, 0, n - old);
  return q;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *arena_strdup(Arena *a, const char *s) {
  return arena_strndup(a, s, strlen(s));
}

/* Short texts (names, most messages) are formatted once, on the stack. */
char *arena_vprintf(Arena *a, const char *fmt, va_list ap) {
  char buf[256];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(buf, sizeof buf, fmt, ap2);
  va_end(ap2);
  if (n < 0)
    n = 0;
  if ((size_t)n < sizeof buf)
    return arena_strndup(a, buf, (size_t)n);
  char *p = arena_alloc(a, (size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  return p;
}

char *arena_printf(Arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *p = arena_vprintf(a, fmt, ap);
  va_end(ap);
  return p;
}
