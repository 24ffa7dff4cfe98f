/* strbuf.h - malloc-backed growable string, used to build text output
 * (IR dumps, rendered diagnostics, PTX) whose lifetime outlives an arena. */
#ifndef KJIT_COMMON_STRBUF_H
#define KJIT_COMMON_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct StrBuf {
  char *data; /* always NUL-terminated once anything was appended */
  size_t len, cap;
} StrBuf;

void sb_init(StrBuf *sb);
void sb_free(StrBuf *sb);
void sb_putc(StrBuf *sb, char c);
void sb_puts(StrBuf *sb, const char *s);
void sb_putn(StrBuf *sb, const char *s, size_t n);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap);
void sb_putint(StrBuf *sb, long long v); /* decimal, as "%lld" */
char *sb_take(StrBuf *sb); /* hands ownership of the text to the caller (free) */

#endif
