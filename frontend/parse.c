/* parse.c - recursive-descent parser: statements, functions, the module.
 *
 * Second stage of the frontend: Tokens -> Module (ast.h).  Each statement is
 * parsed under a guard (setjmp); a syntax error longjmps back to it, and the
 * guard skips to the next statement, so one run reports many errors and the
 * parser always advances.  Top-level host code is skipped, never diagnosed. */
#include "frontend/parser_internal.h"

#include <stdio.h>

static void statement(Parser *p, NodeList *out);

/* ---- token helpers ---- */

Token *parse_peek(Parser *p) { return &p->toks.data[p->pos]; }

Token *parse_peek_at(Parser *p, int k) {
  int i = p->pos + k;
  return &p->toks.data[i < p->toks.len ? i : p->toks.len - 1];
}

Token *parse_next(Parser *p) {
  Token *t = parse_peek(p);
  if (t->kind != TK_EOF)
    p->pos++;
  return t;
}

bool parse_equal(const Token *t, const char *s) {
  return (t->kind == TK_OP || t->kind == TK_KEYWORD) && strcmp(t->text, s) == 0;
}

bool parse_consume(Parser *p, const char *s) {
  if (!parse_equal(parse_peek(p), s))
    return false;
  parse_next(p);
  return true;
}

Token *parse_expect(Parser *p, const char *s) {
  Token *t = parse_peek(p);
  if (!parse_equal(t, s)) {
    if (t->kind == TK_INDENT)
      parse_fail(p, t, E_UNEXPECTED_INDENT, NULL, "unexpected indent");
    parse_fail(p, t, E_EXPECTED, NULL, "expected '%s'", s);
  }
  return parse_next(p);
}

/* A failure where the tokenizer already complained, or after an unclosed
 * bracket, would only repeat it: count it but stay silent. */
static bool lexer_reported(Parser *p, SrcLoc loc) {
  if (p->toks.quiet_from < p->toks.len) {
    SrcLoc q = p->toks.data[p->toks.quiet_from].loc;
    if (loc.line > q.line || (loc.line == q.line && loc.col >= q.col))
      return true;
  }
  for (int i = 0; i < p->toks.errlines.len; i++)
    if (p->toks.errlines.data[i] == loc.line)
      return true;
  return false;
}

static _Noreturn void vfail(Parser *p, SrcLoc loc, int code, const char *hint, const char *fmt, va_list ap) {
  p->nfailed++;
  if (!p->quiet && !lexer_reported(p, loc)) {
    char *msg = arena_vprintf(p->arena, fmt, ap);
    diag_error(p->diags, code, loc, hint, "%s", msg);
  }
  longjmp(*p->jb, 1);
}

_Noreturn void parse_fail(Parser *p, const Token *t, int code, const char *hint, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(p, t->loc, code, hint, fmt, ap);
}

/* The same, located at a whole node (e.g. a bad assignment target). */
static _Noreturn void fail_node(Parser *p, const Node *n, int code, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static _Noreturn void fail_node(Parser *p, const Node *n, int code, const char *hint, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(p, n->loc, code, hint, fmt, ap);
}

Node *parse_new(Parser *p, NodeKind kind, SrcLoc loc) {
  Node *n = arena_alloc(p->arena, sizeof *n);
  n->kind = kind;
  n->loc = loc;
  return n;
}

void parse_push(Parser *p, NodeList *l, Node *n) { vec_push(p->arena, l, n); }

void parse_enter(Parser *p, const Token *t) {
  if (++p->depth > PARSE_MAX_DEPTH)
    parse_fail(p, t, E_TOO_DEEP, "split the expression or block into smaller pieces",
               "too many nested parentheses or blocks");
}

/* ---- skipping (recovery and host code) ---- */

/* Skip an INDENT ... matching DEDENT. */
static void skip_block(Parser *p) {
  int depth = 0;
  do {
    Token *t = parse_next(p);
    if (t->kind == TK_INDENT)
      depth++;
    else if (t->kind == TK_DEDENT)
      depth--;
    else if (t->kind == TK_EOF)
      return;
  } while (depth > 0);
}

static bool at_clause(Parser *p) {
  Token *t = parse_peek(p);
  return parse_equal(t, "elif") || parse_equal(t, "else") || parse_equal(t, "except") ||
         parse_equal(t, "finally");
}

/* Skip the rest of the logical line and, when one follows, its block; then
 * the elif/else/except/finally clauses that continue it. */
static void skip_rest_of_statement(Parser *p) {
  for (;;) {
    while (parse_peek(p)->kind != TK_NEWLINE && parse_peek(p)->kind != TK_EOF)
      parse_next(p);
    parse_next(p);
    if (parse_peek(p)->kind != TK_INDENT)
      return;
    skip_block(p);
    if (!at_clause(p))
      return;
  }
}

/* Skip a whole statement from its first token, decorators included. */
static void skip_statement(Parser *p) {
  if (parse_peek(p)->kind == TK_INDENT) {
    skip_block(p);
    return;
  }
  while (parse_equal(parse_peek(p), "@")) {
    while (parse_peek(p)->kind != TK_NEWLINE && parse_peek(p)->kind != TK_EOF)
      parse_next(p);
    parse_next(p);
  }
  skip_rest_of_statement(p);
}

/* After a failure in the statement that began at `start`: resynchronise at
 * the next statement of the same block. */
static void recover(Parser *p, int start) {
  Token *t = parse_peek(p);
  if (t->kind == TK_INDENT) {
    skip_block(p);
    return;
  }
  if (t->kind == TK_DEDENT || t->kind == TK_EOF)
    return;
  if (p->pos > start && at_clause(p)) {   /* the rest of an if's elif chain */
    skip_rest_of_statement(p);
    return;
  }
  TokenKind prev = p->pos > start ? p->toks.data[p->pos - 1].kind : TK_EOF;
  if (prev == TK_NEWLINE || prev == TK_DEDENT)
    return; /* the failure was reported at the start of the next line */
  skip_rest_of_statement(p);
}

/* Parse one statement (appending to out) under its own guard. */
static void guarded_statement(Parser *p, NodeList *out) {
  jmp_buf jb, *saved = p->jb;
  int start = p->pos, depth = p->depth, links = p->links, elifs = p->elifs;
  p->jb = &jb;
  if (setjmp(jb) == 0)
    statement(p, out);
  else {
    p->depth = depth;
    p->links = links;
    p->elifs = elifs;
    recover(p, start);
  }
  p->jb = saved;
  if (p->pos == start && parse_peek(p)->kind != TK_DEDENT)
    parse_next(p); /* always advance */
}

/* ---- targets ---- */

static const char *target_desc(const Node *e) {
  switch (e->kind) {
  case ND_CALL: return "function call";
  case ND_INT: case ND_FLOAT: case ND_STR: case ND_ELLIPSIS: return "literal";
  case ND_BOOL: return e->ival ? "True" : "False";
  case ND_NONE: return "None";
  case ND_BINOP: case ND_UNARY: case ND_BOOLOP: return "expression";
  case ND_COMPARE: return "comparison";
  case ND_IFEXP: return "conditional expression";
  case ND_NAMEDEXPR: return "named expression";
  case ND_DICT: return "dict literal";
  case ND_SET: return "set display";
  case ND_COMPREHENSION:
    return strcmp(e->str, "generator") == 0 ? "generator expression" : "comprehension";
  default: return ast_kind_name(e->kind);
  }
}

/* Targets: NAME | attribute | subscript | (tuple | list of targets) | '*' target.
 * ctx: "assign", "delete" or "augassign" (which allows no tuples or stars). */
void parse_check_target(Parser *p, Node *e, const char *ctx) {
  bool aug = strcmp(ctx, "augassign") == 0, del = strcmp(ctx, "delete") == 0;
  switch (e->kind) {
  case ND_NAME: case ND_ATTR: case ND_SUBSCRIPT: return;
  case ND_TUPLE: case ND_LIST:
    if (aug)
      break;
    for (int i = 0; i < e->args.len; i++)
      parse_check_target(p, e->args.data[i], ctx);
    return;
  case ND_STARRED:
    if (aug || del)
      break;
    parse_check_target(p, e->lhs, ctx);
    return;
  default: break;
  }
  if (aug)
    fail_node(p, e, E_BAD_TARGET, NULL, "'%s' is an illegal expression for augmented assignment",
              e->kind == ND_TUPLE ? "tuple" : target_desc(e));
  if (del)
    fail_node(p, e, E_BAD_TARGET, NULL, "cannot delete %s", target_desc(e));
  fail_node(p, e, E_BAD_TARGET, "maybe you meant '==' instead of '='?", "cannot assign to %s", target_desc(e));
}

/* ---- simple statements ---- */

static const struct { const char *s; AstOp op; } augops[] = {
    {"+=", AOP_ADD},    {"-=", AOP_SUB},      {"*=", AOP_MUL},     {"@=", AOP_MATMUL},
    {"/=", AOP_DIV},    {"//=", AOP_FLOORDIV}, {"%=", AOP_MOD},    {"**=", AOP_POW},
    {"<<=", AOP_LSHIFT}, {">>=", AOP_RSHIFT}, {"&=", AOP_BITAND},  {"|=", AOP_BITOR},
    {"^=", AOP_BITXOR},
};

static Node *assign_value(Parser *p) {
  if (parse_equal(parse_peek(p), "yield"))
    return parse_yield_expr(p);
  return parse_star_expressions(p);
}

/* assignment: (star_targets '=')+ (yield_expr | star_expressions)
 *           | single_target augassign (yield_expr | star_expressions)
 *           | single_target ':' expression ['=' annotated_rhs]
 * expression_stmt: star_expressions */
static Node *expr_statement(Parser *p) {
  Node *e = assign_value(p);
  Token *t = parse_peek(p);
  if (parse_equal(t, "=")) {
    Node *n = parse_new(p, ND_ASSIGN, e->loc);
    n->oploc = t->loc;
    while (parse_consume(p, "=")) {
      parse_check_target(p, e, "assign");
      vec_push(p->arena, &n->args, e);
      e = assign_value(p);
    }
    n->rhs = e;
    return n;
  }
  for (size_t i = 0; i < sizeof augops / sizeof *augops; i++) {
    if (parse_equal(t, augops[i].s)) {
      parse_check_target(p, e, "augassign");
      parse_next(p);
      Node *n = parse_new(p, ND_AUGASSIGN, e->loc);
      n->op = augops[i].op, n->oploc = t->loc, n->lhs = e;
      n->rhs = assign_value(p);
      return n;
    }
  }
  if (parse_consume(p, ":")) {
    if (e->kind == ND_TUPLE)
      parse_fail(p, t, E_BAD_TARGET, NULL, "only single target (not tuple) can be annotated");
    if (e->kind != ND_NAME && e->kind != ND_ATTR && e->kind != ND_SUBSCRIPT)
      parse_fail(p, t, E_BAD_TARGET, NULL, "illegal target for annotation");
    Node *n = parse_new(p, ND_ANNASSIGN, e->loc);
    n->lhs = e, n->oploc = t->loc;
    n->third = parse_expr(p);
    if (parse_consume(p, "="))
      n->rhs = assign_value(p);
    return n;
  }
  Node *n = parse_new(p, ND_EXPR_STMT, e->loc);
  n->lhs = e;
  return n;
}

/* dotted_name: NAME ('.' NAME)*   (leading dots of relative imports kept) */
static const char *dotted_name(Parser *p, bool relative) {
  StrBuf sb;
  sb_init(&sb);
  while (relative && (parse_equal(parse_peek(p), ".") || parse_equal(parse_peek(p), "...")))
    sb_puts(&sb, parse_next(p)->text);
  if (!relative || parse_peek(p)->kind == TK_NAME) {
    do {
      Token *t = parse_peek(p);
      if (t->kind != TK_NAME) {
        sb_free(&sb);
        parse_fail(p, t, E_SYNTAX, NULL, "invalid syntax");
      }
      sb_puts(&sb, parse_next(p)->text);
    } while (parse_consume(p, ".") && (sb_putc(&sb, '.'), true));
  }
  const char *s = arena_strdup(p->arena, sb.data ? sb.data : "");
  sb_free(&sb);
  return s;
}

static const char *alias_name(Parser *p) {
  Token *t = parse_peek(p);
  if (t->kind != TK_NAME)
    parse_fail(p, t, E_SYNTAX, NULL, "invalid syntax");
  return parse_next(p)->text;
}

static void add_import(Parser *p, Module *out, const char *module, const char *name,
                       const char *alias, SrcLoc loc) {
  Import im = {module, name, alias, loc};
  vec_push(p->arena, &out->imports, im);
}

/* import_name: 'import' dotted_name ['as' NAME] (',' dotted_name ['as' NAME])*
 * import_from: 'from' ('.'* dotted_name | '.'+) 'import'
 *              ('*' | '(' NAME ['as' NAME] (',' ...)* [','] ')' | NAME ['as' NAME] (',' ...)*) */
static void import_stmt(Parser *p, Module *out) {
  Token *kw = parse_next(p);
  if (parse_equal(kw, "import")) {
    do {
      Token *t = parse_peek(p);
      const char *mod = dotted_name(p, false), *dot = strchr(mod, '.');
      const char *alias = dot ? arena_strndup(p->arena, mod, (size_t)(dot - mod)) : mod;
      if (parse_consume(p, "as"))
        alias = alias_name(p);
      add_import(p, out, mod, NULL, alias, t->loc);
    } while (parse_consume(p, ","));
    return;
  }
  const char *mod = dotted_name(p, true);
  parse_expect(p, "import");
  Token *star = parse_peek(p);
  if (parse_consume(p, "*")) {
    add_import(p, out, mod, "*", "*", star->loc);
    return;
  }
  bool paren = parse_consume(p, "(");
  do {
    if (paren && parse_equal(parse_peek(p), ")"))
      break;
    Token *t = parse_peek(p);
    const char *name = alias_name(p), *alias = name;
    if (parse_consume(p, "as"))
      alias = alias_name(p);
    add_import(p, out, mod, name, alias, t->loc);
  } while (parse_consume(p, ","));
  if (paren)
    parse_expect(p, ")");
}

/* global_stmt: ('global' | 'nonlocal') NAME (',' NAME)* */
static Node *global_stmt(Parser *p) {
  Token *kw = parse_next(p);
  Node *n = parse_new(p, ND_GLOBAL, kw->loc);
  n->str = kw->text;
  do {
    Token *t = parse_peek(p);
    Node *name = parse_new(p, ND_NAME, t->loc);
    name->name = alias_name(p);
    vec_push(p->arena, &n->args, name);
  } while (parse_consume(p, ","));
  return n;
}

/* del_stmt: 'del' del_targets   (ND_DEL args: one node per target) */
static Node *del_stmt(Parser *p, Token *kw) {
  Node *n = parse_new(p, ND_DEL, kw->loc);
  Node *e = parse_star_expressions(p);
  parse_check_target(p, e, "delete");
  if (e->kind == ND_TUPLE)
    n->args = e->args;
  else
    vec_push(p->arena, &n->args, e);
  return n;
}

/* simple_stmt: assignment | star_expressions | return_stmt | import_stmt | raise_stmt
 *            | 'pass' | del_stmt | yield_stmt | assert_stmt | 'break' | 'continue'
 *            | global_stmt | nonlocal_stmt */
static Node *simple_stmt(Parser *p) {
  Token *t = parse_peek(p);
  static const struct { const char *kw; NodeKind kind; } bare[] = {
      {"pass", ND_PASS}, {"break", ND_BREAK}, {"continue", ND_CONTINUE}};
  for (int i = 0; i < 3; i++)
    if (parse_consume(p, bare[i].kw))
      return parse_new(p, bare[i].kind, t->loc);
  if (parse_equal(t, "global") || parse_equal(t, "nonlocal"))
    return global_stmt(p);
  if (parse_equal(t, "import") || parse_equal(t, "from")) {
    Module ims = {0};
    import_stmt(p, &ims);
    Node *n = parse_new(p, ND_IMPORT, t->loc);
    n->str = ims.imports.len ? ims.imports.data[0].module : "";
    return n;
  }
  if (!parse_consume(p, "return") && !parse_consume(p, "raise") && !parse_consume(p, "assert") &&
      !parse_consume(p, "del"))
    return expr_statement(p);
  if (parse_equal(t, "del"))
    return del_stmt(p, t);
  Node *n = parse_new(p, parse_equal(t, "return") ? ND_RETURN : parse_equal(t, "raise") ? ND_RAISE : ND_ASSERT, t->loc);
  n->oploc = t->loc;
  if (n->kind == ND_ASSERT) {
    n->cond = parse_expr(p);
    if (parse_consume(p, ","))
      n->rhs = parse_expr(p);
  } else if (parse_starts_expr(parse_peek(p))) {
    n->lhs = n->kind == ND_RETURN ? parse_star_expressions(p) : parse_expr(p);
    if (n->kind == ND_RAISE && parse_consume(p, "from"))
      n->rhs = parse_expr(p);
  }
  return n;
}

/* simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static void simple_stmts(Parser *p, NodeList *out) {
  do {
    if (parse_peek(p)->kind == TK_NEWLINE)
      break;
    parse_push(p, out, simple_stmt(p));
  } while (parse_consume(p, ";"));
  Token *t = parse_peek(p);
  if (t->kind != TK_NEWLINE)
    parse_fail(p, t, E_SYNTAX, NULL, "invalid syntax");
  parse_next(p);
}

/* ---- compound statements ---- */

/* block: NEWLINE INDENT statement+ DEDENT | simple_stmts
 * what/line name the owner for "expected an indented block after ..." */
static void block(Parser *p, NodeList *out, const char *what, int line) {
  parse_expect(p, ":");
  if (parse_peek(p)->kind != TK_NEWLINE) {
    simple_stmts(p, out);
    return;
  }
  parse_next(p);
  Token *t = parse_peek(p);
  if (t->kind != TK_INDENT)
    parse_fail(p, t, E_EXPECTED_INDENT, "indent the body (or write 'pass')",
               "expected an indented block after %s on line %d", what, line);
  parse_next(p);
  parse_enter(p, t);
  while (parse_peek(p)->kind != TK_DEDENT && parse_peek(p)->kind != TK_EOF)
    guarded_statement(p, out);
  parse_next(p);
  p->depth--;
}

/* if_stmt: 'if' named_expression ':' block (elif_stmt | [else_block])
 * elif_stmt: 'elif' named_expression ':' block (elif_stmt | [else_block])  (nested ND_IF)
 * else_block: 'else' ':' block */
static Node *if_stmt(Parser *p) {
  Token *kw = parse_next(p);
  Node *n = parse_new(p, ND_IF, kw->loc);
  n->cond = parse_named_expr(p);
  block(p, &n->body, parse_equal(kw, "if") ? "'if' statement" : "'elif' statement", kw->loc.line);
  if (parse_equal(parse_peek(p), "elif")) {
    /* an elif nests an if in the else branch: later stages recurse on it */
    if (++p->elifs > PARSE_MAX_DEPTH)
      parse_fail(p, parse_peek(p), E_TOO_DEEP,
                 "use a lookup (an array or a tuple indexed by the case), or split the chain",
                 "more than %d elif branches in one if statement", PARSE_MAX_DEPTH);
    parse_push(p, &n->orelse, if_stmt(p));
    p->elifs--;
  } else if (parse_equal(parse_peek(p), "else")) {
    Token *e = parse_next(p);
    block(p, &n->orelse, "'else' statement", e->loc.line);
  }
  return n;
}

static void else_block(Parser *p, Node *n) {
  Token *e = parse_peek(p);
  if (parse_consume(p, "else"))
    block(p, &n->orelse, "'else' statement", e->loc.line);
}

/* while_stmt: 'while' named_expression ':' block [else_block] */
static Node *while_stmt(Parser *p) {
  Token *kw = parse_next(p);
  Node *n = parse_new(p, ND_WHILE, kw->loc);
  n->cond = parse_named_expr(p);
  block(p, &n->body, "'while' statement", kw->loc.line);
  else_block(p, n);
  return n;
}

/* for_stmt: 'for' star_targets 'in' star_expressions ':' block [else_block]
 * (lhs: the target, a ND_NAME or ND_TUPLE of targets; rhs: the iterable) */
static Node *for_stmt(Parser *p) {
  Token *kw = parse_next(p);
  Node *n = parse_new(p, ND_FOR, kw->loc);
  n->lhs = parse_star_targets(p);
  parse_expect(p, "in");
  n->rhs = parse_star_expressions(p);
  block(p, &n->body, "'for' statement", kw->loc.line);
  else_block(p, n);
  return n;
}

/* param: NAME [':' expression] ['=' expression] | '*' [NAME [':' expression]]
 *      | '**' NAME [':' expression] | '/'
 * A bare '*' is recorded as a star Param named "*"; '/' is not recorded. */
static void params(Parser *p, Func *f) {
  bool seen_default = false;
  while (!parse_equal(parse_peek(p), ")")) {
    Token *t = parse_peek(p);
    Param pa = {0};
    pa.loc = t->loc;
    if (parse_consume(p, "/")) {
      if (!parse_consume(p, ","))
        break;
      continue;
    }
    pa.star = parse_consume(p, "*") || (pa.dstar = parse_consume(p, "**"));
    if (pa.star && !(parse_peek(p)->kind == TK_NAME)) {
      pa.name = "*";
    } else {
      Token *name = parse_peek(p);
      pa.name = alias_name(p);
      pa.loc = loc_span(pa.loc, name->loc);
      if (parse_consume(p, ":"))
        pa.annotation = parse_expr(p);
      if (!pa.star && parse_consume(p, "=")) {
        pa.deflt = parse_expr(p);
        seen_default = true;
      } else if (!pa.star && seen_default && !parse_equal(t, "*")) {
        parse_fail(p, t, E_BAD_ARGS, NULL, "non-default argument follows default argument");
      }
    }
    vec_push(p->arena, &f->params, pa);
    if (!parse_consume(p, ","))
      break;
  }
}

/* decorators: ('@' named_expression NEWLINE)+ */
static void decorators(Parser *p, NodeList *out) {
  while (parse_consume(p, "@")) {
    parse_push(p, out, parse_named_expr(p));
    Token *t = parse_peek(p);
    if (t->kind != TK_NEWLINE)
      parse_fail(p, t, E_SYNTAX, NULL, "invalid syntax");
    parse_next(p);
  }
}

/* function_def: [decorators] 'def' NAME '(' [params] ')' ['->' expression] ':' block */
static Func *funcdef(Parser *p, NodeList decos) {
  parse_expect(p, "def");
  Token *name = parse_peek(p);
  Func *f = arena_alloc(p->arena, sizeof *f);
  f->decorators = decos;
  f->name = alias_name(p);
  f->loc = name->loc;
  parse_expect(p, "(");
  params(p, f);
  parse_expect(p, ")");
  if (parse_consume(p, "->"))
    f->returns = parse_expr(p);
  block(p, &f->body, "function definition", name->loc.line);
  return f;
}

/* Constructs kept only as a node: the whole statement (header, block and
 * continuing clauses) is skipped. */
static Node *skipped(Parser *p, NodeKind kind) {
  Token *kw = parse_peek(p);
  Node *n = parse_new(p, kind, kw->loc);
  n->oploc = kw->loc;
  if (kind == ND_CLASS && parse_peek_at(p, 1)->kind == TK_NAME)
    n->name = parse_peek_at(p, 1)->text;
  skip_rest_of_statement(p);
  return n;
}

/* `match` is a soft keyword: a statement when the logical line looks like
 * `match <expr>:` (ends in ':' and the next token is not an operator). */
static bool at_match(Parser *p) {
  Token *t = parse_peek(p);
  if (t->kind != TK_NAME || strcmp(t->text, "match") != 0)
    return false;
  Token *next = parse_peek_at(p, 1);
  if (!parse_starts_expr(next) || (next->kind == TK_OP && !parse_equal(next, "(") &&
                                   !parse_equal(next, "[") && !parse_equal(next, "{") && !parse_equal(next, "-")))
    return false;
  int i = p->pos;
  while (p->toks.data[i].kind != TK_NEWLINE && p->toks.data[i].kind != TK_EOF)
    i++;
  return i > p->pos && parse_equal(&p->toks.data[i - 1], ":");
}

/* statement: compound_stmt | simple_stmts
 * compound_stmt: function_def | if_stmt | class_def | with_stmt | for_stmt
 *              | try_stmt | while_stmt | match_stmt | async ... */
static void statement(Parser *p, NodeList *out) {
  Token *t = parse_peek(p);
  Node *n = NULL;
  if (t->kind == TK_INDENT)
    parse_fail(p, t, E_UNEXPECTED_INDENT, "remove the extra indentation", "unexpected indent");
  if (parse_equal(t, "if")) n = if_stmt(p);
  else if (parse_equal(t, "while")) n = while_stmt(p);
  else if (parse_equal(t, "for")) n = for_stmt(p);
  else if (parse_equal(t, "class")) n = skipped(p, ND_CLASS);
  else if (parse_equal(t, "try")) n = skipped(p, ND_TRY);
  else if (parse_equal(t, "with")) n = skipped(p, ND_WITH);
  else if (parse_equal(t, "async")) n = skipped(p, ND_ASYNC);
  else if (at_match(p)) n = skipped(p, ND_MATCH);
  else if (parse_equal(t, "def") || parse_equal(t, "@")) {
    NodeList decos = {0};
    decorators(p, &decos);
    Token *kw = parse_peek(p);
    if (parse_equal(kw, "class") || parse_equal(kw, "async")) {
      n = skipped(p, parse_equal(kw, "class") ? ND_CLASS : ND_ASYNC);
    } else {
      n = parse_new(p, ND_FUNCDEF, kw->loc);
      n->func = funcdef(p, decos);
      n->name = n->func->name;
    }
  } else if (at_clause(p)) {
    parse_fail(p, t, E_SYNTAX, NULL, "invalid syntax");
  } else {
    simple_stmts(p, out);
    return;
  }
  vec_push(p->arena, out, n);
}

/* ---- the module ---- */

/* Does t end a top-level simple statement (';' or the end of the line)? */
static bool at_simple_end(const Token *t) {
  return t->kind == TK_NEWLINE || t->kind == TK_EOF || parse_equal(t, ";");
}

/* Whether name is bound by the module so far: an assignment, an import,
 * a def. */
static bool bound_so_far(const Module *m, const char *name) {
  for (int i = 0; i < m->globals.len; i++)
    if (m->globals.data[i].name && strcmp(m->globals.data[i].name, name) == 0)
      return true;
  for (int i = 0; i < m->imports.len; i++)
    if (m->imports.data[i].alias && strcmp(m->imports.data[i].alias, name) == 0)
      return true;
  for (int i = 0; i < m->funcs.len; i++)
    if (strcmp(m->funcs.data[i]->name, name) == 0)
      return true;
  return false;
}

/* Binds module name to value; `f = f` after f is bound rebinds the value f
 * already has, so it adds no binding (one to itself would be a cycle;
 * before f is bound Python raises NameError, kept as the cycle's error). */
static void push_global(Parser *p, Module *m, const char *name, Node *value, SrcLoc loc) {
  if (value && value->kind == ND_NAME && value->name && strcmp(value->name, name) == 0 &&
      bound_so_far(m, name))
    return;
  GlobalAssign g = {name, value, loc};
  vec_push(p->arena, &m->globals, g);
}

/* Top-level `NAME: ann = expr` (other assignments: global_statement). */
static bool at_global_assign(Parser *p) {
  Token *t = parse_peek(p), *next = parse_peek_at(p, 1);
  return t->kind == TK_NAME && parse_equal(next, ":");
}

static void global_assign(Parser *p, Module *m) {
  Token *name = parse_next(p);
  if (parse_consume(p, ":")) {
    parse_expr(p);
    if (!parse_equal(parse_peek(p), "="))
      parse_fail(p, name, E_SYNTAX, NULL, "annotation only");
  }
  parse_expect(p, "=");
  Node *value = assign_value(p);
  if (!at_simple_end(parse_peek(p)))
    parse_fail(p, parse_peek(p), E_SYNTAX, NULL, "not a single-target assignment");
  push_global(p, m, name->text, value, name->loc);
}

static void add_global(Parser *p, Module *m, const Node *target, Node *value) {
  push_global(p, m, target->name, value, target->loc);
}

/* Element k of a value unpacked into a target list: the element itself
 * when the value is a tuple or list display of the same length, else
 * value[k]. */
static Node *unpacked(Parser *p, Node *value, int k, int n) {
  if (value && (value->kind == ND_TUPLE || value->kind == ND_LIST) && value->args.len == n)
    return value->args.data[k];
  Node *sub = parse_new(p, ND_SUBSCRIPT, value ? value->loc : (SrcLoc){0});
  Node *ix = parse_new(p, ND_INT, sub->loc);
  ix->ival = k;
  sub->lhs = value;
  sub->rhs = ix;
  return sub;
}

/* Binds each name of a target (a name, or a tuple/list of names, nested)
 * to its value; other targets (attributes, subscripts) are host code. */
static void bind_target(Parser *p, Module *m, const Node *t, Node *value) {
  if (t->kind == ND_NAME && t->name) {
    add_global(p, m, t, value);
  } else if (t->kind == ND_TUPLE || t->kind == ND_LIST) {
    for (int k = 0; k < t->args.len; k++)
      if (t->args.data[k])
        bind_target(p, m, t->args.data[k], value ? unpacked(p, value, k, t->args.len) : NULL);
  }
}

/* Top-level `A, B = 1, 2`, `A = B = 0`, `X += 1` (X no longer constant):
 * parsed quietly as a statement, each name bound to its value. */
static void global_statement(Parser *p, Module *m) {
  Node *n = expr_statement(p);
  if (n && n->kind == ND_ASSIGN) {
    for (int i = 0; i < n->args.len; i++)
      bind_target(p, m, n->args.data[i], n->rhs);
  } else if (n && n->kind == ND_AUGASSIGN && n->lhs) {
    bind_target(p, m, n->lhs, NULL);
  }
  if (!at_simple_end(parse_peek(p)))
    skip_rest_of_statement(p);
}

/* Does the base list of the class at p name an enum base (Enum, IntEnum,
 * IntFlag, Flag, bare or qualified)?  Leaves p at the class name. */
static bool enum_bases(Parser *p) {
  static const char *const bases[] = {"Enum", "IntEnum", "IntFlag", "Flag"};
  int i = p->pos + 2; /* class NAME ( */
  if (!parse_equal(&p->toks.data[i], "("))
    return false;
  for (int depth = 0; p->toks.data[i].kind != TK_NEWLINE && p->toks.data[i].kind != TK_EOF; i++) {
    const Token *t = &p->toks.data[i];
    depth += parse_equal(t, "(") - parse_equal(t, ")");
    if (depth == 0)
      break;
    for (size_t k = 0; t->kind == TK_NAME && k < sizeof bases / sizeof *bases; k++)
      if (strcmp(t->text, bases[k]) == 0)
        return true;
  }
  return false;
}

/* The base of `class NAME(NamedTuple):` (bare or typing.NamedTuple) as a
 * node, or NULL for any other base list.  Leaves p at the class name. */
static Node *namedtuple_base(Parser *p) {
  int i = p->pos + 2; /* class NAME ( */
  if (!parse_equal(&p->toks.data[i], "("))
    return NULL;
  const Token *t = &p->toks.data[i + 1];
  bool dotted = t->kind == TK_NAME && parse_equal(&p->toks.data[i + 2], ".");
  const Token *last = dotted ? &p->toks.data[i + 3] : t;
  if (last->kind != TK_NAME || strcmp(last->text, "NamedTuple") != 0 ||
      !parse_equal(&p->toks.data[dotted ? i + 4 : i + 2], ")"))
    return NULL;
  Node *n = parse_new(p, ND_NAME, t->loc);
  n->name = t->text;
  if (dotted) {
    Node *a = parse_new(p, ND_ATTR, last->loc);
    a->lhs = n;
    a->name = last->text;
    n = a;
  }
  return n;
}

/* class NAME(NamedTuple): FIELD: TYPE ...  becomes the module assignment
 * NAME = NamedTuple('NAME', ['FIELD', ...]) (lower/namedtuple.c reads it);
 * defaults, methods and docstrings are host code. */
static void namedtuple_class(Parser *p, Module *m, Node *base) {
  Token *name = parse_peek_at(p, 1);
  Node *call = parse_new(p, ND_CALL, name->loc), *cls = parse_new(p, ND_STR, name->loc);
  Node *fields = parse_new(p, ND_LIST, name->loc);
  cls->str = name->text;
  cls->strlen = strlen(name->text);
  call->lhs = base;
  while (parse_peek(p)->kind != TK_NEWLINE && parse_peek(p)->kind != TK_EOF)
    parse_next(p);
  parse_next(p);
  if (parse_peek(p)->kind == TK_INDENT) {
    parse_next(p);
    while (parse_peek(p)->kind != TK_DEDENT && parse_peek(p)->kind != TK_EOF) {
      Token *t = parse_peek(p);
      if (t->kind == TK_NAME && parse_equal(parse_peek_at(p, 1), ":")) {
        Node *f = parse_new(p, ND_STR, t->loc);
        f->str = t->text;
        f->strlen = strlen(t->text);
        vec_push(p->arena, &fields->args, f);
      }
      skip_rest_of_statement(p);
    }
    parse_next(p);
  }
  vec_push(p->arena, &call->args, cls);
  vec_push(p->arena, &call->args, fields);
  GlobalAssign g = {name->text, call, name->loc};
  vec_push(p->arena, &m->globals, g);
}

/* class NAME(Enum): NAME = value ...  Each member becomes the module
 * constant "NAME.MEMBER" (its value; Numba freezes enum members); any
 * other class, and anything else in the body, is host code. */
static void enum_class(Parser *p, Module *m) {
  Node *nt = namedtuple_base(p);
  if (nt) {
    namedtuple_class(p, m, nt);
    return;
  }
  if (!enum_bases(p)) {
    skip_statement(p);
    return;
  }
  const char *cls = parse_peek_at(p, 1)->text;
  while (parse_peek(p)->kind != TK_NEWLINE && parse_peek(p)->kind != TK_EOF)
    parse_next(p);
  parse_next(p);
  if (parse_peek(p)->kind != TK_INDENT)
    return;
  parse_next(p);
  while (parse_peek(p)->kind != TK_DEDENT && parse_peek(p)->kind != TK_EOF) {
    Token *t = parse_peek(p);
    if (t->kind == TK_NAME && parse_equal(parse_peek_at(p, 1), "=")) {
      parse_next(p);
      parse_next(p);
      GlobalAssign g = {arena_printf(p->arena, "%s.%s", cls, t->text), assign_value(p), t->loc};
      vec_push(p->arena, &m->globals, g);
    }
    skip_rest_of_statement(p);
  }
  parse_next(p);
}

/* Is the statement at p (after any decorators) a def? */
static bool decorated_def(Parser *p) {
  int i = p->pos;
  while (parse_equal(&p->toks.data[i], "@")) {
    while (p->toks.data[i].kind != TK_NEWLINE && p->toks.data[i].kind != TK_EOF)
      i++;
    if (p->toks.data[i].kind == TK_EOF)
      return false;
    i++;
  }
  return parse_equal(&p->toks.data[i], "def");
}

/* An undecorated def is host code unless it parses: quiet, and on failure
 * kept as host_only with an empty body. */
static void toplevel_def(Parser *p, Module *m) {
  bool decorated = parse_equal(parse_peek(p), "@");
  int failed = p->nfailed;
  p->quiet = !decorated;
  NodeList decos = {0};
  decorators(p, &decos);
  Func *f = funcdef(p, decos);
  p->quiet = false;
  if (p->nfailed != failed && !decorated) {
    f->host_only = true;
    memset(&f->body, 0, sizeof f->body);
  }
  vec_push(p->arena, &m->funcs, f);
}

/* Skip one simple statement of host code (`del x`, `assert ...`): up to the
 * ';' or the end of its line, outside brackets (the lexer joins bracketed lines). */
static void skip_simple(Parser *p) {
  for (int depth = 0;; parse_next(p)) {
    Token *t = parse_peek(p);
    if (t->kind == TK_NEWLINE || t->kind == TK_EOF || (depth == 0 && parse_equal(t, ";")))
      return;
    depth += parse_equal(t, "(") || parse_equal(t, "[") || parse_equal(t, "{");
    depth -= parse_equal(t, ")") || parse_equal(t, "]") || parse_equal(t, "}");
  }
}

/* One top-level simple statement: an import, an assignment (a module
 * constant) or other host code, up to its ';' or NEWLINE. */
static void toplevel_simple(Parser *p, Module *m) {
  Token *t = parse_peek(p);
  p->quiet = !(parse_equal(t, "import") || parse_equal(t, "from"));
  if (!p->quiet)
    import_stmt(p, m);
  else if (at_global_assign(p))
    global_assign(p, m);
  else if (t->kind == TK_NAME || parse_equal(t, "(") || parse_equal(t, "["))
    global_statement(p, m);
  else
    skip_simple(p);
  p->quiet = false;
}

/* simple_stmts at the top level: simple_stmt (';' simple_stmt)* [';'] NEWLINE
 * (`import sys; import os`, `N = 64; TPB = 16`, as Python separates them). */
static void toplevel_simples(Parser *p, Module *m) {
  do {
    toplevel_simple(p, m);
  } while (parse_consume(p, ";") && !at_simple_end(parse_peek(p)));
  parse_consume(p, ";");
  Token *t = parse_peek(p);
  if (t->kind == TK_DEDENT) /* the last line of a top-level if/try block, at the file's end */
    return;
  if (t->kind != TK_NEWLINE && t->kind != TK_EOF)
    parse_fail(p, t, E_SYNTAX, NULL, "invalid syntax");
  parse_next(p);
}

/* Does the top-level statement at p start a compound statement (host code
 * skipped whole, its block included)? */
static bool at_compound(Parser *p) {
  static const char *const kws[] = {"if", "while", "for", "try", "with", "async", "def", "@"};
  for (size_t i = 0; i < sizeof kws / sizeof *kws; i++)
    if (parse_equal(parse_peek(p), kws[i]))
      return true;
  return at_match(p);
}

/* ---- top-level if and try: what Python runs at import ---- */

static void guarded_toplevel(Parser *p, Module *m);
static bool toplevel_if(Parser *p, Module *m);

/* The condition of the `if`/`elif` at p, decided from its tokens: 1 taken,
 * 0 not, -1 not decidable here (the statement stays host code).  True,
 * False and `cuda.is_available()` (any path ending in cuda: numba.cuda),
 * each after any `not`; is_available() is true on every target, as Numba
 * reads the file on a machine with a GPU.  *colon: the ':' that ends it. */
static int decided_condition(Parser *p, int *colon) {
  int i = 1, neg = 0, v;
  while (parse_equal(parse_peek_at(p, i), "not"))
    neg ^= 1, i++;
  if (parse_equal(parse_peek_at(p, i), "True") || parse_equal(parse_peek_at(p, i), "False")) {
    v = parse_equal(parse_peek_at(p, i), "True");
    i++;
  } else {
    const char *last = NULL;
    while (parse_peek_at(p, i)->kind == TK_NAME && parse_equal(parse_peek_at(p, i + 1), "."))
      last = parse_peek_at(p, i)->text, i += 2;
    Token *fn = parse_peek_at(p, i);
    if (!last || strcmp(last, "cuda") != 0 || fn->kind != TK_NAME ||
        strcmp(fn->text, "is_available") != 0 ||
        !parse_equal(parse_peek_at(p, i + 1), "(") || !parse_equal(parse_peek_at(p, i + 2), ")"))
      return -1;
    v = 1;
    i += 3;
  }
  *colon = i;
  return parse_equal(parse_peek_at(p, i), ":") ? v ^ neg : -1;
}

/* The condition of the `if`/`elif` at p on module constants
 * (toplevel_cond_value), when the tokens alone do not decide it: parsed
 * quietly and then given back, so an undecided one stays host code.
 * *colon: the ':' that ends it, counted from the keyword. */
static int evaluated_condition(Parser *p, const Module *m, int *colon) {
  int start = p->pos, depth = p->depth, links = p->links, failed = p->nfailed, v = -1;
  bool quiet = p->quiet;
  jmp_buf jb, *outer = p->jb;
  p->jb = &jb;
  p->quiet = true;
  if (setjmp(jb) == 0) {
    parse_next(p);
    Node *cond = parse_expr(p);
    if (parse_equal(parse_peek(p), ":"))
      v = toplevel_cond_value(m, cond);
  }
  *colon = p->pos - start;
  p->pos = start;
  p->jb = outer;
  p->quiet = quiet;
  p->depth = depth;
  p->links = links;
  p->nfailed = failed;
  return v;
}

/* At the ':' of a clause kjit takes: its statements, read as top-level ones. */
static void toplevel_block(Parser *p, Module *m) {
  parse_next(p);
  if (parse_peek(p)->kind != TK_NEWLINE) { /* if cuda.is_available(): import x */
    toplevel_simples(p, m);
    return;
  }
  parse_next(p);
  if (parse_peek(p)->kind != TK_INDENT)
    return;
  parse_next(p);
  while (parse_peek(p)->kind != TK_DEDENT && parse_peek(p)->kind != TK_EOF) {
    if (parse_peek(p)->kind == TK_NEWLINE)
      parse_next(p);
    else
      guarded_toplevel(p, m);
  }
  parse_next(p);
}

/* At the ':' of a clause not taken: past its line and block. */
static void skip_clause(Parser *p) {
  while (parse_peek(p)->kind != TK_NEWLINE && parse_peek(p)->kind != TK_EOF)
    parse_next(p);
  parse_next(p);
  if (parse_peek(p)->kind == TK_INDENT)
    skip_block(p);
}

/* if_stmt at the top level whose conditions decided_condition decides:
 * the branch taken is read, the others skipped.  False (nothing consumed)
 * when the first condition is not decidable. */
static bool toplevel_if(Parser *p, Module *m) {
  int colon;
  int v = decided_condition(p, &colon);
  if (v < 0)
    v = evaluated_condition(p, m, &colon);
  if (v < 0)
    return false;
  for (int i = 0; i < colon; i++)
    parse_next(p);
  if (v) {
    toplevel_block(p, m);
    if (at_clause(p))
      skip_rest_of_statement(p); /* the elif/else not taken */
    return true;
  }
  skip_clause(p);
  if (parse_equal(parse_peek(p), "elif") && !toplevel_if(p, m))
    skip_rest_of_statement(p);  /* an elif kjit cannot decide: host code */
  else if (parse_equal(parse_peek(p), "else") && parse_equal(parse_peek_at(p, 1), ":")) {
    parse_next(p);
    toplevel_block(p, m);
  }
  return true;
}

/* try_stmt at the top level: its block is read (Python runs it at import;
 * an import kjit cannot resolve fails where the name is used), the except
 * clauses skipped (they run only when the block fails), else and finally
 * read. */
static void toplevel_try(Parser *p, Module *m) {
  parse_next(p);
  if (!parse_equal(parse_peek(p), ":")) {
    skip_statement(p);
    return;
  }
  toplevel_block(p, m);
  while (at_clause(p)) {
    bool read = parse_equal(parse_peek(p), "else") || parse_equal(parse_peek(p), "finally");
    parse_next(p);
    if (read && parse_equal(parse_peek(p), ":"))
      toplevel_block(p, m);
    else
      skip_clause(p);
  }
}

/* One top-level statement.  Anything but an import, a def, a simple
 * global assignment, an if kjit decides or a try is host code and skipped
 * whole. */
static void toplevel(Parser *p, Module *m) {
  Token *t = parse_peek(p);
  if (t->kind == TK_INDENT)
    parse_fail(p, t, E_UNEXPECTED_INDENT, "remove the extra indentation", "unexpected indent");
  if (decorated_def(p)) {
    toplevel_def(p, m);
  } else if (parse_equal(t, "class") && parse_peek_at(p, 1)->kind == TK_NAME) {
    p->quiet = true;
    enum_class(p, m);
    p->quiet = false;
  } else if (parse_equal(t, "if") && toplevel_if(p, m)) {
    return;
  } else if (parse_equal(t, "try")) {
    toplevel_try(p, m);
  } else if (at_compound(p) || parse_equal(t, "class")) {
    skip_statement(p);
  } else {
    toplevel_simples(p, m);
  }
}

static void guarded_toplevel(Parser *p, Module *m) {
  jmp_buf jb, *outer = p->jb; /* a statement inside a top-level if/try nests */
  int start = p->pos;
  p->jb = &jb;
  if (setjmp(jb) != 0) {
    p->quiet = false;
    p->depth = 0;
    p->links = 0;
    p->elifs = 0;
    p->pos = start; /* skip the whole statement as host code */
    skip_statement(p);
  } else {
    toplevel(p, m);
  }
  p->jb = outer;
  if (p->pos == start)
    parse_next(p);
}

static void init_parser(Parser *p, Arena *arena, const Source *src, Diags *diags) {
  memset(p, 0, sizeof *p);
  p->arena = arena, p->src = src, p->diags = diags;
  lex_tokenize(arena, src, diags, &p->toks);
}

/* Tokenizer errors are all found before the parser's: put the frontend's
 * diagnostics back in source order (stable insertion sort, few entries). */
static void sort_diags(Diags *d, int from) {
  for (int i = from + 1; i < d->list.len; i++) {
    Diag g = d->list.data[i];
    int j = i;
    while (j > from && (d->list.data[j - 1].loc.line > g.loc.line ||
                        (d->list.data[j - 1].loc.line == g.loc.line && d->list.data[j - 1].loc.col > g.loc.col))) {
      d->list.data[j] = d->list.data[j - 1];
      j--;
    }
    d->list.data[j] = g;
  }
}

Module *parse_module(Arena *arena, const Source *src, Diags *diags) {
  Parser p;
  int first_diag = diags->list.len;
  init_parser(&p, arena, src, diags);
  Module *m = arena_alloc(arena, sizeof *m);
  m->src = src;
  while (parse_peek(&p)->kind != TK_EOF) {
    if (parse_peek(&p)->kind == TK_NEWLINE || parse_peek(&p)->kind == TK_DEDENT)
      parse_next(&p);
    else
      guarded_toplevel(&p, m);
  }
  sort_diags(diags, first_diag);
  return m;
}

/* expression_input: star_expressions NEWLINE* EOF */
Node *parse_expression(Arena *arena, const Source *src, Diags *diags) {
  Parser p;
  jmp_buf jb;
  init_parser(&p, arena, src, diags);
  p.jb = &jb;
  if (setjmp(jb) != 0)
    return NULL;
  Node *n = parse_star_expressions(&p);
  while (parse_peek(&p)->kind == TK_NEWLINE || parse_peek(&p)->kind == TK_DEDENT)
    parse_next(&p);
  if (parse_peek(&p)->kind != TK_EOF)
    parse_fail(&p, parse_peek(&p), E_SYNTAX, NULL, "invalid syntax");
  return n;
}
