/* strbuf.c - malloc-backed growable string.
 *
 * The buffer is always NUL-terminated after the first append, so data can
 * be handed to printf-style consumers directly; sb_take transfers it. */
#include "common/strbuf.h"
#include "common/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(StrBuf *sb) {
  sb->data = NULL;
  sb->len = sb->cap = 0;
}

void sb_free(StrBuf *sb) {
  free(sb->data);
  sb_init(sb);
}

static void reserve(StrBuf *sb, size_t extra) {
  if (sb->len + extra + 1 <= sb->cap)
    return;
  size_t cap = sb->cap ? sb->cap : 64;
  while (cap < sb->len + extra + 1)
    cap *= 2;
  sb->data = xrealloc(sb->data, cap);
  sb->cap = cap;
}

void sb_putn(StrBuf *sb, const char *s, size_t n) {
  reserve(sb, n);
  if (n)
    memcpy(sb->data + sb->len, s, n);
  sb->len += n;
  sb->data[sb->len] = '\0';
}

void sb_putc(StrBuf *sb, char c) { sb_putn(sb, &c, 1); }
void sb_puts(StrBuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }

/* Formats into the room already there first (one vsnprintf in the common
 * case), and only when the text is longer grows and formats again. */
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap) {
  reserve(sb, 64);
  va_list ap2;
  va_copy(ap2, ap);
  size_t room = sb->cap - sb->len;
  int n = vsnprintf(sb->data + sb->len, room, fmt, ap2);
  va_end(ap2);
  if (n <= 0) {
    sb->data[sb->len] = '\0';
    return;
  }
  if ((size_t)n >= room) {
    reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
  }
  sb->len += (size_t)n;
}

void sb_putint(StrBuf *sb, long long v) {
  char tmp[24], *end = tmp + sizeof tmp, *p = end;
  unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
  do
    *--p = (char)('0' + u % 10);
  while (u /= 10);
  if (v < 0)
    *--p = '-';
  sb_putn(sb, p, (size_t)(end - p));
}

void sb_printf(StrBuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(sb, fmt, ap);
  va_end(ap);
}

char *sb_take(StrBuf *sb) {
  if (!sb->data)
    reserve(sb, 0), sb->data[0] = '\0';
  char *p = sb->data;
  sb_init(sb);
  return p;
}
