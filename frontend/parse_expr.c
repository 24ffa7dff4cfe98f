/* parse_expr.c - recursive-descent parser for Python 3.12 expressions.
 *
 * One function per precedence level, lowest first, with the grammar rule
 * (from CPython's python.gram, simplified) above each.  Constructs kjit does
 * not compile (lists, dicts, comprehensions, lambda, yield) still parse into
 * their own node kinds so later stages can reject them by name. */
#include "frontend/parser_internal.h"

static Node *bitwise_or(Parser *p);
static Node *factor(Parser *p);
static Node *primary(Parser *p);
static Node *star_named_expr(Parser *p);

static SrcLoc span(const Node *a, const Node *b) { return loc_span(a->loc, b->loc); }

static Node *new_binary(Parser *p, NodeKind kind, AstOp op, Node *lhs, Node *rhs, const Token *optok) {
  Node *n = parse_new(p, kind, span(lhs, rhs));
  n->op = op;
  n->lhs = lhs;
  n->rhs = rhs;
  n->oploc = optok->loc;
  return n;
}

bool parse_starts_expr(const Token *t) {
  switch (t->kind) {
  case TK_NAME: case TK_INT: case TK_FLOAT: case TK_STRING: return true;
  case TK_KEYWORD:
    return parse_equal(t, "not") || parse_equal(t, "lambda") || parse_equal(t, "await") ||
           parse_equal(t, "None") || parse_equal(t, "True") || parse_equal(t, "False") ||
           parse_equal(t, "yield");
  case TK_OP:
    return parse_equal(t, "(") || parse_equal(t, "[") || parse_equal(t, "{") || parse_equal(t, "-") ||
           parse_equal(t, "+") || parse_equal(t, "~") || parse_equal(t, "*") || parse_equal(t, "...");
  default: return false;
  }
}

/* Build a tuple from items (loc spans them); used by every comma list. */
static Node *make_tuple(Parser *p, NodeList items, SrcLoc first) {
  Node *t = parse_new(p, ND_TUPLE, first);
  t->args = items;
  if (items.len)
    t->loc = span(items.data[0], items.data[items.len - 1]);
  return t;
}

/* Parse `elem (',' elem)* [',']` given the first element; a tuple when a
 * comma was seen. */
static Node *comma_list(Parser *p, Node *first, Node *(*elem)(Parser *)) {
  if (!parse_equal(parse_peek(p), ","))
    return first;
  NodeList items = {0};
  vec_push(p->arena, &items, first);
  while (parse_consume(p, ",")) {
    if (!parse_starts_expr(parse_peek(p)) || parse_equal(parse_peek(p), "yield"))
      break;
    parse_push(p, &items, elem(p));
  }
  return make_tuple(p, items, first->loc);
}

/* star_expression: '*' bitwise_or | expression */
static Node *star_expression(Parser *p) {
  Token *t = parse_peek(p);
  if (parse_consume(p, "*")) {
    Node *n = parse_new(p, ND_STARRED, t->loc);
    n->lhs = bitwise_or(p);
    n->loc = loc_span(t->loc, n->lhs->loc);
    return n;
  }
  return parse_expr(p);
}

/* star_expressions: star_expression (',' star_expression)* [','] */
Node *parse_star_expressions(Parser *p) {
  return comma_list(p, star_expression(p), star_expression);
}

/* star_target: '*' bitwise_or | bitwise_or   (checked as a target later) */
static Node *star_target(Parser *p) {
  Token *t = parse_peek(p);
  if (parse_consume(p, "*")) {
    Node *n = parse_new(p, ND_STARRED, t->loc);
    n->lhs = bitwise_or(p);
    return n;
  }
  return bitwise_or(p);
}

/* star_targets: star_target (',' star_target)* [','] */
Node *parse_star_targets(Parser *p) {
  Node *n = comma_list(p, star_target(p), star_target);
  parse_check_target(p, n, "assign");
  return n;
}

/* yield_expr: 'yield' 'from' expression | 'yield' [star_expressions] */
Node *parse_yield_expr(Parser *p) {
  Token *t = parse_expect(p, "yield");
  Node *n = parse_new(p, ND_YIELD, t->loc);
  n->name = "yield";
  if (parse_consume(p, "from")) {
    n->name = "yield from";
    n->lhs = parse_expr(p);
  } else if (parse_starts_expr(parse_peek(p))) {
    n->lhs = parse_star_expressions(p);
  }
  return n;
}

/* lambda_params: (NAME ['=' expression] | '*' [NAME] | '**' NAME | '/') (',' ...)* */
static void lambda_params(Parser *p) {
  while (!parse_equal(parse_peek(p), ":")) {
    if (!parse_consume(p, "*") && !parse_consume(p, "**") && !parse_consume(p, "/")) {
      if (parse_peek(p)->kind != TK_NAME)
        parse_fail(p, parse_peek(p), E_SYNTAX, NULL, "invalid syntax");
      parse_next(p);
      if (parse_consume(p, "="))
        parse_expr(p);
    } else if (parse_peek(p)->kind == TK_NAME) {
      parse_next(p);
    }
    if (!parse_consume(p, ","))
      break;
  }
}

/* lambdef: 'lambda' [lambda_params] ':' expression   (body not kept) */
static Node *lambdef(Parser *p) {
  Token *t = parse_expect(p, "lambda");
  lambda_params(p);
  parse_expect(p, ":");
  Node *n = parse_new(p, ND_LAMBDA, t->loc);
  parse_expr(p);
  return n;
}

/* expression: disjunction ['if' disjunction 'else' expression] | lambdef */
Node *parse_expr(Parser *p) {
  if (parse_equal(parse_peek(p), "lambda"))
    return lambdef(p);
  parse_enter(p, parse_peek(p));
  Node *body = parse_disjunction(p);
  Token *t = parse_peek(p);
  if (parse_consume(p, "if")) {
    Node *n = parse_new(p, ND_IFEXP, body->loc);
    n->oploc = t->loc;
    n->lhs = body;
    n->cond = parse_disjunction(p);
    parse_expect(p, "else");
    n->rhs = parse_expr(p);
    n->loc = span(body, n->rhs);
    body = n;
  }
  p->depth--;
  return body;
}

/* named_expression: NAME ':=' expression | expression */
Node *parse_named_expr(Parser *p) {
  Token *t = parse_peek(p);
  if (t->kind == TK_NAME && parse_equal(parse_peek_at(p, 1), ":=")) {
    parse_next(p);
    Token *op = parse_next(p);
    Node *n = parse_new(p, ND_NAMEDEXPR, t->loc);
    n->name = t->text;
    n->oploc = op->loc;
    n->lhs = parse_expr(p);
    n->loc = loc_span(t->loc, n->lhs->loc);
    return n;
  }
  Node *e = parse_expr(p);
  if (parse_equal(parse_peek(p), ":="))
    parse_fail(p, parse_peek(p), E_BAD_TARGET, NULL, "cannot use assignment expressions with %s",
               ast_kind_name(e->kind));
  return e;
}

/* disjunction: conjunction ('or' conjunction)*
 * conjunction: inversion ('and' inversion)* */
static Node *boolop(Parser *p, const char *kw, AstOp op, Node *(*sub)(Parser *)) {
  Node *first = sub(p);
  if (!parse_equal(parse_peek(p), kw))
    return first;
  Node *n = parse_new(p, ND_BOOLOP, first->loc);
  n->op = op;
  n->oploc = parse_peek(p)->loc;
  vec_push(p->arena, &n->args, first);
  while (parse_consume(p, kw))
    parse_push(p, &n->args, sub(p));
  n->loc = span(first, n->args.data[n->args.len - 1]);
  return n;
}

/* inversion: 'not' inversion | comparison
 * comparison: bitwise_or (compare_op bitwise_or)* */
static Node *inversion(Parser *p) {
  Token *t = parse_peek(p);
  if (parse_consume(p, "not")) {
    parse_enter(p, t);
    Node *n = parse_new(p, ND_UNARY, t->loc);
    n->op = AOP_NOT;
    n->oploc = t->loc;
    n->lhs = inversion(p);
    n->loc = loc_span(t->loc, n->lhs->loc);
    p->depth--;
    return n;
  }
  Node *first = bitwise_or(p), *n = NULL;
  for (;;) {
    Token *op = parse_peek(p);
    int aop = -1;
    static const struct { const char *s; AstOp op; } cmps[] = {
        {"==", AOP_EQ}, {"!=", AOP_NE}, {"<", AOP_LT}, {"<=", AOP_LE},
        {">", AOP_GT},  {">=", AOP_GE}, {"in", AOP_IN},
    };
    for (size_t i = 0; i < sizeof cmps / sizeof *cmps; i++)
      if (parse_equal(op, cmps[i].s))
        aop = (int)cmps[i].op;
    if (parse_equal(op, "not") && parse_equal(parse_peek_at(p, 1), "in"))
      aop = AOP_NOTIN, parse_next(p);
    else if (parse_equal(op, "is"))
      aop = parse_equal(parse_peek_at(p, 1), "not") ? (parse_next(p), AOP_ISNOT) : AOP_IS;
    if (aop < 0)
      break;
    parse_next(p);
    if (!n) {
      n = parse_new(p, ND_COMPARE, first->loc);
      n->oploc = op->loc;
      vec_push(p->arena, &n->args, first);
    }
    vec_push(p->arena, &n->ops, aop);
    parse_push(p, &n->args, bitwise_or(p));
  }
  if (!n)
    return first;
  n->loc = span(first, n->args.data[n->args.len - 1]);
  return n;
}

static Node *conjunction(Parser *p) { return boolop(p, "and", AOP_AND, inversion); }

Node *parse_disjunction(Parser *p) { return boolop(p, "or", AOP_OR, conjunction); }

/* Left-associative binary levels, from loosest to tightest:
 *   bitwise_or: bitwise_xor ('|' bitwise_xor)*
 *   bitwise_xor: bitwise_and ('^' bitwise_and)*
 *   bitwise_and: shift_expr ('&' shift_expr)*
 *   shift_expr: sum (('<<' | '>>') sum)*
 *   sum: term (('+' | '-') term)*
 *   term: factor (('*' | '/' | '//' | '%' | '@') factor)* */
typedef struct BinLevel {
  const char *ops[5];
  AstOp aops[5];
} BinLevel;

static const BinLevel levels[] = {
    {{"|"}, {AOP_BITOR}},
    {{"^"}, {AOP_BITXOR}},
    {{"&"}, {AOP_BITAND}},
    {{"<<", ">>"}, {AOP_LSHIFT, AOP_RSHIFT}},
    {{"+", "-"}, {AOP_ADD, AOP_SUB}},
    {{"*", "/", "//", "%", "@"}, {AOP_MUL, AOP_DIV, AOP_FLOORDIV, AOP_MOD, AOP_MATMUL}},
};

/* Each link of a chain (a + b + c) nests the tree one level deeper, and
 * later stages walk the tree recursively, so links are bounded too, but
 * apart from parentheses and blocks and more loosely (PARSE_MAX_LINKS):
 * CPython accepts a flat sum of hundreds of terms. */
static Node *binary_level(Parser *p, int level) {
  if (level == (int)(sizeof levels / sizeof *levels))
    return factor(p);
  int depth = p->depth, links = p->links;
  Node *lhs = binary_level(p, level + 1);
  for (;;) {
    Token *t = parse_peek(p);
    int i = 0;
    while (i < 5 && levels[level].ops[i] && !parse_equal(t, levels[level].ops[i]))
      i++;
    if (i == 5 || !levels[level].ops[i] || t->kind != TK_OP) {
      p->depth = depth;
      p->links = links;
      return lhs;
    }
    parse_next(p);
    if (++p->links > PARSE_MAX_LINKS)
      parse_fail(p, t, E_TOO_DEEP, "split the expression into smaller pieces (partial sums)",
                 "more than %d binary operators chained in one expression", PARSE_MAX_LINKS);
    Node *rhs = binary_level(p, level + 1);
    lhs = new_binary(p, ND_BINOP, levels[level].aops[i], lhs, rhs, t);
  }
}

static Node *bitwise_or(Parser *p) { return binary_level(p, 0); }

/* factor: ('+' | '-' | '~') factor | power
 * power: await_primary ['**' factor]
 * await_primary: 'await' primary | primary */
static Node *factor(Parser *p) {
  Token *t = parse_peek(p);
  AstOp op = parse_equal(t, "-") ? AOP_NEG : parse_equal(t, "+") ? AOP_POS : AOP_INVERT;
  if (t->kind == TK_OP && (parse_equal(t, "-") || parse_equal(t, "+") || parse_equal(t, "~"))) {
    parse_next(p);
    parse_enter(p, t);
    Node *n = parse_new(p, ND_UNARY, t->loc);
    n->op = op;
    n->oploc = t->loc;
    n->lhs = factor(p);
    n->loc = loc_span(t->loc, n->lhs->loc);
    p->depth--;
    return n;
  }
  Node *base;
  if (parse_consume(p, "await")) {
    base = parse_new(p, ND_YIELD, t->loc);
    base->name = "await";
    base->lhs = primary(p);
  } else {
    base = primary(p);
  }
  Token *op2 = parse_peek(p);
  if (!parse_consume(p, "**"))
    return base;
  parse_enter(p, op2);
  Node *n = new_binary(p, ND_BINOP, AOP_POW, base, factor(p), op2);
  p->depth--;
  return n;
}

/* slice: [expression] ':' [expression] [':' [expression]] | named_expression | starred */
static Node *slice(Parser *p) {
  Token *t = parse_peek(p);
  Node *lo = NULL;
  if (parse_equal(t, "*"))
    return star_expression(p);
  if (!parse_equal(t, ":")) {
    lo = parse_named_expr(p);
    if (!parse_equal(parse_peek(p), ":"))
      return lo;
  }
  Node *n = parse_new(p, ND_SLICE, lo ? lo->loc : t->loc);
  n->lhs = lo;
  Token *last = parse_expect(p, ":");
  if (!parse_equal(parse_peek(p), ":") && parse_starts_expr(parse_peek(p)))
    n->rhs = parse_expr(p);
  if (parse_equal(parse_peek(p), ":")) {
    last = parse_next(p);
    if (parse_starts_expr(parse_peek(p)))
      n->third = parse_expr(p);
  }
  Node *end = n->third ? n->third : n->rhs;
  n->loc = loc_span(n->loc, end ? end->loc : last->loc);
  return n;
}

/* slices: slice (',' slice)* [','] */
static Node *slices(Parser *p) {
  Node *first = slice(p);
  if (!parse_equal(parse_peek(p), ","))
    return first;
  NodeList items = {0};
  vec_push(p->arena, &items, first);
  while (parse_consume(p, ",") && !parse_equal(parse_peek(p), "]"))
    parse_push(p, &items, slice(p));
  return make_tuple(p, items, first->loc);
}

/* for_if_clauses: (['async'] 'for' star_targets 'in' disjunction ('if' disjunction)*)+
 * Each clause becomes an ND_FOR: lhs target, rhs iterable, args conditions. */
static void for_if_clauses(Parser *p, Node *comp) {
  while (parse_equal(parse_peek(p), "for") || parse_equal(parse_peek(p), "async")) {
    parse_consume(p, "async");
    Token *t = parse_expect(p, "for");
    Node *f = parse_new(p, ND_FOR, t->loc);
    f->lhs = parse_star_targets(p);
    parse_expect(p, "in");
    f->rhs = parse_disjunction(p);
    while (parse_consume(p, "if"))
      parse_push(p, &f->args, parse_disjunction(p));
    vec_push(p->arena, &comp->args, f);
  }
}

static Node *comprehension(Parser *p, const char *what, Node *elt, SrcLoc loc) {
  Node *n = parse_new(p, ND_COMPREHENSION, loc);
  n->str = what;
  n->lhs = elt;
  for_if_clauses(p, n);
  return n;
}

/* args: arg (',' arg)* [',']
 * arg: '*' expression | '**' expression | NAME '=' expression
 *    | named_expression [for_if_clauses]            (generator argument) */
static void call_args(Parser *p, Node *call) {
  bool kw = false, kwunpack = false;
  while (!parse_equal(parse_peek(p), ")")) {
    Token *t = parse_peek(p);
    if (parse_consume(p, "*") || parse_consume(p, "**")) {
      Node *e = parse_new(p, parse_equal(t, "*") ? ND_STARRED : ND_KEYWORD, t->loc);
      e->lhs = parse_expr(p);
      e->loc = loc_span(t->loc, e->lhs->loc);
      if (e->kind == ND_STARRED && kwunpack)
        parse_fail(p, t, E_BAD_ARGS, NULL, "iterable argument unpacking follows keyword argument unpacking");
      vec_push(p->arena, e->kind == ND_STARRED ? &call->args : &call->args2, e);
      kwunpack |= e->kind == ND_KEYWORD;
    } else if (t->kind == TK_NAME && parse_equal(parse_peek_at(p, 1), "=")) {
      parse_next(p), parse_next(p);
      Node *e = parse_new(p, ND_KEYWORD, t->loc);
      e->name = t->text;
      e->lhs = parse_expr(p);
      e->loc = loc_span(t->loc, e->lhs->loc);
      vec_push(p->arena, &call->args2, e);
      kw = true;
    } else {
      Node *e = parse_named_expr(p);
      if (parse_equal(parse_peek(p), "for"))
        e = comprehension(p, "generator", e, e->loc);
      if (kw || kwunpack)
        parse_fail(p, t, E_BAD_ARGS, NULL, kwunpack ? "positional argument follows keyword argument unpacking"
                                                    : "positional argument follows keyword argument");
      vec_push(p->arena, &call->args, e);
    }
    if (!parse_consume(p, ","))
      break;
  }
}

/* primary: atom ('.' NAME | '(' [args] ')' | '[' slices ']')* */
static Node *atom(Parser *p);

static Node *primary(Parser *p) {
  int depth = p->depth;
  Node *n = atom(p);
  for (;;) {
    Token *t = parse_peek(p);
    if (parse_equal(t, ".") || parse_equal(t, "(") || parse_equal(t, "["))
      parse_enter(p, t);
    if (parse_consume(p, ".")) {
      Token *name = parse_peek(p);
      if (name->kind != TK_NAME)
        parse_fail(p, name, E_SYNTAX, NULL, "invalid syntax");
      parse_next(p);
      Node *a = parse_new(p, ND_ATTR, loc_span(n->loc, name->loc));
      a->lhs = n, a->name = name->text, a->oploc = name->loc;
      n = a;
    } else if (parse_consume(p, "(")) {
      Node *c = parse_new(p, ND_CALL, n->loc);
      c->lhs = n, c->oploc = t->loc;
      call_args(p, c);
      c->loc = loc_span(n->loc, parse_expect(p, ")")->loc);
      n = c;
    } else if (parse_consume(p, "[")) {
      Node *s = parse_new(p, ND_SUBSCRIPT, n->loc);
      s->lhs = n, s->oploc = t->loc;
      s->rhs = slices(p);
      s->loc = loc_span(n->loc, parse_expect(p, "]")->loc);
      n = s;
    } else {
      p->depth = depth;
      return n;
    }
  }
}

/* strings: STRING+   (adjacent literals concatenated) */
static Node *strings(Parser *p) {
  Token *t = parse_next(p);
  Node *n = parse_new(p, ND_STR, t->loc);
  n->bytes = t->bytes, n->fstring = t->fstring, n->bodycol = t->bodycol;
  StrBuf sb;
  sb_init(&sb);
  sb_putn(&sb, t->str, t->strlen);
  while (parse_peek(p)->kind == TK_STRING) {
    Token *u = parse_next(p);
    if (u->bytes != n->bytes) {
      sb_free(&sb);
      parse_fail(p, u, E_SYNTAX, NULL, "cannot mix bytes and nonbytes literals");
    }
    n->fstring |= u->fstring;
    n->bodycol = 0; /* concatenated: offsets no longer map to one column */
    sb_putn(&sb, u->str, u->strlen);
    n->loc = loc_span(n->loc, u->loc);
  }
  n->strlen = sb.len;
  n->str = arena_strndup(p->arena, sb.data ? sb.data : "", sb.len);
  sb_free(&sb);
  return n;
}

/* star_named_expression: '*' bitwise_or | named_expression */
static Node *star_named_expr(Parser *p) {
  if (parse_equal(parse_peek(p), "*"))
    return star_expression(p);
  return parse_named_expr(p);
}

/* Elements of a display up to the closer: (star_named_expression ',')* */
static void display_items(Parser *p, Node *n, const char *closer) {
  while (parse_consume(p, ",") && !parse_equal(parse_peek(p), closer))
    parse_push(p, &n->args, star_named_expr(p));
}

/* group | tuple | genexp:
 *   '(' [yield_expr | star_named_expression [for_if_clauses | ',' [star_named_expressions]]] ')' */
static Node *paren(Parser *p, Token *open) {
  if (parse_equal(parse_peek(p), ")")) {
    Node *n = parse_new(p, ND_TUPLE, loc_span(open->loc, parse_next(p)->loc));
    return n;
  }
  if (parse_equal(parse_peek(p), "yield")) {
    Node *y = parse_yield_expr(p);
    parse_expect(p, ")");
    return y;
  }
  Node *first = star_named_expr(p), *n = first;
  if (parse_equal(parse_peek(p), "for")) {
    n = comprehension(p, "generator", first, open->loc);
  } else if (parse_equal(parse_peek(p), ",")) {
    n = parse_new(p, ND_TUPLE, open->loc);
    vec_push(p->arena, &n->args, first);
    display_items(p, n, ")");
  }
  Token *close = parse_expect(p, ")");
  if (n != first)
    n->loc = loc_span(open->loc, close->loc);
  return n;
}

/* list | listcomp: '[' [star_named_expressions | named_expression for_if_clauses] ']' */
static Node *bracket(Parser *p, Token *open) {
  Node *n = parse_new(p, ND_LIST, open->loc);
  if (!parse_equal(parse_peek(p), "]")) {
    Node *first = star_named_expr(p);
    if (parse_equal(parse_peek(p), "for")) {
      n = comprehension(p, "list", first, open->loc);
    } else {
      vec_push(p->arena, &n->args, first);
      display_items(p, n, "]");
    }
  }
  n->loc = loc_span(open->loc, parse_expect(p, "]")->loc);
  return n;
}

/* kvpair: expression ':' expression | '**' bitwise_or   (key in args, value in args2;
 * for '**m' the key is NULL) */
static void kvpair(Parser *p, Node *n) {
  Node *k = NULL, *v;
  if (parse_consume(p, "**")) {
    v = bitwise_or(p);
  } else {
    k = parse_expr(p);
    parse_expect(p, ":");
    v = parse_expr(p);
  }
  vec_push(p->arena, &n->args, k);
  vec_push(p->arena, &n->args2, v);
}

/* dict | set | dictcomp | setcomp:
 *   '{' [kvpair (',' kvpair)* [','] | kvpair for_if_clauses
 *       | star_named_expressions | named_expression for_if_clauses] '}' */
static Node *brace(Parser *p, Token *open) {
  Node *n = parse_new(p, ND_DICT, open->loc);
  if (parse_equal(parse_peek(p), "}")) {
  } else if (parse_equal(parse_peek(p), "**")) {
    kvpair(p, n);
    while (parse_consume(p, ",") && !parse_equal(parse_peek(p), "}"))
      kvpair(p, n);
  } else {
    Node *first = star_named_expr(p);
    if (parse_consume(p, ":")) {
      Node *v = parse_expr(p);
      if (parse_equal(parse_peek(p), "for")) {
        n = comprehension(p, "dict", first, open->loc);
        n->rhs = v;
      } else {
        vec_push(p->arena, &n->args, first);
        vec_push(p->arena, &n->args2, v);
        while (parse_consume(p, ",") && !parse_equal(parse_peek(p), "}"))
          kvpair(p, n);
      }
    } else if (parse_equal(parse_peek(p), "for")) {
      n = comprehension(p, "set", first, open->loc);
    } else {
      n->kind = ND_SET;
      vec_push(p->arena, &n->args, first);
      display_items(p, n, "}");
    }
  }
  n->loc = loc_span(open->loc, parse_expect(p, "}")->loc);
  return n;
}

/* atom: NAME | 'True' | 'False' | 'None' | strings | NUMBER | '...'
 *     | (tuple | group | genexp) | (list | listcomp) | (dict | set | dictcomp | setcomp) */
static Node *atom(Parser *p) {
  Token *t = parse_peek(p);
  Node *n;
  switch (t->kind) {
  case TK_NAME:
    parse_next(p);
    n = parse_new(p, ND_NAME, t->loc);
    n->name = t->text;
    return n;
  case TK_INT:
    parse_next(p);
    n = parse_new(p, ND_INT, t->loc);
    n->ival = t->ival, n->big = t->big, n->huge = t->huge;
    return n;
  case TK_FLOAT:
    parse_next(p);
    n = parse_new(p, ND_FLOAT, t->loc);
    n->fval = t->fval, n->imag = t->imag;
    return n;
  case TK_STRING:
    return strings(p);
  default:
    break;
  }
  if (parse_equal(t, "True") || parse_equal(t, "False")) {
    parse_next(p);
    n = parse_new(p, ND_BOOL, t->loc);
    n->ival = parse_equal(t, "True");
    return n;
  }
  if (parse_consume(p, "None"))
    return parse_new(p, ND_NONE, t->loc);
  if (parse_consume(p, "..."))
    return parse_new(p, ND_ELLIPSIS, t->loc);
  if (t->kind == TK_OP && strchr("([{", t->text[0]) && !t->text[1]) {
    parse_next(p);
    parse_enter(p, t);
    n = t->text[0] == '(' ? paren(p, t) : t->text[0] == '[' ? bracket(p, t) : brace(p, t);
    p->depth--;
    return n;
  }
  if (t->kind == TK_INDENT)
    parse_fail(p, t, E_UNEXPECTED_INDENT, NULL, "unexpected indent");
  if (t->kind == TK_NEWLINE || t->kind == TK_EOF)
    parse_fail(p, t, E_SYNTAX, NULL, "invalid syntax");
  parse_fail(p, t, E_SYNTAX, NULL, "invalid syntax");
}
