/* ast.c - names of AST operators and node kinds, and the AST dump.
 *
 * The dump is a stable, indented S-expression (one node per line, fields
 * labelled, locations as line:col) that the parser's golden tests compare;
 * changing its format means re-blessing tests/parse. */
#include "frontend/ast.h"

#include <stdio.h>

const char *ast_op_str(AstOp op) {
  static const char *const names[] = {
      [AOP_ADD] = "+", [AOP_SUB] = "-", [AOP_MUL] = "*", [AOP_MATMUL] = "@",
      [AOP_DIV] = "/", [AOP_FLOORDIV] = "//", [AOP_MOD] = "%", [AOP_POW] = "**",
      [AOP_LSHIFT] = "<<", [AOP_RSHIFT] = ">>", [AOP_BITAND] = "&", [AOP_BITOR] = "|",
      [AOP_BITXOR] = "^", [AOP_NEG] = "-", [AOP_POS] = "+", [AOP_INVERT] = "~",
      [AOP_NOT] = "not", [AOP_EQ] = "==", [AOP_NE] = "!=", [AOP_LT] = "<",
      [AOP_LE] = "<=", [AOP_GT] = ">", [AOP_GE] = ">=", [AOP_IS] = "is",
      [AOP_ISNOT] = "is not", [AOP_IN] = "in", [AOP_NOTIN] = "not in",
      [AOP_AND] = "and", [AOP_OR] = "or",
  };
  if ((unsigned)op < sizeof names / sizeof *names && names[op])
    return names[op];
  return "?";
}

/* Short tag used by the dump, and the human name used in messages. */
static const struct { const char *tag, *human; } kinds[] = {
    [ND_INT] = {"int", "integer literal"},
    [ND_FLOAT] = {"float", "float literal"},
    [ND_BOOL] = {"bool", "boolean literal"},
    [ND_NONE] = {"none", "None"},
    [ND_STR] = {"str", "string literal"},
    [ND_ELLIPSIS] = {"ellipsis", "ellipsis"},
    [ND_NAME] = {"name", "name"},
    [ND_ATTR] = {"attr", "attribute"},
    [ND_SUBSCRIPT] = {"subscript", "subscript"},
    [ND_SLICE] = {"slice", "slice"},
    [ND_CALL] = {"call", "function call"},
    [ND_KEYWORD] = {"keyword", "keyword argument"},
    [ND_STARRED] = {"starred", "starred expression"},
    [ND_BINOP] = {"binop", "binary operation"},
    [ND_UNARY] = {"unary", "unary operation"},
    [ND_BOOLOP] = {"boolop", "boolean operation"},
    [ND_COMPARE] = {"compare", "comparison"},
    [ND_IFEXP] = {"ifexp", "conditional expression"},
    [ND_TUPLE] = {"tuple", "tuple"},
    [ND_LIST] = {"list", "list literal"},
    [ND_DICT] = {"dict", "dict literal"},
    [ND_SET] = {"set", "set literal"},
    [ND_LAMBDA] = {"lambda", "lambda"},
    [ND_COMPREHENSION] = {"comprehension", "generator or comprehension"},
    [ND_YIELD] = {"yield", "yield expression"},
    [ND_NAMEDEXPR] = {"namedexpr", "assignment expression"},
    [ND_EXPR_STMT] = {"expr", "expression statement"},
    [ND_ASSIGN] = {"assign", "assignment"},
    [ND_AUGASSIGN] = {"augassign", "augmented assignment"},
    [ND_ANNASSIGN] = {"annassign", "annotated assignment"},
    [ND_IF] = {"if", "if statement"},
    [ND_WHILE] = {"while", "while loop"},
    [ND_FOR] = {"for", "for loop"},
    [ND_BREAK] = {"break", "break statement"},
    [ND_CONTINUE] = {"continue", "continue statement"},
    [ND_PASS] = {"pass", "pass statement"},
    [ND_RETURN] = {"return", "return statement"},
    [ND_FUNCDEF] = {"funcdef", "nested function definition"},
    [ND_CLASS] = {"class", "class definition"},
    [ND_TRY] = {"try", "try statement"},
    [ND_WITH] = {"with", "with statement"},
    [ND_RAISE] = {"raise", "raise statement"},
    [ND_ASSERT] = {"assert", "assert statement"},
    [ND_DEL] = {"del", "del statement"},
    [ND_GLOBAL] = {"global", "global/nonlocal statement"},
    [ND_IMPORT] = {"import", "import statement"},
    [ND_MATCH] = {"match", "match statement"},
    [ND_ASYNC] = {"async", "async statement"},
};

const char *ast_kind_name(NodeKind k) {
  if ((unsigned)k < sizeof kinds / sizeof *kinds && kinds[k].human)
    return kinds[k].human;
  return "expression";
}

static const char *kind_tag(NodeKind k) {
  if ((unsigned)k < sizeof kinds / sizeof *kinds && kinds[k].tag)
    return kinds[k].tag;
  return "?";
}

/* ---- dump ---- */

static void put_quoted(StrBuf *sb, const char *s, size_t n) {
  sb_putc(sb, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      sb_printf(sb, "\\%c", c);
    else if (c >= 0x20 && c < 0x7F)
      sb_putc(sb, (char)c);
    else
      sb_printf(sb, "\\x%02x", c);
  }
  sb_putc(sb, '"');
}

static void newline(StrBuf *sb, int indent) {
  sb_putc(sb, '\n');
  for (int i = 0; i < indent; i++)
    sb_putc(sb, ' ');
}

static void dump_node(const Node *n, StrBuf *sb, int indent);
static void dump_func(const Func *f, StrBuf *sb, int indent);

static void dump_list(const char *label, const NodeList *l, StrBuf *sb, int indent) {
  if (l->len == 0)
    return;
  newline(sb, indent);
  sb_printf(sb, "%s:", label);
  for (int i = 0; i < l->len; i++) {
    newline(sb, indent + 2);
    dump_node(l->data[i], sb, indent + 2);
  }
}

static void dump_child(const char *label, const Node *n, StrBuf *sb, int indent) {
  if (!n)
    return;
  newline(sb, indent);
  sb_printf(sb, "%s=", label);
  dump_node(n, sb, indent);
}

static void dump_attrs(const Node *n, StrBuf *sb) {
  switch (n->kind) {
  case ND_BINOP: case ND_UNARY: case ND_AUGASSIGN: case ND_BOOLOP:
    sb_printf(sb, " '%s'", ast_op_str(n->op));
    break;
  case ND_COMPARE:
    for (int i = 0; i < n->ops.len; i++)
      sb_printf(sb, " '%s'", ast_op_str((AstOp)n->ops.data[i]));
    break;
  case ND_INT:
    if (n->big)
      sb_puts(sb, " big");
    else
      sb_printf(sb, " %lld", (long long)n->ival);
    break;
  case ND_BOOL: sb_puts(sb, n->ival ? " True" : " False"); break;
  case ND_FLOAT: sb_printf(sb, " %.17g%s", n->fval, n->imag ? "j" : ""); break;
  case ND_STR:
    sb_printf(sb, "%s%s ", n->bytes ? " bytes" : "", n->fstring ? " fstring" : "");
    put_quoted(sb, n->str, n->strlen);
    break;
  default: break;
  }
  if (n->name)
    sb_printf(sb, " %s", n->name);
  if (n->str && n->kind != ND_STR)
    sb_printf(sb, " \"%s\"", n->str);
}

static void dump_node(const Node *n, StrBuf *sb, int indent) {
  if (!n) {
    sb_puts(sb, "nil");
    return;
  }
  sb_printf(sb, "(%s %d:%d", kind_tag(n->kind), n->loc.line, n->loc.col);
  dump_attrs(n, sb);
  dump_child("lhs", n->lhs, sb, indent + 2);
  dump_child("cond", n->cond, sb, indent + 2);
  dump_child("rhs", n->rhs, sb, indent + 2);
  dump_child("third", n->third, sb, indent + 2);
  dump_list("args", &n->args, sb, indent + 2);
  dump_list("args2", &n->args2, sb, indent + 2);
  dump_list("body", &n->body, sb, indent + 2);
  dump_list("orelse", &n->orelse, sb, indent + 2);
  if (n->func) {
    newline(sb, indent + 2);
    dump_func(n->func, sb, indent + 2);
  }
  sb_putc(sb, ')');
}

static void dump_func(const Func *f, StrBuf *sb, int indent) {
  sb_printf(sb, "(func %s %d:%d%s", f->name, f->loc.line, f->loc.col, f->host_only ? " host_only" : "");
  dump_list("decorators", &f->decorators, sb, indent + 2);
  for (int i = 0; i < f->params.len; i++) {
    const Param *pa = &f->params.data[i];
    newline(sb, indent + 2);
    sb_printf(sb, "(param %s%s %d:%d", pa->star ? "*" : "", pa->name, pa->loc.line, pa->loc.col);
    dump_child("annotation", pa->annotation, sb, indent + 4);
    dump_child("default", pa->deflt, sb, indent + 4);
    sb_putc(sb, ')');
  }
  dump_child("returns", f->returns, sb, indent + 2);
  dump_list("body", &f->body, sb, indent + 2);
  sb_putc(sb, ')');
}

void ast_dump_module(const Module *m, StrBuf *sb) {
  sb_puts(sb, "(module");
  for (int i = 0; i < m->imports.len; i++) {
    const Import *im = &m->imports.data[i];
    sb_printf(sb, "\n  (import %s name=%s alias=%s %d:%d)", im->module, im->name ? im->name : "-",
              im->alias, im->loc.line, im->loc.col);
  }
  for (int i = 0; i < m->globals.len; i++) {
    const GlobalAssign *g = &m->globals.data[i];
    sb_printf(sb, "\n  (global %s %d:%d", g->name, g->loc.line, g->loc.col);
    dump_child("value", g->value, sb, 4);
    sb_putc(sb, ')');
  }
  for (int i = 0; i < m->funcs.len; i++) {
    newline(sb, 2);
    dump_func(m->funcs.data[i], sb, 2);
  }
  sb_puts(sb, ")\n");
}

bool ast_is_int64_min(const Node *n) {
  const Node *x = n && n->kind == ND_UNARY && n->op == AOP_NEG ? n->lhs : NULL;
  return x && x->kind == ND_INT && x->big && x->ival == INT64_MIN; /* lex.c keeps 2**63 so */
}
