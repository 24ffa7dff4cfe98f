/* parser.h - state and helpers shared by parse.c (statements, module) and
 * parse_expr.c (expressions); internal to the frontend.
 *
 * Errors longjmp to the innermost statement guard, which reports nothing more
 * for that statement and resynchronises at the next one.  In quiet mode
 * (speculative parsing of host code) errors abort without a diagnostic. */
#ifndef KJIT_FRONTEND_PARSER_H
#define KJIT_FRONTEND_PARSER_H

#include <setjmp.h>

#include "frontend/ast.h"
#include "frontend/token.h"

#define PARSE_MAX_DEPTH 400 /* nesting limit (parentheses, blocks, attribute and
                                index chains), and of elif branches in one if:
                                keeps the C stack of this and later stages bounded */
#define PARSE_MAX_LINKS 2000 /* binary operators chained on one path (a + b + ...):
                                each nests the tree one level, but a frame of
                                the later stages' walk over them is small */

typedef struct Parser {
  Arena *arena;
  const Source *src;
  Diags *diags;
  Tokens toks;
  int pos;        /* index of the current token */
  jmp_buf *jb;    /* innermost statement guard */
  bool quiet;     /* speculative: failures add no diagnostic */
  int nfailed;    /* failures so far, reported or not */
  int depth;      /* current recursion depth */
  int elifs;      /* elif branches of the if statement being parsed */
  int links;      /* binary operator links on the current path (PARSE_MAX_LINKS) */
} Parser;

Token *parse_peek(Parser *p);
Token *parse_peek_at(Parser *p, int k);
Token *parse_next(Parser *p); /* returns the current token and advances (never past EOF) */
bool parse_equal(const Token *t, const char *s); /* OP or keyword spelled s */
bool parse_consume(Parser *p, const char *s);
Token *parse_expect(Parser *p, const char *s);
_Noreturn void parse_fail(Parser *p, const Token *t, int code, const char *hint,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
Node *parse_new(Parser *p, NodeKind kind, SrcLoc loc);
/* Append n to l.  A function (not vec_push) so that n, often a parse call
 * that may longjmp, is evaluated before the list grows. */
void parse_push(Parser *p, NodeList *l, Node *n);
void parse_enter(Parser *p, const Token *t); /* depth++ with the nesting limit */

/* Expression rules (parse_expr.c). */
Node *parse_star_expressions(Parser *p); /* a, *b, c  (tuple when a comma follows) */
Node *parse_expr(Parser *p);             /* expression: ifexp, lambda, or-test */
Node *parse_named_expr(Parser *p);       /* NAME := expression | expression */
Node *parse_disjunction(Parser *p);
Node *parse_star_targets(Parser *p);     /* for-loop targets: stops before 'in' */
Node *parse_yield_expr(Parser *p);
bool parse_starts_expr(const Token *t);

/* The value of a top-level if's condition on module constants read so far
 * (frontend/toplevel_cond.c): 1 true, 0 false, -1 not decided there. */
int toplevel_cond_value(const Module *m, const Node *cond);
void parse_check_target(Parser *p, Node *e, const char *ctx); /* ctx: "assign", "delete", "augassign" */

#endif
