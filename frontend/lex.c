/* lex.c - tokenizer for the whole lexical structure of Python 3.12.
 *
 * First stage of the frontend: Source text -> Tokens (see token.h).  Works on
 * byte ranges (text may hold invalid UTF-8; a NUL is refused up front) and always advances, so
 * it terminates on any input.  Errors are reported and skipped over; the
 * token array stays well formed (balanced INDENT/DEDENT, final EOF). */
#include "frontend/token.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_FSTRING_NEST 150

typedef struct Bracket {
  char ch;    /* '(' '[' '{' */
  SrcLoc loc;
  int tokidx; /* index of the opening token */
} Bracket;

typedef struct Lexer {
  Arena *arena;
  const Source *src;
  Diags *diags;
  Tokens *out;
  const char *p, *end;
  const char *linestart; /* first byte of the current physical line */
  int line;
  bool atbol;            /* at the start of a logical line, outside brackets */
  Vec(int) indents;      /* indentation stack, tabs to multiples of 8 */
  Vec(int) altindents;   /* the same with tabs as 1 column, to catch tab/space mixes */
  Vec(Bracket) brackets;
  int fdepth;            /* f-string nesting depth */
} Lexer;

typedef enum StrStatus { STR_OK, STR_EOF, STR_EOL, STR_FIELD } StrStatus; /* FIELD: '{' not closed */

static const char *const keywords[] = {
    "False", "None",  "True",  "and",      "as",       "assert", "async",
    "await", "break", "class", "continue", "def",      "del",    "elif",
    "else",  "except", "finally", "for",   "from",     "global", "if",
    "import", "in",   "is",    "lambda",   "nonlocal", "not",    "or",
    "pass",  "raise", "return", "try",     "while",    "with",   "yield",
};

bool lex_is_keyword(const char *s, size_t n) {
  for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
    if (strlen(keywords[i]) == n && memcmp(keywords[i], s, n) == 0)
      return true;
  return false;
}

/* ---- locations and errors ---- */

static SrcLoc loc_at(Lexer *L, const char *s, int len) {
  SrcLoc loc = {L->src, L->line, (int)(s - L->linestart) + 1, len > 0 ? len : 1};
  return loc;
}

static void mark_errline(Lexer *L, int line) {
  vec_push(L->arena, &L->out->errlines, line);
}

#define lex_error(L, code, loc, hint, ...)                                     \
  do {                                                                         \
    SrcLoc l_ = (loc);                                                         \
    mark_errline((L), l_.line);                                                \
    diag_error((L)->diags, (code), l_, (hint), __VA_ARGS__);                   \
  } while (0)

static bool is_newline_at(Lexer *L, const char *s) {
  return s < L->end && (*s == '\n' || *s == '\r');
}

/* Consume one newline sequence at L->p ("\n", "\r\n" or "\r"). */
static void eat_newline(Lexer *L) {
  if (*L->p == '\r' && L->p + 1 < L->end && L->p[1] == '\n')
    L->p++;
  L->p++;
  L->line++;
  L->linestart = L->p;
}

static Token *emit(Lexer *L, TokenKind kind, SrcLoc loc) {
  Token t = {0};
  t.kind = kind;
  t.loc = loc;
  vec_push(L->arena, L->out, t);
  return &L->out->data[L->out->len - 1];
}

static TokenKind last_kind(Lexer *L) {
  return L->out->len ? L->out->data[L->out->len - 1].kind : TK_NEWLINE;
}

/* ---- characters ---- */

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Length of a valid UTF-8 sequence at s (0 if invalid); *cp gets the code point. */
static int utf8_decode(const char *s, const char *end, uint32_t *cp) {
  const unsigned char *u = (const unsigned char *)s;
  int n = u[0] < 0x80 ? 1 : u[0] >= 0xF0 && u[0] < 0xF5 ? 4 : u[0] >= 0xE0 ? 3 : u[0] >= 0xC2 && u[0] < 0xE0 ? 2 : 0;
  if (n == 0 || end - s < n)
    return 0;
  uint32_t c = n == 1 ? u[0] : (uint32_t)(u[0] & (0x7F >> n));
  for (int i = 1; i < n; i++) {
    if ((u[i] & 0xC0) != 0x80)
      return 0;
    c = (c << 6) | (u[i] & 0x3F);
  }
  if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) || (c >= 0xD800 && c < 0xE000))
    return 0;
  *cp = c;
  return n;
}

/* Non-ASCII code points accepted in identifiers: letters, roughly (not the
 * spaces, punctuation and symbol blocks Python rejects). */
static bool is_ident_cp(uint32_t c) {
  if (c < 0xAA || c == 0xD7 || c == 0xF7 || (c >= 0xAB && c < 0xC0 && c != 0xB5 && c != 0xBA))
    return false;
  if ((c >= 0x2000 && c < 0x2C00) || (c >= 0x3000 && c < 0x3040) || c == 0xFEFF)
    return false;
  return !(c >= 0x1F000 && c < 0x20000);
}

static bool is_ascii_ident(int c, bool first) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && c >= '0' && c <= '9');
}

/* Length of the identifier character at s (0 if none). */
static int ident_char(Lexer *L, const char *s, bool first) {
  if (s >= L->end)
    return 0;
  unsigned char c = (unsigned char)*s;
  if (c < 0x80)
    return is_ascii_ident(c, first) ? 1 : 0;
  uint32_t cp;
  int n = utf8_decode(s, L->end, &cp);
  return n && is_ident_cp(cp) ? n : 0;
}

static const char *scan_ident(Lexer *L, const char *s) {
  int n;
  while ((n = ident_char(L, s, false)) > 0)
    s += n;
  return s;
}

static bool is_digit(Lexer *L, const char *s) {
  return s < L->end && *s >= '0' && *s <= '9';
}

/* ---- strings ---- */

typedef struct StrPrefix {
  bool raw, bytes, fstring, ok;
} StrPrefix;

static StrPrefix parse_prefix(const char *s, size_t n) {
  StrPrefix sp = {0};
  int u = 0;
  if (n > 2)
    return sp;
  for (size_t i = 0; i < n; i++) {
    switch (s[i] | 0x20) {
    case 'r': if (sp.raw) return sp; sp.raw = true; break;
    case 'b': if (sp.bytes) return sp; sp.bytes = true; break;
    case 'f': if (sp.fstring) return sp; sp.fstring = true; break;
    case 'u': u++; break;
    default: return sp;
    }
  }
  sp.ok = !(sp.bytes && sp.fstring) && !(u && n > 1);
  return sp;
}

static bool at_quote(Lexer *L, const char *s) {
  return s < L->end && (*s == '\'' || *s == '"');
}

static bool at_triple(Lexer *L, const char *s, char q) {
  return L->end - s >= 3 && s[0] == q && s[1] == q && s[2] == q;
}

static StrStatus scan_string(Lexer *L, StrPrefix sp);

/* If an (optionally prefixed) string literal starts at L->p, skip it. */
static bool skip_nested_string(Lexer *L, StrStatus *st) {
  const char *q = scan_ident(L, L->p);
  if (!at_quote(L, q))
    return false;
  StrPrefix sp = parse_prefix(L->p, (size_t)(q - L->p));
  if (q != L->p && !sp.ok)
    return false;
  L->p = q;
  *st = scan_string(L, sp);
  return true;
}

static StrStatus scan_fstring_literal(Lexer *L, char q, bool triple, bool raw, bool spec);

/* Skip a replacement field of an f-string; L->p is just after '{'.
 *   field: expression ['=' ] ['!' NAME] [':' format_spec] '}'
 * Python 3.12 lets the expression contain any string, even one using the
 * enclosing quote, so nested literals are skipped recursively. */
static StrStatus scan_fstring_field(Lexer *L, char q, bool triple, bool raw) {
  int depth = 0;
  while (L->p < L->end) {
    char c = *L->p;
    StrStatus st;
    if (skip_nested_string(L, &st)) {
      if (st != STR_OK)
        return st;
    } else if (c == '\n' || c == '\r') {
      if (!triple)
        return STR_EOL;
      eat_newline(L);
    } else if (c == '#') {
      while (L->p < L->end && !is_newline_at(L, L->p))
        L->p++;
    } else if (c == '(' || c == '[' || c == '{') {
      depth++, L->p++;
    } else if ((c == ')' || c == ']') && depth > 0) {
      depth--, L->p++;
    } else if (c == '}') {
      L->p++;
      if (depth-- == 0)
        return STR_OK;
    } else if (c == ':' && depth == 0) {
      L->p++;
      return scan_fstring_literal(L, q, triple, raw, true);
    } else {
      int n = ident_char(L, L->p, true);
      L->p += n > 0 ? n : 1;
      if (n > 0)
        L->p = scan_ident(L, L->p);
    }
  }
  return STR_EOF;
}

/* Skip the literal part of an f-string (or of a format spec when spec: it
 * ends at '}').  Stops after the closing quote(s). */
static StrStatus scan_fstring_literal(Lexer *L, char q, bool triple, bool raw, bool spec) {
  if (++L->fdepth > MAX_FSTRING_NEST) {
    L->fdepth--;
    return STR_EOF;
  }
  StrStatus st = STR_EOF;
  while (L->p < L->end) {
    char c = *L->p;
    if (c == '\\' && L->p + 1 < L->end && L->p[1] != '{' && L->p[1] != '}' && !is_newline_at(L, L->p + 1)) {
      if (!raw && L->p[1] == 'N' && L->p + 2 < L->end && L->p[2] == '{') {
        while (L->p < L->end && *L->p != '}' && !is_newline_at(L, L->p))
          L->p++;
        continue;
      }
      L->p += 2;
    } else if (c == '\\' && L->p + 1 < L->end && is_newline_at(L, L->p + 1)) {
      L->p++;
      eat_newline(L);
    } else if (c == '\n' || c == '\r') {
      if (!triple) { st = STR_EOL; break; }
      eat_newline(L);
    } else if (c == q && (!triple || at_triple(L, L->p, q))) {
      if (spec) { st = STR_FIELD; break; } /* the string ends inside a field */
      L->p += triple ? 3 : 1;
      st = STR_OK;
      break;
    } else if (c == '{' && !(L->p + 1 < L->end && L->p[1] == '{' && !spec)) {
      L->p++;
      if ((st = scan_fstring_field(L, q, triple, raw)) != STR_OK)
        break;
      st = STR_EOF;
    } else if (c == '}' && spec) {
      L->p++;
      st = STR_OK;
      break;
    } else {
      L->p += (c == '{' || c == '}') && L->p + 1 < L->end && L->p[1] == c ? 2 : 1;
    }
  }
  L->fdepth--;
  return st;
}

/* Skip a plain string body; L->p is just after the opening quote(s). */
static StrStatus scan_plain_body(Lexer *L, char q, bool triple) {
  while (L->p < L->end) {
    char c = *L->p;
    if (c == '\\' && L->p + 1 < L->end) {
      L->p++;
      if (is_newline_at(L, L->p))
        eat_newline(L);
      else
        L->p++;
    } else if (c == '\n' || c == '\r') {
      if (!triple)
        return STR_EOL;
      eat_newline(L);
    } else if (c == q && (!triple || at_triple(L, L->p, q))) {
      L->p += triple ? 3 : 1;
      return STR_OK;
    } else {
      L->p++;
    }
  }
  return STR_EOF;
}

/* Skip a string literal; L->p is at its opening quote. */
static StrStatus scan_string(Lexer *L, StrPrefix sp) {
  char q = *L->p;
  bool triple = at_triple(L, L->p, q);
  L->p += triple ? 3 : 1;
  if (sp.fstring)
    return scan_fstring_literal(L, q, triple, sp.raw, false);
  return scan_plain_body(L, q, triple);
}

static void put_utf8(StrBuf *sb, uint32_t c) {
  if (c < 0x80) {
    sb_putc(sb, (char)c);
  } else if (c < 0x800) {
    sb_putc(sb, (char)(0xC0 | (c >> 6)));
    sb_putc(sb, (char)(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    sb_putc(sb, (char)(0xE0 | (c >> 12)));
    sb_putc(sb, (char)(0x80 | ((c >> 6) & 0x3F)));
    sb_putc(sb, (char)(0x80 | (c & 0x3F)));
  } else {
    sb_putc(sb, (char)(0xF0 | (c >> 18)));
    sb_putc(sb, (char)(0x80 | ((c >> 12) & 0x3F)));
    sb_putc(sb, (char)(0x80 | ((c >> 6) & 0x3F)));
    sb_putc(sb, (char)(0x80 | (c & 0x3F)));
  }
}

/* Decode \x, \u, \U with n hex digits at s; returns the digits used or -1. */
static int decode_hex(const char *s, const char *e, int n, uint32_t *out) {
  uint32_t v = 0;
  for (int i = 0; i < n; i++) {
    if (s + i >= e || hexval(s[i]) < 0)
      return -1;
    v = v * 16 + (uint32_t)hexval(s[i]);
  }
  *out = v;
  return n;
}

/* Decode one escape; s points after the backslash.  Returns the new s. */
static const char *decode_escape(Lexer *L, const char *s, const char *e, bool bytes, SrcLoc loc, StrBuf *sb) {
  char c = *s++;
  uint32_t v;
  switch (c) {
  case '\n': return s;
  case '\r': return s < e && *s == '\n' ? s + 1 : s;
  case 'a': sb_putc(sb, '\a'); return s;
  case 'b': sb_putc(sb, '\b'); return s;
  case 'f': sb_putc(sb, '\f'); return s;
  case 'n': sb_putc(sb, '\n'); return s;
  case 'r': sb_putc(sb, '\r'); return s;
  case 't': sb_putc(sb, '\t'); return s;
  case 'v': sb_putc(sb, '\v'); return s;
  case '\\': case '\'': case '"': sb_putc(sb, c); return s;
  case 'x': case 'u': case 'U': {
    int n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
    if (c != 'x' && bytes)
      break;
    if (decode_hex(s, e, n, &v) < 0 || v > 0x10FFFF) {
      lex_error(L, E_BAD_ESCAPE, loc, NULL, "(unicode error) truncated \\%c escape", c);
      return s;
    }
    if (c == 'x' && bytes)
      sb_putc(sb, (char)v);
    else
      put_utf8(sb, v);
    return s + n;
  }
  default:
    if (c >= '0' && c <= '7') {
      v = (uint32_t)(c - '0');
      for (int i = 0; i < 2 && s < e && *s >= '0' && *s <= '7'; i++)
        v = v * 8 + (uint32_t)(*s++ - '0');
      if (bytes)
        sb_putc(sb, (char)v);
      else
        put_utf8(sb, v);
      return s;
    }
  }
  sb_putc(sb, '\\'); /* unknown escapes (and \N{...}) are kept as written */
  sb_putc(sb, c);
  return s;
}

/* Decoded value of the body [s, e); newlines are normalised to '\n'. */
static void decode_body(Lexer *L, Token *t, const char *s, const char *e, StrPrefix sp) {
  StrBuf sb;
  sb_init(&sb);
  while (s < e) {
    if (*s == '\\' && !sp.raw && !sp.fstring && s + 1 < e) {
      s = decode_escape(L, s + 1, e, sp.bytes, t->loc, &sb);
    } else if (*s == '\r') {
      sb_putc(&sb, '\n');
      s += s + 1 < e && s[1] == '\n' ? 2 : 1;
    } else if (*s == '\\' && s + 1 < e) {
      sb_putn(&sb, s, 2); /* raw: backslash and the next char both stay */
      s += 2;
    } else {
      sb_putc(&sb, *s++);
    }
  }
  t->strlen = sb.len;
  t->str = arena_strndup(L->arena, sb.data ? sb.data : "", sb.len);
  sb_free(&sb);
}

/* string: [prefix] (short_string | long_string) */
static void lex_string(Lexer *L, const char *start, StrPrefix sp) {
  SrcLoc loc = loc_at(L, start, 1);
  const char *quote = L->p;
  const char *linestart = L->linestart;
  char q = *quote;
  int qlen = at_triple(L, quote, q) ? 3 : 1;
  StrStatus st = scan_string(L, sp);
  if (st == STR_FIELD) /* f"{x:{y}" : the field is unclosed, the string is not */
    L->p = L->end - L->p > qlen ? L->p + qlen : L->end; /* never past the end (fuzz_parse) */
  const char *bodyend = st == STR_OK ? L->p - qlen : L->p;
  if (L->linestart == linestart) {
    loc.len = (int)(L->p - start);
  } else { /* multi-line: the span stops at the end of the first line */
    const char *e = start;
    while (e < L->end && !is_newline_at(L, e))
      e++;
    loc.len = (int)(e - start);
  }
  if (st != STR_OK) {
    loc.len = 1;
    if (st == STR_FIELD)
      lex_error(L, E_FSTRING, loc, NULL, "f-string: expecting '}'");
    else if (qlen == 3)
      lex_error(L, E_UNTERMINATED_TRIPLE, loc, "close it with three matching quotes",
                "unterminated triple-quoted string literal (detected at line %d)", L->line);
    else if (sp.fstring && L->fdepth == 0 && st == STR_EOF && L->p < L->end)
    {
      lex_error(L, E_FSTRING, loc, NULL, "f-string: expressions nested too deeply");
      while (L->p < L->end && !is_newline_at(L, L->p))
        L->p++; /* the rest of the line is part of the same mess */
    }
    else
      lex_error(L, E_UNTERMINATED_STR, loc, "add the closing quote, or use a triple-quoted string for text spanning lines",
                "unterminated string literal (detected at line %d)", loc.line);
  }
  if (loc.len < 1)
    loc.len = 1;
  Token *t = emit(L, TK_STRING, loc);
  t->raw = sp.raw, t->bytes = sp.bytes, t->fstring = sp.fstring;
  const char *body = quote + qlen > bodyend ? bodyend : quote + qlen;
  decode_body(L, t, body, bodyend, sp);
  if (st == STR_OK && !sp.fstring && L->linestart == linestart &&
      t->strlen == (size_t)(bodyend - body) && memcmp(t->str, body, t->strlen) == 0)
    t->bodycol = (int)(body - linestart) + 1;
}

/* ---- numbers ---- */

/* digitpart: digit (["_"] digit)* ; returns false if an '_' is misplaced. */
static bool scan_digits(Lexer *L, int (*ok)(int)) {
  while (L->p < L->end) {
    if (ok((unsigned char)*L->p))
      L->p++;
    else if (*L->p == '_' && L->p + 1 < L->end && ok((unsigned char)L->p[1]))
      L->p += 2;
    else
      break;
  }
  return !(L->p < L->end && *L->p == '_');
}

static int is_dec(int c) { return c >= '0' && c <= '9'; }
static int is_hex(int c) { return hexval(c) >= 0; }
static int is_oct(int c) { return c >= '0' && c <= '7'; }
static int is_bin(int c) { return c == '0' || c == '1'; }

static void int_value(Token *t, const char *s, const char *e, int base) {
  uint64_t v = 0;
  bool wrapped = false;
  for (; s < e; s++) {
    if (*s == '_')
      continue;
    uint64_t d = (uint64_t)hexval(*s);
    if (v > (UINT64_MAX - d) / (uint64_t)base)
      wrapped = true;
    v = v * (uint64_t)base + d;
  }
  t->big = wrapped || v > (uint64_t)INT64_MAX;
  t->huge = wrapped;
  /* A literal in [2**63, 2**64) keeps its 64 bits: it is a uint64, as in
   * Numba; 2**63 itself is then INT64_MIN, so -9223372036854775808 folds
   * (Python folds the minus into the constant, Numba too). */
  t->ival = wrapped ? 0 : (int64_t)v;
}

static double float_value(Lexer *L, const char *s, const char *e) {
  char *buf = arena_alloc(L->arena, (size_t)(e - s) + 1), *d = buf;
  for (; s < e; s++)
    if (*s != '_' && *s != 'j' && *s != 'J')
      *d++ = *s;
  *d = '\0';
  return strtod(buf, NULL);
}

/* A number directly followed by a name is an error, except before keywords
 * (Python still accepts `1if x else y`). */
static bool bad_suffix(Lexer *L) {
  if (!ident_char(L, L->p, true))
    return false;
  const char *e = scan_ident(L, L->p);
  if (lex_is_keyword(L->p, (size_t)(e - L->p)))
    return false;
  L->p = e;
  return true;
}

static void lex_prefixed_int(Lexer *L, const char *start) {
  char b = (char)(start[1] | 0x20);
  int base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
  int (*ok)(int) = base == 16 ? is_hex : base == 8 ? is_oct : is_bin;
  L->p = start + 2;
  if (L->p < L->end && *L->p == '_')
    L->p++;
  const char *digits = L->p;
  bool good = scan_digits(L, ok) && L->p > digits && !is_digit(L, L->p) && !bad_suffix(L);
  Token *t = emit(L, TK_INT, loc_at(L, start, (int)(L->p - start)));
  if (!good) {
    while (L->p < L->end && (*L->p == '_' || ident_char(L, L->p, false)))
      L->p++;
    t->loc.len = (int)(L->p - start);
    const char *kind = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
    lex_error(L, E_BAD_NUMBER, t->loc, NULL, "invalid %s literal", kind);
    return;
  }
  int_value(t, digits, L->p, base);
}

/* number: decinteger | floatnumber | imagnumber  (0x/0o/0b handled above) */
static void lex_number(Lexer *L) {
  const char *start = L->p;
  if (*start == '0' && L->p + 1 < L->end && strchr("xXoObB", L->p[1]) && L->p[1])
    { lex_prefixed_int(L, start); return; }
  bool good = scan_digits(L, is_dec), isfloat = false, imag = false;
  if (good && L->p < L->end && *L->p == '.') {
    isfloat = true;
    L->p++;
    if (is_digit(L, L->p))
      good = scan_digits(L, is_dec);
  }
  if (good && L->p < L->end && (*L->p | 0x20) == 'e') {
    const char *e = L->p + 1;
    if (e < L->end && (*e == '+' || *e == '-'))
      e++;
    if (is_digit(L, e)) {
      L->p = e;
      isfloat = true;
      good = scan_digits(L, is_dec);
    }
  }
  if (good && L->p < L->end && (*L->p | 0x20) == 'j')
    imag = true, L->p++;
  good = good && !bad_suffix(L);
  Token *t = emit(L, isfloat || imag ? TK_FLOAT : TK_INT, loc_at(L, start, (int)(L->p - start)));
  t->imag = imag;
  if (!good) {
    while (L->p < L->end && (*L->p == '_' || ident_char(L, L->p, false)))
      L->p++;
    t->loc.len = (int)(L->p - start);
    lex_error(L, E_BAD_NUMBER, t->loc, NULL, "invalid decimal literal");
  } else if (t->kind == TK_FLOAT) {
    t->fval = float_value(L, start, L->p);
  } else {
    const char *s = start;
    while (s < L->p && (*s == '0' || *s == '_'))
      s++;
    if (*start == '0' && s < L->p)
      lex_error(L, E_BAD_NUMBER, t->loc, "use an 0o prefix for octal integers",
                "leading zeros in decimal integer literals are not permitted");
    int_value(t, start, L->p, 10);
  }
}

/* ---- names, operators, brackets ---- */

static void lex_name(Lexer *L) {
  const char *start = L->p;
  const char *e = scan_ident(L, start);
  if (at_quote(L, e)) {
    StrPrefix sp = parse_prefix(start, (size_t)(e - start));
    if (sp.ok) {
      L->p = e;
      lex_string(L, start, sp);
      return;
    }
  }
  L->p = e;
  size_t n = (size_t)(e - start);
  Token *t = emit(L, lex_is_keyword(start, n) ? TK_KEYWORD : TK_NAME, loc_at(L, start, (int)n));
  t->text = arena_strndup(L->arena, start, n);
}

static const char *const operators[] = {
    "**=", "//=", ">>=", "<<=", "...", "**", "//", "<<", ">>", "<=", ">=", "==", "!=",
    "->", ":=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "+", "-", "*",
    "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",",
    ":", ";", ".", "=",
};

static char closer_of(char open) {
  return open == '(' ? ')' : open == '[' ? ']' : '}';
}

/* Track brackets; returns false when the token is to be dropped. */
static bool track_bracket(Lexer *L, Token *t) {
  char c = t->text[0];
  if (t->text[1] || !strchr("()[]{}", c))
    return true;
  if (c == '(' || c == '[' || c == '{') {
    Bracket b = {c, t->loc, L->out->len - 1};
    vec_push(L->arena, &L->brackets, b);
    return true;
  }
  if (L->brackets.len == 0) {
    lex_error(L, E_UNMATCHED_BRACKET, t->loc, NULL, "unmatched '%c'", c);
    return false;
  }
  Bracket b = L->brackets.data[--L->brackets.len];
  if (closer_of(b.ch) != c) {
    if (b.loc.line == t->loc.line)
      lex_error(L, E_MISMATCHED_BRACKET, t->loc, NULL,
                "closing parenthesis '%c' does not match opening parenthesis '%c'", c, b.ch);
    else
      lex_error(L, E_MISMATCHED_BRACKET, t->loc, NULL,
                "closing parenthesis '%c' does not match opening parenthesis '%c' on line %d", c,
                b.ch, b.loc.line);
    char fixed[2] = {closer_of(b.ch), 0}; /* recover as if the right one was written */
    t->text = arena_strdup(L->arena, fixed);
  }
  return true;
}

static void lex_bad_char(Lexer *L) {
  uint32_t cp = 0;
  int n = utf8_decode(L->p, L->end, &cp);
  SrcLoc loc = loc_at(L, L->p, n ? n : 1);
  if (n == 0)
    lex_error(L, E_BAD_CHAR, loc, "the file must be UTF-8 encoded", "invalid non-UTF-8 byte 0x%02x",
              (unsigned char)*L->p);
  else if (cp < 0x20 || cp == 0x7F || cp == 0xA0 || cp == 0xFEFF)
    lex_error(L, E_BAD_CHAR, loc, NULL, "invalid non-printable character U+%04X", (unsigned)cp);
  else
    lex_error(L, E_BAD_CHAR, loc, NULL, "invalid character '%.*s' (U+%04X)", n, L->p, (unsigned)cp);
  L->p += n ? n : 1;
  uint32_t dummy;
  while (n == 0 && L->p < L->end && (unsigned char)*L->p >= 0x80 && !utf8_decode(L->p, L->end, &dummy))
    L->p++; /* one report per run of invalid bytes */
}

static void lex_operator(Lexer *L) {
  for (size_t i = 0; i < sizeof operators / sizeof *operators; i++) {
    size_t n = strlen(operators[i]);
    if ((size_t)(L->end - L->p) >= n && memcmp(L->p, operators[i], n) == 0) {
      Token *t = emit(L, TK_OP, loc_at(L, L->p, (int)n));
      t->text = operators[i];
      L->p += n;
      if (!track_bracket(L, t))
        L->out->len--;
      return;
    }
  }
  lex_bad_char(L);
}

/* ---- lines and indentation ---- */

static void push_indent(Lexer *L, int col, int alt) {
  vec_push(L->arena, &L->indents, col);
  vec_push(L->arena, &L->altindents, alt);
}

static void tab_error(Lexer *L, SrcLoc loc) {
  lex_error(L, E_TAB_SPACE, loc, "indent with spaces only (or tabs only)",
            "inconsistent use of tabs and spaces in indentation");
}

/* Compare the indentation of a new logical line with the stack and emit
 * INDENT / DEDENTs.  A dedent to an unknown level is reported and the line
 * stays in the inner block (stack unchanged), so a one-line slip does not
 * derail the lines after it and INDENT/DEDENT stay balanced. */
static void apply_indent(Lexer *L, int col, int alt, SrcLoc loc) {
  int n = L->indents.len;
  int top = L->indents.data[n - 1], alttop = L->altindents.data[n - 1];
  if (col > top) {
    if (alt <= alttop)
      tab_error(L, loc);
    push_indent(L, col, alt);
    emit(L, TK_INDENT, loc);
    return;
  }
  while (L->indents.len > 1 && col < L->indents.data[L->indents.len - 1]) {
    if (col > L->indents.data[L->indents.len - 2]) {
      lex_error(L, E_DEDENT, loc, "line the block up with the statement it belongs to",
                "unindent does not match any outer indentation level");
      return;
    }
    L->indents.len--, L->altindents.len--;
    emit(L, TK_DEDENT, loc);
  }
  if (alt != L->altindents.data[L->indents.len - 1])
    tab_error(L, loc);
}

/* At the start of a line: measure its indentation; blank and comment-only
 * lines are consumed whole without tokens. */
static void lex_line_start(Lexer *L) {
  int col = 0, alt = 0;
  while (L->p < L->end && (*L->p == ' ' || *L->p == '\t' || *L->p == '\f')) {
    if (*L->p == ' ')
      col++, alt++;
    else if (*L->p == '\t')
      col = (col / 8 + 1) * 8, alt++;
    else
      col = alt = 0;
    L->p++;
  }
  if (L->p < L->end && *L->p == '#')
    while (L->p < L->end && !is_newline_at(L, L->p))
      L->p++;
  if (L->p >= L->end)
    return;
  if (is_newline_at(L, L->p)) {
    eat_newline(L);
    return;
  }
  L->atbol = false;
  apply_indent(L, col, alt, loc_at(L, L->p, 1));
}

static void lex_backslash(Lexer *L) {
  if (L->p + 1 < L->end && is_newline_at(L, L->p + 1)) {
    SrcLoc at = loc_at(L, L->p, 1);
    L->p++;
    eat_newline(L);
    if (L->p >= L->end)   /* the line it continues is the end of the file */
      lex_error(L, E_CONTINUATION, at, "remove the '\\' or continue the line",
                "unexpected EOF while parsing");
  } else if (L->p + 1 >= L->end) {
    lex_error(L, E_CONTINUATION, loc_at(L, L->p, 1), NULL, "unexpected EOF while parsing");
    L->p++;
  } else {
    lex_error(L, E_CONTINUATION, loc_at(L, L->p, 1), "nothing may follow '\\' on its line",
              "unexpected character after line continuation character");
    L->p++;
  }
}

static void lex_newline(Lexer *L) {
  if (L->brackets.len == 0) {
    if (last_kind(L) != TK_NEWLINE)
      emit(L, TK_NEWLINE, loc_at(L, L->p, 1));
    L->atbol = true;
  }
  eat_newline(L);
}

/* One token (or skipped run of whitespace/comment) at L->p. */
static void lex_one(Lexer *L) {
  char c = *L->p;
  if (c == ' ' || c == '\t' || c == '\f') {
    L->p++;
  } else if (c == '#') {
    while (L->p < L->end && !is_newline_at(L, L->p))
      L->p++;
  } else if (c == '\n' || c == '\r') {
    lex_newline(L);
  } else if (c == '\\') {
    lex_backslash(L);
  } else if (is_digit(L, L->p) || (c == '.' && is_digit(L, L->p + 1))) {
    lex_number(L);
  } else if (c == '\'' || c == '"') {
    StrPrefix sp = {0};
    lex_string(L, L->p, sp);
  } else if (ident_char(L, L->p, true)) {
    lex_name(L);
  } else {
    lex_operator(L);
  }
}

/* Whether a tokenizer error was reported inside the logical line that the
 * outermost open bracket starts: an unterminated string there swallowed the
 * closing bracket, so "'(' was never closed" would only be a cascade. */
static bool error_in_open_line(Lexer *L) {
  int first = L->brackets.data[0].loc.line;
  for (int i = 0; i < L->out->errlines.len; i++)
    if (L->out->errlines.data[i] >= first)
      return true;
  return false;
}

/* At EOF: report the innermost unclosed bracket, close the last line and
 * the open blocks. */
static void lex_finish(Lexer *L) {
  SrcLoc end = loc_at(L, L->p, 1);
  if (L->out->len) {
    end = L->out->data[L->out->len - 1].loc;
    end.col += end.len, end.len = 1;
  }
  if (L->brackets.len) {
    Bracket b = L->brackets.data[L->brackets.len - 1];
    if (!error_in_open_line(L))
      lex_error(L, E_UNCLOSED_BRACKET, b.loc, NULL, "'%c' was never closed", b.ch);
    L->out->quiet_from = L->brackets.data[0].tokidx + 1;
  }
  if (last_kind(L) != TK_NEWLINE)
    emit(L, TK_NEWLINE, end);
  for (int i = 1; i < L->indents.len; i++)
    emit(L, TK_DEDENT, end);
  emit(L, TK_EOF, end);
}

/* CPython refuses a NUL byte anywhere in a source, comments and strings
 * included, before it tokenizes: so does kjit, whatever the source was read
 * from (a file, standard input, an imported module, a string).  One error
 * at the first NUL, and no tokens: the rest of the file is not Python. */
static bool refuse_nul(Lexer *L) {
  const char *nul = memchr(L->p, '\0', (size_t)(L->end - L->p));
  if (!nul)
    return false;
  while (L->p < nul) {
    if (is_newline_at(L, L->p))
      eat_newline(L);
    else
      L->p++;
  }
  lex_error(L, E_BAD_CHAR, loc_at(L, nul, 1), "remove the NUL byte (a binary file, or a corrupted copy?)",
            "source code cannot contain null bytes");
  L->p = L->end;
  return true;
}

void lex_tokenize(Arena *arena, const Source *src, Diags *diags, Tokens *out) {
  memset(out, 0, sizeof *out);
  Lexer L = {0};
  L.arena = arena, L.src = src, L.diags = diags, L.out = out;
  L.p = L.linestart = src->text;
  L.end = src->text + src->len;
  L.line = 1;
  L.atbol = true;
  if (L.end - L.p >= 3 && memcmp(L.p, "\xEF\xBB\xBF", 3) == 0)
    L.p += 3, L.linestart = L.p; /* UTF-8 byte order mark */
  push_indent(&L, 0, 0);
  out->quiet_from = -1;
  refuse_nul(&L);
  while (L.p < L.end) {
    if (L.atbol && L.brackets.len == 0)
      lex_line_start(&L);
    else
      lex_one(&L);
  }
  lex_finish(&L);
  if (out->quiet_from < 0)
    out->quiet_from = out->len;
}
