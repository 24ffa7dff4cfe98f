/* toplevel_cond.c - the condition of a top-level `if` on module constants
 * (`if DOUBLE:`, `if N > 2 and MODE == "fast":`), decided as the file is
 * read, as Python decides it at import: literals, and names bound by the
 * module's top-level assignments read so far (the last one wins, and one
 * in a branch not taken was never read), through not/and/or, comparisons,
 * `is None` and integer and float arithmetic.  Anything else (a call, an
 * attribute, a name bound by an import or by host code) leaves the
 * statement undecided: it stays host code, skipped whole. */
#include <math.h>
#include <string.h>

#include "frontend/parser_internal.h"

typedef enum { CV_NONE, CV_BOOL, CV_INT, CV_FLOAT, CV_STR } CvKind;

typedef struct Cv {
  CvKind kind;
  int64_t i;      /* CV_BOOL, CV_INT */
  double f;       /* CV_FLOAT */
  const char *s;  /* CV_STR */
  size_t n;
} Cv;

#define CV_MAX_DEPTH 32 /* names bound to names bound to ... */

static bool eval(const Module *m, int upto, const Node *n, Cv *out, int depth);

static bool truthy(const Cv *v) {
  switch (v->kind) {
  case CV_NONE: return false;
  case CV_BOOL:
  case CV_INT: return v->i != 0;
  case CV_FLOAT: return v->f != 0.0;
  case CV_STR: return v->n != 0;
  }
  return false;
}

static bool is_number(const Cv *v) { return v->kind == CV_BOOL || v->kind == CV_INT || v->kind == CV_FLOAT; }
static double as_double(const Cv *v) { return v->kind == CV_FLOAT ? v->f : (double)v->i; }

/* The value of the last assignment to name among the first `upto` globals. */
static bool eval_name(const Module *m, int upto, const char *name, Cv *out, int depth) {
  for (int i = upto - 1; i >= 0; i--)
    if (m->globals.data[i].name && strcmp(m->globals.data[i].name, name) == 0)
      return eval(m, i, m->globals.data[i].value, out, depth + 1);
  return false;
}

static bool compare(AstOp op, const Cv *a, const Cv *b, bool *r) {
  if (op == AOP_IS || op == AOP_ISNOT) { /* only `x is None` is decided */
    if (a->kind != CV_NONE && b->kind != CV_NONE)
      return false;
    *r = (a->kind == b->kind) == (op == AOP_IS);
    return true;
  }
  int c;
  if (is_number(a) && is_number(b)) {
    if (a->kind != CV_FLOAT && b->kind != CV_FLOAT)
      c = a->i < b->i ? -1 : a->i > b->i;
    else {
      double x = as_double(a), y = as_double(b);
      if (isnan(x) || isnan(y)) {
        *r = op == AOP_NE;
        return op == AOP_EQ || op == AOP_NE || op == AOP_LT || op == AOP_LE || op == AOP_GT ||
               op == AOP_GE;
      }
      c = x < y ? -1 : x > y;
    }
  } else if (a->kind == CV_STR && b->kind == CV_STR) {
    size_t k = a->n < b->n ? a->n : b->n;
    c = memcmp(a->s, b->s, k);
    c = c ? (c < 0 ? -1 : 1) : (a->n < b->n ? -1 : a->n > b->n);
  } else if (op == AOP_EQ || op == AOP_NE) {
    c = !(a->kind == CV_NONE && b->kind == CV_NONE); /* different kinds: never equal */
  } else {
    return false;
  }
  switch (op) {
  case AOP_EQ: *r = c == 0; return true;
  case AOP_NE: *r = c != 0; return true;
  case AOP_LT: *r = c < 0; return true;
  case AOP_LE: *r = c <= 0; return true;
  case AOP_GT: *r = c > 0; return true;
  case AOP_GE: *r = c >= 0; return true;
  default: return false;
  }
}

static bool arith(AstOp op, const Cv *a, const Cv *b, Cv *out) {
  if (!is_number(a) || !is_number(b))
    return false;
  if (a->kind != CV_FLOAT && b->kind != CV_FLOAT && op != AOP_DIV) {
    int64_t x = a->i, y = b->i, r;
    switch (op) {
    case AOP_ADD: if (__builtin_add_overflow(x, y, &r)) return false; break;
    case AOP_SUB: if (__builtin_sub_overflow(x, y, &r)) return false; break;
    case AOP_MUL: if (__builtin_mul_overflow(x, y, &r)) return false; break;
    case AOP_FLOORDIV:
    case AOP_MOD:
      if (y == 0 || (x == INT64_MIN && y == -1))
        return false;
      r = op == AOP_FLOORDIV ? x / y - ((x % y != 0) && ((x < 0) != (y < 0)))
                             : x % y + ((x % y != 0 && ((x < 0) != (y < 0))) ? y : 0);
      break;
    default: return false;
    }
    *out = (Cv){.kind = CV_INT, .i = r};
    return true;
  }
  double x = as_double(a), y = as_double(b), r;
  switch (op) {
  case AOP_ADD: r = x + y; break;
  case AOP_SUB: r = x - y; break;
  case AOP_MUL: r = x * y; break;
  case AOP_DIV: if (y == 0) return false; r = x / y; break;
  default: return false;
  }
  *out = (Cv){.kind = CV_FLOAT, .f = r};
  return true;
}

static bool eval(const Module *m, int upto, const Node *n, Cv *out, int depth) {
  if (!n || depth > CV_MAX_DEPTH)
    return false;
  switch (n->kind) {
  case ND_NONE: *out = (Cv){.kind = CV_NONE}; return true;
  case ND_BOOL: *out = (Cv){.kind = CV_BOOL, .i = n->ival}; return true;
  case ND_INT:
    if (n->big)
      return false;
    *out = (Cv){.kind = CV_INT, .i = n->ival};
    return true;
  case ND_FLOAT:
    if (n->imag)
      return false;
    *out = (Cv){.kind = CV_FLOAT, .f = n->fval};
    return true;
  case ND_STR:
    if (n->bytes || n->fstring)
      return false;
    *out = (Cv){.kind = CV_STR, .s = n->str, .n = n->strlen};
    return true;
  case ND_NAME: return eval_name(m, upto, n->name, out, depth);
  case ND_UNARY: {
    Cv a;
    if (!eval(m, upto, n->lhs, &a, depth + 1))
      return false;
    if (n->op == AOP_NOT) {
      *out = (Cv){.kind = CV_BOOL, .i = !truthy(&a)};
      return true;
    }
    if ((n->op != AOP_NEG && n->op != AOP_POS) || !is_number(&a))
      return false;
    if (a.kind == CV_FLOAT)
      *out = (Cv){.kind = CV_FLOAT, .f = n->op == AOP_NEG ? -a.f : a.f};
    else if (n->op == AOP_NEG && a.i == INT64_MIN)
      return false;
    else
      *out = (Cv){.kind = CV_INT, .i = n->op == AOP_NEG ? -a.i : a.i};
    return true;
  }
  case ND_BINOP: {
    Cv a, b;
    return eval(m, upto, n->lhs, &a, depth + 1) && eval(m, upto, n->rhs, &b, depth + 1) &&
           arith(n->op, &a, &b, out);
  }
  case ND_BOOLOP: /* Python's value: the first operand that decides */
    for (int i = 0; i < n->args.len; i++) {
      if (!eval(m, upto, n->args.data[i], out, depth + 1))
        return false;
      if (i + 1 < n->args.len && truthy(out) == (n->op == AOP_OR))
        return true;
    }
    return n->args.len > 0;
  case ND_COMPARE: {
    Cv a, b;
    if (!eval(m, upto, n->args.data[0], &a, depth + 1))
      return false;
    for (int i = 0; i + 1 < n->args.len; i++) {
      bool r;
      if (!eval(m, upto, n->args.data[i + 1], &b, depth + 1) ||
          !compare((AstOp)n->ops.data[i], &a, &b, &r))
        return false;
      if (!r) {
        *out = (Cv){.kind = CV_BOOL, .i = 0};
        return true;
      }
      a = b;
    }
    *out = (Cv){.kind = CV_BOOL, .i = 1};
    return true;
  }
  default:
    return false;
  }
}

int toplevel_cond_value(const Module *m, const Node *cond) {
  Cv v;
  return eval(m, m->globals.len, cond, &v, 0) ? truthy(&v) : -1;
}
