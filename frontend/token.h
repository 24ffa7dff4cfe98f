/* token.h - tokens of Python 3.12 source, internal to the frontend.
 *
 * lex_tokenize turns a whole Source into an array of Tokens ending in TK_EOF,
 * with INDENT/DEDENT/NEWLINE as Python's tokenizer makes them.  Tokenizer
 * errors go to Diags (codes E101..E119) and tokenizing carries on, so the
 * array is always well formed: INDENT/DEDENT balance and it ends in EOF. */
#ifndef KJIT_FRONTEND_TOKEN_H
#define KJIT_FRONTEND_TOKEN_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/diag.h"

/* Diagnostic codes: common/diag_codes.h (E1xx: the lexer and parser). */

typedef enum TokenKind {
  TK_EOF,
  TK_NEWLINE, /* end of a logical line */
  TK_INDENT,  /* loc: the first token of the indented line */
  TK_DEDENT,  /* loc: the first token of the dedented line (or end of file) */
  TK_NAME,    /* identifier, soft keywords (match, case, type, _) included */
  TK_KEYWORD, /* hard keyword: text */
  TK_INT,     /* ival, big */
  TK_FLOAT,   /* fval, imag (imaginary literals are TK_FLOAT even for 3j) */
  TK_STRING,  /* str/strlen; bytes, fstring (str is then the raw body), raw */
  TK_OP,      /* operator or delimiter: text */
} TokenKind;

typedef struct Token {
  TokenKind kind;
  SrcLoc loc;       /* len clipped to the token's first line */
  const char *text; /* NAME/KEYWORD/OP: NUL-terminated lexeme (arena); else NULL */
  const char *str;  /* STRING: decoded value (NUL-terminated, may hold NULs) */
  size_t strlen;    /* STRING: byte length of str */
  int64_t ival;     /* INT: value when !big */
  double fval;      /* FLOAT */
  bool big;         /* INT: does not fit int64 (ival: its 64 bits unless huge) */
  bool huge;        /* INT: does not fit uint64 either */
  bool imag;        /* FLOAT: j suffix */
  bool bytes;       /* STRING: b prefix */
  bool fstring;     /* STRING: f prefix */
  bool raw;         /* STRING: r prefix */
  int bodycol;      /* STRING: column of the first body byte when str is the body
                       verbatim (one line, no escapes, not an f-string), else 0 */
} Token;

typedef struct Tokens {
  Token *data;
  int len, cap;      /* data[len - 1] is TK_EOF */
  int quiet_from;    /* tokens from here on follow an unclosed bracket at EOF: the
                        parser reports nothing there (len when none) */
  Vec(int) errlines; /* lines holding a tokenizer error: the parser stays quiet there */
} Tokens;

/* Tokenize src into out (arena storage).  Never fails: errors go to diags. */
void lex_tokenize(Arena *arena, const Source *src, Diags *diags, Tokens *out);
bool lex_is_keyword(const char *s, size_t n);

#endif
