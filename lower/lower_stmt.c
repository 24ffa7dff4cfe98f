/* lower_stmt.c - AST -> generic IR of a function body: statements,
 * locals, conditions, block termination and layout.
 *
 * Every Python variable is an IrLocal read and written with LOAD/STORE, so
 * control flow needs no SSA construction; hidden temporaries are "$tN".
 * Invariant on exit: every block ends with exactly one terminator (a body
 * that falls off its end returns void; dead blocks end in unreachable). */
#include "lower/lower_internal.h"

/* Statements after return/break/continue go to a fresh block nobody
 * branches to: still lowered, so their errors are reported. */
static void start_dead_block(Lower *L) { lower_set_block(L, lower_new_block(L)); }

/* --------------------------------------------------------- statements -- */

static void unsupported(Lower *L, SrcLoc loc, const char *what, const char *hint) {
  diag_error(L->d, E_UNSUPPORTED, loc, hint, "%s is not supported in kernels", what);
}

static void stmt_expr(Lower *L, const Node *s) {
  if (!s->lhs || s->lhs->kind == ND_STR || s->lhs->kind == ND_ELLIPSIS)
    return; /* docstrings and `...` are no-ops */
  lower_expr(L, s->lhs);
}

/* a = b = value: the value is evaluated once, then stored left to right.
 * `x, y = y, x` evaluates every right-hand element before any store. */
static void stmt_assign(Lower *L, const Node *s) {
  const Node *rhs = s->rhs;
  if (s->args.len == 1 && rhs && rhs->kind == ND_TUPLE && s->args.data[0] &&
      (s->args.data[0]->kind == ND_TUPLE || s->args.data[0]->kind == ND_LIST)) {
    const Node *t = s->args.data[0];
    if (t->args.len != rhs->args.len) {
      diag_error(L->d, E_TARGET, s->loc, NULL,
                 "cannot unpack %d values into %d targets", rhs->args.len, t->args.len);
      return;
    }
    int *vals = arena_alloc(L->a, sizeof(int) * (size_t)(rhs->args.len + 1));
    for (int i = 0; i < rhs->args.len; i++)
      vals[i] = lower_expr(L, rhs->args.data[i]);
    for (int i = 0; i < t->args.len; i++)
      lower_assign_to(L, t->args.data[i], vals[i]);
    return;
  }
  int v = lower_expr(L, rhs);
  for (int i = 0; i < s->args.len; i++)
    lower_assign_to(L, s->args.data[i], v);
}

/* x op= v, a[i] op= v: the array and its index are evaluated once. */
static void stmt_augassign(Lower *L, const Node *s) {
  const Node *t = s->lhs;
  if (!t)
    return;
  if (t->kind == ND_NAME) {
    int old = lower_expr(L, t);
    int v = lower_expr(L, s->rhs);
    lower_assign_to(L, t, lower_binop(L, s->op, old, v, s->loc));
    return;
  }
  if (t->kind == ND_ATTR && t->lhs && !ir_resolve_path(L->lp, L->f, t)) { /* r.x += v */
    int base = lower_expr(L, t->lhs);
    if (base < 0)
      return;
    int old = lower_emit1(L, OP_REC_GET, t->loc, base);
    lower_inst(L, old)->str = arena_strdup(L->a, t->name ? t->name : "");
    int nv = lower_binop(L, s->op, old, lower_expr(L, s->rhs), s->loc);
    int ops[2] = {base, nv};
    int st = lower_emit(L, OP_REC_SET, s->loc, ops, 2);
    lower_inst(L, st)->str = lower_inst(L, old)->str;
    return;
  }
  if (t->kind != ND_SUBSCRIPT) {
    diag_error(L->d, E_TARGET, t->loc, NULL, "augmented assignment to a %s is not supported",
               ast_kind_name(t->kind));
    return;
  }
  int ops[1 + TY_MAX_NDIM];
  ops[0] = lower_expr(L, t->lhs);
  if (ops[0] < 0) { /* the base's error is out: check only the value */
    lower_expr(L, s->rhs);
    return;
  }
  int n = lower_index(L, t->rhs, ops + 1, TY_MAX_NDIM);
  int old = lower_emit(L, OP_ARRAY_LOAD, t->loc, ops, n + 1);
  int v = lower_expr(L, s->rhs);
  int nv = lower_binop(L, s->op, old, v, s->loc);
  int st[2 + TY_MAX_NDIM] = {ops[0], nv};
  for (int i = 0; i < n; i++)
    st[2 + i] = ops[1 + i];
  lower_emit(L, OP_ARRAY_STORE, s->loc, st, n + 2);
}

/* `if` on a compile-time constant (a module constant, a factory's frozen
 * argument: `if EDGE is not None:`) lowers only the branch taken, as Numba
 * prunes dead branches before typing: the other may call what is None. */
static bool stmt_if_const(Lower *L, const Node *s) {
  IrGlobal g;
  if (!ir_fold(L->lp, L->f, s->cond, &g, NULL) || !g.type ||
      !(g.type->kind == TY_NONE || g.type->kind == TY_BOOL || ty_is_int(g.type) ||
        ty_is_float(g.type)))
    return false;
  bool taken = g.type->kind == TY_NONE ? false : ty_is_float(g.type) ? g.fval != 0 : g.ival != 0;
  lower_stmts(L, taken ? &s->body : &s->orelse);
  return true;
}

static void stmt_if(Lower *L, const Node *s) {
  if (stmt_if_const(L, s))
    return;
  int then_b = lower_new_block(L), else_b = lower_new_block(L);
  int join = s->orelse.len ? lower_new_block(L) : else_b;
  lower_branch(L, s->cond, then_b, else_b, s->loc); /* lower_cond.c */
  lower_set_block(L, then_b);
  lower_stmts(L, &s->body);
  lower_br(L, join, s->loc);
  if (s->orelse.len) {
    lower_set_block(L, else_b);
    lower_stmts(L, &s->orelse);
    lower_br(L, join, s->loc);
  }
  lower_set_block(L, join);
}

/* Body of a loop with its break/continue targets. */
void lower_loop_body(Lower *L, const Node *s, int body_b, int cont, int exit_b) {
  LoopCtx ctx = {exit_b, cont, L->loop};
  L->loop = &ctx;
  lower_set_block(L, body_b);
  lower_stmts(L, &s->body);
  lower_br(L, cont, s->loc);
  L->loop = ctx.outer;
}

/* `else` runs only when the loop ends without break. */
void lower_loop_else(Lower *L, const Node *s, int exit_b, int else_b) {
  if (else_b != exit_b) {
    lower_set_block(L, else_b);
    lower_stmts(L, &s->orelse);
    lower_br(L, exit_b, s->loc);
  }
  lower_set_block(L, exit_b);
}

static void stmt_while(Lower *L, const Node *s) {
  int cond_b = lower_new_block(L), body_b = lower_new_block(L);
  int exit_b = lower_new_block(L);
  int else_b = s->orelse.len ? lower_new_block(L) : exit_b;
  lower_br(L, cond_b, s->loc);
  lower_set_block(L, cond_b);
  lower_branch(L, s->cond, body_b, else_b, s->loc); /* lower_cond.c */
  lower_loop_body(L, s, body_b, cond_b, exit_b);
  lower_loop_else(L, s, exit_b, else_b);
}

/* One range() bound: a compile-time int stays a constant (re-emitted where
 * used), anything else is cast to int64 once and kept in a hidden local. */
typedef struct RangeArg {
  bool is_const;
  int64_t value;
  int local;
} RangeArg;

static bool range_arg(Lower *L, const Node *n, RangeArg *out) {
  IrGlobal g;
  memset(out, 0, sizeof *out);
  if (ir_fold(L->lp, L->f, n, &g, NULL) && g.type && g.type->kind != TY_TUPLE) {
    if (ty_is_float(g.type)) {
      diag_error(L->d, E_BADARG, n->loc, NULL, "range() arguments must be integers, not float");
      return false;
    }
    out->is_const = true;
    out->value = g.ival;
    return true;
  }
  out->local = lower_temp(L, n->loc);
  lower_store(L, out->local, lower_cast(L, lower_expr(L, n), TY_I64_T, n->loc), n->loc);
  return true;
}

static int range_value(Lower *L, const RangeArg *r, SrcLoc loc) {
  return r->is_const ? lower_const_int(L, r->value, loc) : lower_load(L, r->local, loc);
}

static const Node *range_call(Lower *L, const Node *it) {
  bool is_range = it && it->kind == ND_CALL && it->lhs && it->lhs->kind == ND_NAME &&
                  strcmp(it->lhs->name, "range") == 0 &&
                  ir_local_find(L->f, "range") < 0 && !ir_resolve_path(L->lp, L->f, it->lhs);
  if (!is_range) {
    diag_error(L->d, E_LOOP, it ? it->loc : (SrcLoc){0},
               "iterate over indices instead: for i in range(len(a))",
               "only 'for ... in range(...)' loops are supported in kernels");
    return NULL;
  }
  if (it->args2.len) {
    diag_error(L->d, E_ARITY, it->loc, NULL, "range() takes no keyword arguments");
    return NULL;
  }
  if (it->args.len < 1 || it->args.len > 3) {
    diag_error(L->d, E_ARITY, it->loc, NULL, "range expected 1 to 3 arguments, got %d",
               it->args.len);
    return NULL;
  }
  return it;
}

/* The loop test for a step of 1 or -1: it < stop going up, it > stop
 * going down. */
static int range_test(Lower *L, int it_local, const RangeArg *stop, const RangeArg *step,
                      SrcLoc loc) {
  int it = lower_load(L, it_local, loc);
  return lower_emit2(L, step->value > 0 ? OP_LT : OP_GT, loc, it, range_value(L, stop, loc));
}

/* A step other than 1 or -1: the loop counts down len(range(...)),
 * computed once at entry as Numba's range iterator does, instead of testing
 * it against stop.  LLVM does not count `it += step` loops with a step of
 * unknown sign (grid-stride loops) nor, in practice, strided ones like
 * range(lane, n, 32), so it left them rolled; with a count it unrolls them
 * and the loads of several iterations are in flight at once (histogram on
 * an H200: 0.103 -> 0.044 ms).  The count is unsigned (a range may
 * hold up to 2^64 - 1 values) and x // 0 is 0, so a zero step runs no
 * iteration instead of looping forever. */
int lower_range_len(Lower *L, int start, int stop, int step, SrcLoc loc) {
  int pos = lower_emit2(L, OP_GT, loc, step, lower_const_int(L, 0, loc));
  int lo_a[3] = {pos, start, stop}, hi_a[3] = {pos, stop, start};
  int lo = lower_emit(L, OP_SELECT, loc, lo_a, 3);
  int hi = lower_emit(L, OP_SELECT, loc, hi_a, 3);
  int nonempty = lower_emit2(L, OP_GT, loc, hi, lo);
  int one = lower_cast(L, lower_const_int(L, 1, loc), TY_U64_T, loc);
  int span = lower_emit2(L, OP_SUB, loc, lower_cast(L, hi, TY_U64_T, loc),
                         lower_cast(L, lo, TY_U64_T, loc));
  int neg = lower_emit1(L, OP_NEG, loc, step);
  int mag_a[3] = {pos, step, neg};
  int mag = lower_cast(L, lower_emit(L, OP_SELECT, loc, mag_a, 3), TY_U64_T, loc);
  int n = lower_emit2(L, OP_ADD, loc,
                      lower_emit2(L, OP_FLOORDIV, loc, lower_emit2(L, OP_SUB, loc, span, one), mag),
                      one);
  int zero = lower_cast(L, lower_const_int(L, 0, loc), TY_U64_T, loc);
  int cnt_a[3] = {nonempty, n, zero};
  return lower_emit(L, OP_SELECT, loc, cnt_a, 3);
}

static int range_count(Lower *L, int it_local, const RangeArg *stop, const RangeArg *step,
                       SrcLoc loc) {
  int start = lower_load(L, it_local, loc);
  int stopv = range_value(L, stop, loc);
  int count = lower_temp(L, loc);
  lower_store(L, count, lower_range_len(L, start, stopv, range_value(L, step, loc), loc), loc);
  return count;
}

static bool is_range_call(Lower *L, const Node *it) {
  return it && it->kind == ND_CALL && it->lhs && it->lhs->kind == ND_NAME &&
         strcmp(it->lhs->name, "range") == 0 && ir_local_find(L->f, "range") < 0 &&
         !ir_resolve_path(L->lp, L->f, it->lhs);
}

static void stmt_for(Lower *L, const Node *s) {
  if (!is_range_call(L, s->rhs)) { /* arrays, tuples, zip, enumerate */
    lower_for_iter(L, s);
    return;
  }
  const Node *rc = range_call(L, s->rhs);
  if (!rc)
    return;
  if (!s->lhs || s->lhs->kind != ND_NAME) {
    diag_error(L->d, E_LOOP, s->lhs ? s->lhs->loc : s->loc, NULL,
               "the target of a range() loop must be a single name");
    return;
  }
  RangeArg start = {true, 0, -1}, stop, step = {true, 1, -1};
  int na = rc->args.len;
  bool ok = (na == 1 || range_arg(L, rc->args.data[0], &start)) &&
            range_arg(L, rc->args.data[na == 1 ? 0 : 1], &stop) &&
            (na < 3 || range_arg(L, rc->args.data[2], &step));
  if (!ok)
    return;
  if (step.is_const && step.value == 0) {
    diag_error(L->d, E_BADARG, rc->args.data[2]->loc, NULL, "range() arg 3 must not be zero");
    return;
  }
  SrcLoc loc = rc->loc;
  int it = start.is_const ? lower_temp(L, s->lhs->loc) : start.local; /* the counter */
  if (start.is_const)
    lower_store(L, it, range_value(L, &start, loc), loc);
  bool unit = step.is_const && (step.value == 1 || step.value == -1);
  int left = unit ? -1 : range_count(L, it, &stop, &step, loc);
  int cond_b = lower_new_block(L), body_b = lower_new_block(L);
  int incr_b = lower_new_block(L), exit_b = lower_new_block(L);
  int else_b = s->orelse.len ? lower_new_block(L) : exit_b;
  lower_br(L, cond_b, loc);
  lower_set_block(L, cond_b);
  int test = left < 0 ? range_test(L, it, &stop, &step, loc)
                      : lower_emit2(L, OP_NE, loc, lower_load(L, left, loc),
                                    lower_cast(L, lower_const_int(L, 0, loc), TY_U64_T, loc));
  lower_cbr(L, test, body_b, else_b, loc);
  lower_set_block(L, body_b);
  lower_assign_to(L, s->lhs, lower_load(L, it, s->lhs->loc));
  lower_loop_body(L, s, L->cur, incr_b, exit_b);
  lower_set_block(L, incr_b);
  int cur = lower_load(L, it, loc);
  int next = lower_emit2(L, OP_ADD, loc, cur, range_value(L, &step, loc));
  L->f->insts.data[next].ival = 1; /* cannot wrap: Python's range does not */
  lower_store(L, it, next, loc);
  if (left >= 0) {
    int one = lower_cast(L, lower_const_int(L, 1, loc), TY_U64_T, loc);
    lower_store(L, left, lower_emit2(L, OP_SUB, loc, lower_load(L, left, loc), one), loc);
  }
  lower_br(L, cond_b, loc);
  lower_loop_else(L, s, exit_b, else_b);
}

static void stmt_jump(Lower *L, const Node *s, bool is_break) {
  if (!L->loop) {
    diag_error(L->d, E_LOOP, s->loc, NULL, "'%s' outside loop", is_break ? "break" : "continue");
    return;
  }
  lower_br(L, is_break ? L->loop->brk : L->loop->cont, s->loc);
  start_dead_block(L);
}

static void stmt_return(Lower *L, const Node *s) {
  const Node *v = s->lhs; /* a kernel returning a value is a typing error:
                             the same def called from GPU code may return one */
  if (v && v->kind != ND_NONE) {
    int r = lower_expr(L, v);
    lower_emit1(L, OP_RET, s->loc, r);
  } else {
    lower_emit0(L, OP_RET, s->loc);
  }
  start_dead_block(L);
}

/* Brackets opened and not closed in text (strings not considered). */
static int open_brackets(const char *text) {
  int depth = 0;
  for (const char *c = text; *c; c++)
    depth += (*c == '(' || *c == '[' || *c == '{') - (*c == ')' || *c == ']' || *c == '}');
  return depth;
}

/* The AssertionError's text: a string literal message as written, else
 * (no message, an f-string, a number...) the statement's own source text,
 * which is then not evaluated.  A statement continued on further lines
 * gives its first line and " ...". */
static const char *assert_message(Lower *L, const Node *s) {
  const Node *m = s->rhs;
  if (m && m->kind == ND_STR && m->str && !m->fstring && !m->bytes)
    return m->str;
  const Node *last = m ? m : s->cond;
  SrcLoc all = last ? loc_span(s->loc, last->loc) : s->loc;
  const char *text = loc_text(L->a, all, false);
  bool cut = text && (all.len == s->loc.len || open_brackets(text) > 0);
  if (cut)
    text = loc_text(L->a, all, true);
  if (!text)
    return "assert";
  size_t n = strlen(text);
  while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t'))
    n--;
  return arena_printf(L->a, "%.*s%s", (int)n, text, cut ? " ..." : "");
}

/* assert cond [, msg]: checked only where the function's debug option is
 * on, which codegen decides (ops.h, ASSERT_ON); off, the cbr on assert.on
 * skips the condition, so nothing of it is evaluated or emitted. */
static void stmt_assert(Lower *L, const Node *s) {
  int check = lower_new_block(L), fail = lower_new_block(L), next = lower_new_block(L);
  lower_cbr(L, lower_emit0(L, OP_ASSERT_ON, s->loc), check, next, s->loc);
  lower_set_block(L, check);
  SrcLoc cl = s->cond ? s->cond->loc : s->loc;
  lower_cbr(L, lower_truth(L, lower_expr(L, s->cond), cl), next, fail, s->loc);
  lower_set_block(L, fail);
  lower_inst(L, lower_emit0(L, OP_ASSERT_FAIL, s->loc))->str =
      arena_printf(L->a, "AssertionError: %s", assert_message(L, s));
  lower_br(L, next, s->loc);
  lower_set_block(L, next);
}

/* One argument of a raised exception as Python's str() of the exception
 * shows it: a string literal as written (repr'd inside a tuple), a number
 * as its source text; NULL (after an error) for anything not constant. */
static const char *raise_arg(Lower *L, const Node *a, bool in_tuple) {
  IrGlobal g;
  if (a && a->kind == ND_STR && a->str && !a->fstring && !a->bytes)
    return in_tuple ? arena_printf(L->a, "'%s'", a->str) : a->str;
  if (a && a->kind != ND_STR && ir_fold(L->lp, L->f, a, &g, NULL) && g.type &&
      (ty_is_int(g.type) || ty_is_float(g.type) || g.type->kind == TY_BOOL)) {
    const char *t = loc_text(L->a, a->loc, false);
    return t ? t : "?";
  }
  diag_error(L->d, E_UNSUPPORTED, a ? a->loc : (SrcLoc){0},
             "Numba freezes an exception's arguments when compiling: use a string literal",
             "the arguments of a raised exception must be constants");
  return NULL;
}

/* The exception's text, "Class: message" (as its report shows it), or
 * NULL after an error.  `raise E` and `raise E(args)`, E a name. */
static const char *raise_text(Lower *L, const Node *e) {
  const Node *cls = e && e->kind == ND_CALL ? e->lhs : e;
  if (!cls || (cls->kind != ND_NAME && cls->kind != ND_ATTR) || !cls->name ||
      (cls->kind == ND_NAME && ir_local_find(L->f, cls->name) >= 0)) {
    diag_error(L->d, E_UNSUPPORTED, e ? e->loc : (SrcLoc){0},
               "raise an exception class by name: raise ValueError('message')",
               "raising an exception object held in a value is not supported");
    return NULL;
  }
  if (!e || e->kind != ND_CALL || e->args.len == 0)
    return cls->name;
  if (e->args2.len) {
    diag_error(L->d, E_UNSUPPORTED, e->args2.data[0]->loc, NULL,
               "keyword arguments of a raised exception are not supported");
    return NULL;
  }
  bool tuple = e->args.len > 1;
  const char *msg = tuple ? "(" : "";
  for (int i = 0; i < e->args.len; i++) {
    const char *a = raise_arg(L, e->args.data[i], tuple);
    if (!a)
      return NULL;
    msg = arena_printf(L->a, "%s%s%s", msg, i ? ", " : "", a);
  }
  return arena_printf(L->a, "%s: %s%s", cls->name, msg, tuple ? ")" : "");
}

/* raise E(args): numba-cuda's rule.  The thread ends (the kernel returns,
 * a device function's callers return too); with debug=True the exception
 * is reported first (codegen, cg_raise.c).  The code after it is dead. */
static void stmt_raise(Lower *L, const Node *s) {
  if (!s->lhs) {
    diag_error(L->d, E_UNSUPPORTED, s->loc, "raise an exception class: raise ValueError('message')",
               "a bare 'raise' (re-raise) is not supported: kernels handle no exceptions");
    return;
  }
  if (s->rhs) {
    diag_error(L->d, E_UNSUPPORTED, s->rhs->loc, "drop the 'from' clause",
               "'raise ... from ...' is not supported in kernels");
    return;
  }
  const char *text = raise_text(L, s->lhs);
  if (!text)
    return;
  lower_inst(L, lower_emit0(L, OP_RAISE, s->loc))->str = text;
  lower_emit0(L, OP_UNREACHABLE, s->loc);
  start_dead_block(L);
}

static void stmt_unsupported(Lower *L, const Node *s) {
  switch (s->kind) {
  case ND_FUNCDEF:
    if (!lower_nested_def(L, s)) /* lower_nested.c; it reports why not */
      lower_assign_to(L, s, -1); /* binds the name as "already failed" */
    break;
  case ND_CLASS:
    unsupported(L, s->loc, "a class definition", NULL);
    lower_assign_to(L, s, -1); /* binds the name as "already failed" */
    break;
  case ND_TRY: unsupported(L, s->loc, "try", "exceptions are not supported on the GPU"); break;
  case ND_RAISE: stmt_raise(L, s); break;
  case ND_WITH: unsupported(L, s->loc, "a with statement", NULL); break;
  case ND_DEL: unsupported(L, s->loc, "del", NULL); break;
  case ND_GLOBAL: /* a nested def's nonlocals are its parameters (lower_nested.c):
                     one reaching here is in a module-level def, where Python
                     has no enclosing variable to bind */
    if (s->str && strcmp(s->str, "nonlocal") == 0)
      diag_error(L->d, E_UNDEFINED, s->args.len ? s->args.data[0]->loc : s->loc,
                 "nonlocal is for a function defined inside another one; module constants "
                 "need no declaration",
                 "no binding for nonlocal '%s' found",
                 s->args.len && s->args.data[0]->name ? s->args.data[0]->name : "?");
    else
      unsupported(L, s->loc, arena_printf(L->a, "'%s'", s->str ? s->str : "global"),
                  "module constants can be read without declaring them");
    break;
  case ND_IMPORT: unsupported(L, s->loc, "import inside a function", "import at module level"); break;
  case ND_MATCH: unsupported(L, s->loc, "match", "use if/elif/else"); break;
  case ND_ASYNC: unsupported(L, s->loc, "async", NULL); break;
  default: unsupported(L, s->loc, ast_kind_name(s->kind), NULL); break;
  }
}

static void lower_stmt(Lower *L, const Node *s) {
  switch (s->kind) {
  case ND_EXPR_STMT: stmt_expr(L, s); break;
  case ND_ASSIGN: stmt_assign(L, s); break;
  case ND_AUGASSIGN: stmt_augassign(L, s); break;
  case ND_ANNASSIGN:
    if (s->rhs)
      lower_assign_to(L, s->lhs, lower_expr(L, s->rhs));
    break;
  case ND_IF: stmt_if(L, s); break;
  case ND_WHILE: stmt_while(L, s); break;
  case ND_FOR: stmt_for(L, s); break;
  case ND_BREAK: stmt_jump(L, s, true); break;
  case ND_CONTINUE: stmt_jump(L, s, false); break;
  case ND_PASS: break;
  case ND_RETURN: stmt_return(L, s); break;
  case ND_ASSERT: stmt_assert(L, s); break;
  default: stmt_unsupported(L, s); break;
  }
}

void lower_stmts(Lower *L, const NodeList *body) {
  for (int i = 0; i < body->len; i++)
    if (body->data[i])
      lower_stmt(L, body->data[i]);
}

/* ------------------------------------------------------------- locals -- */

static void declare_target(Lower *L, const Node *t) {
  if (!t)
    return;
  if (t->kind == ND_NAME && t->name) {
    if (ir_local_find(L->f, t->name) < 0)
      ir_local_new(L->a, L->f, t->name, t->loc);
  } else if (t->kind == ND_TUPLE || t->kind == ND_LIST) {
    for (int i = 0; i < t->args.len; i++)
      declare_target(L, t->args.data[i]);
  } else if (t->kind == ND_STARRED) {
    declare_target(L, t->lhs);
  }
}

static void declare_body(Lower *L, const NodeList *body);

/* Python scoping: a name assigned anywhere in the function is local to it. */
static void declare_stmt(Lower *L, const Node *s) {
  switch (s->kind) {
  case ND_ASSIGN:
    for (int i = 0; i < s->args.len; i++)
      declare_target(L, s->args.data[i]);
    break;
  case ND_AUGASSIGN:
  case ND_ANNASSIGN: declare_target(L, s->lhs); break;
  case ND_FOR: declare_target(L, s->lhs); break;
  default: break;
  }
  declare_body(L, &s->body);
  declare_body(L, &s->orelse);
}

static void declare_body(Lower *L, const NodeList *body) {
  for (int i = 0; i < body->len; i++)
    if (body->data[i])
      declare_stmt(L, body->data[i]);
}

/* ------------------------------------------------------- termination -- */

static void mark_reachable(const IrFunc *f, int b, bool *seen) {
  if (b < 0 || b >= f->blocks.len || seen[b])
    return;
  seen[b] = true;
  if (!ir_block_terminated(f, b))
    return;
  const IrBlock *blk = &f->blocks.data[b];
  const Inst *t = &f->insts.data[blk->insts.data[blk->insts.len - 1]];
  if (t->op == OP_BR || t->op == OP_CBR)
    mark_reachable(f, t->target, seen);
  if (t->op == OP_CBR)
    mark_reachable(f, t->target2, seen);
}

/* Falling off the end of a reachable block returns None; dead blocks end
 * in unreachable (and are dropped by layout_blocks). */
static void terminate_blocks(Lower *L, SrcLoc end, const bool *seen) {
  for (int b = 0; b < L->f->blocks.len; b++) {
    if (ir_block_terminated(L->f, b))
      continue;
    lower_set_block(L, b);
    lower_emit0(L, seen[b] ? OP_RET : OP_UNREACHABLE, end);
  }
}

static int first_inst(const IrFunc *f, int b) {
  return f->blocks.data[b].insts.len ? f->blocks.data[b].insts.data[0] : 1 << 30;
}

/* Keep the reachable blocks, entry first, then in the order their code was
 * emitted (join blocks are created early but filled late), so the printed
 * IR reads top to bottom like the source. */
static void layout_blocks(Lower *L, const bool *seen) {
  IrFunc *f = L->f;
  int n = f->blocks.len, kept = 0;
  int *order = arena_alloc(L->a, sizeof(int) * (size_t)n);
  int *newid = arena_alloc(L->a, sizeof(int) * (size_t)n);
  for (int b = 0; b < n; b++) {
    if (!seen[b])
      continue;
    int k = kept++;
    while (k > 1 && first_inst(f, order[k - 1]) > first_inst(f, b)) {
      order[k] = order[k - 1];
      k--;
    }
    order[k] = b;
  }
  IrBlock *blocks = arena_alloc(L->a, sizeof(IrBlock) * (size_t)(kept + 1));
  for (int k = 0; k < kept; k++) {
    blocks[k] = f->blocks.data[order[k]];
    newid[order[k]] = k;
  }
  for (int k = 0; k < kept; k++) {
    const IrBlock *blk = &blocks[k];
    Inst *t = &f->insts.data[blk->insts.data[blk->insts.len - 1]];
    if (t->op == OP_BR || t->op == OP_CBR)
      t->target = newid[t->target];
    if (t->op == OP_CBR)
      t->target2 = newid[t->target2];
  }
  f->blocks.data = blocks;
  f->blocks.len = f->blocks.cap = kept;
}

static void finish_blocks(Lower *L, SrcLoc end) {
  bool *seen = arena_alloc(L->a, (size_t)L->f->blocks.len + 1);
  mark_reachable(L->f, 0, seen);
  terminate_blocks(L, end, seen);
  layout_blocks(L, seen);
}

/* ---------------------------------------------------------- functions -- */

/* A parameter annotation that names a Numba type (`x: float32[:]`) constrains
 * the parameter; any other (`a: np.ndarray`, `n: int`, `Union[...]`, a
 * string) is ignored, as Numba ignores annotations: NULL, nothing reported. */
static const Type *annotation_type(LowerProg *lp, const Node *ann) {
  static const char *const python_types[] = {"int", "float", "bool", "complex", "object"};
  for (size_t i = 0; ann && ann->kind == ND_NAME && i < sizeof python_types / sizeof *python_types; i++)
    if (strcmp(ann->name, python_types[i]) == 0)
      return NULL; /* Python's own types: annotations Numba ignores */
  const Type *t = NULL;
  Diags quiet;
  diags_init(&quiet, lp->a);
  if (!ann || !ir_type_from_ast(lp->p, ann, &t, &quiet) || !t || t->kind == TY_VOID)
    return NULL;
  return t;
}

void lower_params(LowerProg *lp, IrFunc *f, const Func *fn) {
  bool any_ann = false;
  fn = f->ast = ir_strip_kwonly(lp, fn); /* a bare `*` dropped (lower_varargs.c) */
  for (int i = 0; i < fn->params.len; i++) {
    const Param *pm = &fn->params.data[i];
    if (pm->star)
      ir_check_star_param(lp, f, fn, i); /* *args of device functions: lower_varargs.c */
    else if (pm->deflt)
      ir_check_default(lp, pm); /* used at call sites (lower_contains.c) */
    ir_local_new(lp->a, f, pm->name ? pm->name : "$param", pm->loc);
    any_ann |= pm->annotation != NULL;
  }
  f->nparams = fn->params.len;
  if (!any_ann)
    return;
  f->annotations = arena_alloc(lp->a, sizeof(Type *) * (size_t)(f->nparams + 1));
  for (int i = 0; i < fn->params.len; i++)
    f->annotations[i] = annotation_type(lp, fn->params.data[i].annotation);
}

void lower_body(LowerProg *lp, IrFunc *f, const Func *fn) {
  Lower L = {0};
  L.lp = lp;
  L.p = lp->p;
  L.a = lp->a;
  L.d = lp->d;
  L.f = f;
  declare_body(&L, &fn->body);
  L.cur = lower_new_block(&L);
  lower_stmts(&L, &fn->body);
  SrcLoc end = fn->loc;
  if (fn->body.len && fn->body.data[fn->body.len - 1])
    end = fn->body.data[fn->body.len - 1]->loc;
  finish_blocks(&L, end);
}

IrFunc *ir_lower_nested_func(LowerProg *lp, const Func *fn, const char *name, const IrFunc *outer) {
  IrFunc *f = ir_func_new(lp->a, name);
  f->ast = fn;
  f->is_device = true;
  f->opts = outer->opts;
  f->generated = outer->generated;
  lower_params(lp, f, fn);
  lower_body(lp, f, fn);
  return f;
}

/* Lowers f's body; what it reports is kept on f (copied into the program's
 * arena) instead of failing the whole file: a kernel with an unsupported
 * construct does not stop the others, as in Numba, where a function's errors
 * come when it is compiled (ir_report_body_errors). */
void lower_body_deferred(LowerProg *lp, IrFunc *f) {
  Diags *d = lp->d;
  int from = d->list.len, errors = d->nerrors;
  lower_body(lp, f, f->ast);
  if (d->nerrors == errors)
    return;
  int n = d->list.len - from;
  Diag *kept = arena_alloc(lp->a, sizeof *kept * (size_t)n);
  for (int i = 0; i < n; i++) {
    kept[i] = d->list.data[from + i];
    kept[i].msg = arena_strdup(lp->a, kept[i].msg);
    kept[i].hint = kept[i].hint ? arena_strdup(lp->a, kept[i].hint) : NULL;
  }
  f->body_errors = kept;
  f->nbody_errors = n;
  d->list.len = from;
  d->nerrors = errors;
}

/* ---------------------------------------------------------- conditions --
 *
 * Branching on a condition, operand by operand.
 *
 * `if a and b:` jumps on a, then on b, as CPython's bytecode does (and so
 * Numba's IR): no value of `a and b` is formed.  Each operand is then its
 * own cbr, which typing can decide alone: `if lo is not None and x < lo:`
 * on a None lo drops the body before typing (typing/infer_is.c), as Numba's
 * branch pruning does.  Used by if, while and conditional expressions. */

void lower_branch(Lower *L, const Node *c, int t, int f, SrcLoc loc) {
  if (c && c->kind == ND_BOOLOP && c->args.len > 0) {
    for (int i = 0; i + 1 < c->args.len; i++) {
      int next = lower_new_block(L);
      if (c->op == AOP_AND)
        lower_branch(L, c->args.data[i], next, f, loc);
      else
        lower_branch(L, c->args.data[i], t, next, loc);
      lower_set_block(L, next);
    }
    lower_branch(L, c->args.data[c->args.len - 1], t, f, loc);
    return;
  }
  if (c && c->kind == ND_UNARY && c->op == AOP_NOT && c->lhs && c->lhs->kind == ND_BOOLOP) {
    lower_branch(L, c->lhs, f, t, loc); /* not (a and b): the targets swap */
    return;
  }
  lower_cbr(L, lower_truth(L, lower_expr(L, c), c ? c->loc : loc), t, f, loc);
}
