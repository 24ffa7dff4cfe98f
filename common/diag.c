/* diag.c - the diagnostics list and its rendering.
 *
 * Rendering: "file:line:col: level[E123]: msg" (notes and code 0 without the
 * code), the source line verbatim, a caret line whose padding copies tabs so
 * the caret lines up, then "hint: ...".  Past max_errors entries are dropped
 * and only counted (ndropped).  The codes' table is common/diag_codes.h. */
#include "common/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_ERRORS 100

void diags_init(Diags *d, Arena *arena) {
  memset(d, 0, sizeof *d);
  d->arena = arena;
}

enum { MAX_MESSAGE = 1024 }; /* bytes of one message or hint */

/* Messages echo user text (names, values, paths): past MAX_MESSAGE bytes
 * the text is cut at a UTF-8 boundary with a note, so a 1 MB identifier or
 * kernel name gives a readable line, not a 1 MB one. */
static const char *capped(Arena *a, const char *s) {
  size_t n = s ? strlen(s) : 0;
  if (n <= MAX_MESSAGE)
    return s;
  size_t keep = MAX_MESSAGE - 64;
  while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
    keep--;
  return arena_printf(a, "%.*s... (%zu more bytes not shown)", (int)keep, s, n - keep);
}

static bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Two imported files that would have the same module name are kept apart
 * by a "$N" suffix on one ("util$2", or "$2" for the second unnamed
 * top-level package): an internal name, never shown.  Every message drops
 * the marker, and the dot after one that stands alone ("$2.vec3.f" reads
 * "vec3.f", "util$2.f" reads "util.f"), so the module reads as the user
 * wrote it whichever stage printed the name. */
static const char *without_module_marks(Arena *a, const char *s) {
  if (!s || !strchr(s, '$'))
    return s;
  char *out = arena_strdup(a, s), *w = out;
  for (const char *r = s; *r;) {
    const char *e = r + 1;
    while (*r == '$' && *e >= '0' && *e <= '9')
      e++;
    if (*r != '$' || e == r + 1 || ident_char(*e)) {
      *w++ = *r++;
      continue;
    }
    bool alone = r == s || !ident_char(r[-1]);
    r = alone && *e == '.' ? e + 1 : e;
  }
  *w = '\0';
  return out;
}

Diag *diag_add(Diags *d, DiagLevel level, int code, SrcLoc loc,
               const char *hint, const char *fmt, ...) {
  int max = d->max_errors > 0 ? d->max_errors : DEFAULT_MAX_ERRORS;
  Diag g = {level, code, loc, NULL, hint ? arena_strdup(d->arena, hint) : NULL};
  va_list ap;
  va_start(ap, fmt);
  g.msg = capped(d->arena, without_module_marks(d->arena, arena_vprintf(d->arena, fmt, ap)));
  va_end(ap);
  g.hint = capped(d->arena, without_module_marks(d->arena, g.hint));
  if (level == DL_ERROR)
    d->nerrors++;
  if (d->list.len >= max) {
    d->ndropped++;
    Diag *scratch = arena_alloc(d->arena, sizeof *scratch); /* caller may write to it */
    *scratch = g;
    return scratch;
  }
  vec_push(d->arena, &d->list, g);
  return &d->list.data[d->list.len - 1];
}

static const char *level_name(DiagLevel l) {
  switch (l) {
  case DL_ERROR: return "error";
  case DL_WARNING: return "warning";
  case DL_NOTE: return "note";
  }
  return "error";
}

/* "error[E412]", "warning[E203]", "note": the level and, except for notes,
 * the code in kjit's three-digit numbering. */
static void put_level(const Diag *g, StrBuf *sb) {
  if (g->level == DL_NOTE || g->code <= 0)
    sb_printf(sb, "%s", level_name(g->level));
  else
    sb_printf(sb, "%s[E%03d]", level_name(g->level), g->code);
}

/* ------------------------------------------------------- the code table */

bool diag_code_status(int code, DiagStatus *out) {
  switch (code) {  /* a number twice in the table is a duplicate case here */
#define X(name, num, status, summary) case num: *out = DS_##status; return true;
  DIAG_CODES(X)
#undef X
  }
  return false;
}

const char *diag_code_name(int code) {
  switch (code) {
#define X(name, num, status, summary) case num: return #name;
  DIAG_CODES(X)
#undef X
  }
  return NULL;
}

const char *diag_code_summary(int code) {
  switch (code) {
#define X(name, num, status, summary) case num: return summary;
  DIAG_CODES(X)
#undef X
  }
  return NULL;
}

/* Find the start of 1-based line `line`; lone '\r', "\r\n" and '\n' end lines
 * exactly as the tokenizer counts them.  Returns NULL past the end. */
static const char *find_line(const Source *src, int line, size_t *outlen) {
  const char *s = src->text, *end = src->text + src->len;
  for (int l = 1; l < line; l++) {
    while (s < end && *s != '\n' && *s != '\r')
      s++;
    if (s == end)
      return NULL;
    if (*s == '\r' && s + 1 < end && s[1] == '\n')
      s++;
    s++;
  }
  const char *e = s;
  while (e < end && *e != '\n' && *e != '\r')
    e++;
  *outlen = (size_t)(e - s);
  return s;
}

static void render_caret(const char *line, size_t linelen, SrcLoc loc, StrBuf *sb) {
  size_t col = loc.col > 0 ? (size_t)loc.col - 1 : 0;
  for (size_t i = 0; i < col; i++) {
    unsigned char c = i < linelen ? (unsigned char)line[i] : ' ';
    if (c == '\t')
      sb_putc(sb, '\t');
    else if ((c & 0xC0) != 0x80) /* one column per UTF-8 character */
      sb_putc(sb, ' ');
  }
  sb_putc(sb, '^');
  int len = loc.len;
  if (col + (size_t)len > linelen)
    len = linelen > col ? (int)(linelen - col) : 1;
  for (int i = 1; i < len; i++)
    sb_putc(sb, '~');
  sb_putc(sb, '\n');
}

/* The source line and its caret.  A line longer than ECHO_MAX bytes (a
 * generated file, a minified one: 10 MB on one line) is shown as a window
 * of ECHO_MAX bytes around the caret, with "..." where it is cut, so an
 * error never echoes more than a few hundred bytes. */
enum { ECHO_MAX = 160, ECHO_BEFORE = 60 };

/* Line bytes as they are, but a NUL byte (an error of its own) as U+2400
 * SYMBOL FOR NULL, one column wide: the rendered text ends at no NUL. */
static void put_line(StrBuf *sb, const char *p, size_t n) {
  for (const char *e = p + n, *q; p < e; p = q + 1) {
    q = memchr(p, '\0', (size_t)(e - p));
    if (!q) {
      sb_putn(sb, p, (size_t)(e - p));
      return;
    }
    sb_putn(sb, p, (size_t)(q - p));
    sb_puts(sb, "\xe2\x90\x80");
  }
}

static void render_line(const char *line, size_t linelen, SrcLoc loc, StrBuf *sb) {
  size_t col = loc.col > 0 ? (size_t)loc.col - 1 : 0;
  if (linelen <= ECHO_MAX) {
    put_line(sb, line, linelen);
    sb_putc(sb, '\n');
    render_caret(line, linelen, loc, sb);
    return;
  }
  size_t start = col > ECHO_BEFORE ? col - ECHO_BEFORE : 0;
  while (start > 0 && ((unsigned char)line[start] & 0xC0) == 0x80)
    start--;                               /* cut at a character boundary */
  size_t end = start + ECHO_MAX < linelen ? start + ECHO_MAX : linelen;
  while (end < linelen && ((unsigned char)line[end] & 0xC0) == 0x80)
    end++;
  const char *pre = start ? "..." : "";
  sb_printf(sb, "%s", pre);
  put_line(sb, line + start, end - start);
  sb_printf(sb, "%s\n", end < linelen ? "..." : "");
  SrcLoc w = loc;                           /* the caret within the window */
  w.col = (int)(col - start + strlen(pre) + 1);
  if ((size_t)w.len > end - col)
    w.len = (int)(end > col ? end - col : 1);
  char *shown = malloc(strlen(pre) + (end - start) + 1);
  if (!shown)
    return;
  memcpy(shown, pre, strlen(pre));
  memcpy(shown + strlen(pre), line + start, end - start);
  render_caret(shown, strlen(pre) + (end - start), w, sb);
  free(shown);
}

void diag_render(const Diag *g, StrBuf *sb) {
  if (!g->loc.src) {
    sb_printf(sb, "kjit: ");
    put_level(g, sb);
    sb_printf(sb, ": %s\n", g->msg);
  } else {
    sb_printf(sb, "%s:%d:%d: ", g->loc.src->path, g->loc.line, g->loc.col);
    put_level(g, sb);
    sb_printf(sb, ": %s\n", g->msg);
    size_t linelen = 0;
    const char *line = find_line(g->loc.src, g->loc.line, &linelen);
    if (line)
      render_line(line, linelen, g->loc, sb);
  }
  if (g->hint)
    sb_printf(sb, "hint: %s\n", g->hint);
}

void diags_render(const Diags *d, StrBuf *sb) {
  for (int i = 0; i < d->list.len; i++)
    diag_render(&d->list.data[i], sb);
}

const char *loc_text(Arena *a, SrcLoc loc, bool to_eol) {
  size_t linelen;
  const char *line = loc.src && loc.line > 0 ? find_line(loc.src, loc.line, &linelen) : NULL;
  size_t col = loc.col > 0 ? (size_t)loc.col - 1 : 0;
  if (!line || col > linelen)
    return NULL;
  size_t n = to_eol || loc.len <= 0 ? linelen - col : (size_t)loc.len;
  if (n > linelen - col)
    n = linelen - col;
  return arena_strndup(a, line + col, n);
}

SrcLoc loc_span(SrcLoc a, SrcLoc b) {
  if (a.src != b.src || a.line != b.line || b.col + b.len <= a.col)
    return a;
  a.len = b.col + b.len - a.col;
  return a;
}
