/* arena.h - bump allocator and growable vectors for one compilation.
 *
 * Every stage of a compile (tokens, AST, IR, types, diagnostic text) allocates
 * from one Arena; arena_destroy frees it all at once.  Invariant: nothing
 * allocated from an arena outlives it, so results handed to the caller are
 * copied out with malloc first. */
#ifndef KJIT_COMMON_ARENA_H
#define KJIT_COMMON_ARENA_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
  ArenaChunk *head; /* newest chunk; allocation happens at its end */
  size_t total;     /* bytes handed out, for statistics */
} Arena;

void arena_init(Arena *a);
void arena_destroy(Arena *a);
void *arena_alloc(Arena *a, size_t size);           /* zeroed, 16-byte aligned */
void *arena_realloc(Arena *a, void *p, size_t old, size_t size);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *arena_vprintf(Arena *a, const char *fmt, va_list ap);

/* Vec(T): a growable array living in an arena.  Grows by doubling; the old
 * storage is simply abandoned to the arena. */
#define Vec(T) struct { T *data; int len, cap; }
#define vec_push(arena, v, x)                                                 \
  do {                                                                        \
    if ((v)->len == (v)->cap) {                                               \
      int ncap_ = (v)->cap ? (v)->cap * 2 : 8;                                \
      (v)->data = arena_realloc((arena), (v)->data,                           \
                                sizeof(*(v)->data) * (size_t)(v)->cap,         \
                                sizeof(*(v)->data) * (size_t)ncap_);           \
      (v)->cap = ncap_;                                                       \
    }                                                                         \
    (v)->data[(v)->len++] = (x);                                              \
  } while (0)

#endif
