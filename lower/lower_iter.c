/* lower_iter.c - for loops over anything but a bare range(): arrays (1-d:
 * elements, N-d: rows as views), tuples, enumerate(...) and zip(...).
 *
 * A tuple known to lowering (a literal, a module constant) is unrolled: the
 * body is lowered once per element, so elements may have different types.
 * Anything else is an indexed loop, `for i in range(n): x = it[i]`, the
 * iterable evaluated once into a hidden local and n its len(): typing makes
 * it[i] an element, a row view (ARRAY_VIEW) or, for a tuple held in a
 * variable or `a.shape`, a TUPLE_INDEX (homogeneous tuples only, as Numba).
 * enumerate and zip combine sources (iterables, ranges, or a nested
 * enumerate/zip giving tuples) over the shortest length; Numba's enumerate
 * counts in int64 (intp) from its start. */
#include "lower/lower_internal.h"

struct IterPlan;

/* One thing iterated: a range (start/step in int64 locals), a value, or a
 * nested enumerate/zip (its elements are tuples of its sources' elements). */
typedef struct IterSource {
  bool is_range;
  int value;            /* hidden local holding the iterable */
  int start, step;      /* range: hidden int64 locals */
  int len;              /* hidden int64 local: its number of elements */
  struct IterPlan *nested; /* enumerate(zip(...)), zip(enumerate(...), ...) */
} IterSource;

struct IterPlan {
  IterSource src[8];
  int nsrc;
  bool enumerate;       /* vals[0] is the count from `start` */
  int start;            /* enumerate: hidden int64 local */
};
typedef struct IterPlan IterPlan;

static bool plan_iter(Lower *L, const Node *it, struct IterPlan *p);
static int trip_count(Lower *L, const struct IterPlan *p, SrcLoc loc);
static int plan_values(Lower *L, const struct IterPlan *p, int i, SrcLoc loc, int *vals);

static bool is_builtin_call(Lower *L, const Node *n, const char *name) {
  return n && n->kind == ND_CALL && n->lhs && n->lhs->kind == ND_NAME &&
         strcmp(n->lhs->name, name) == 0 && ir_local_find(L->f, name) < 0 &&
         !ir_resolve_path(L->lp, L->f, n->lhs);
}

static int temp_of(Lower *L, int v, SrcLoc loc) {
  int t = lower_temp(L, loc);
  lower_store(L, t, v, loc);
  return t;
}

static int i64(Lower *L, const Node *n) { return lower_cast(L, lower_expr(L, n), TY_I64_T, n->loc); }

/* A range() source: its start, step and len (lower_range_len, as int64). */
static bool range_source(Lower *L, const Node *rc, IterSource *s) {
  int na = rc->args.len;
  if (na < 1 || na > 3 || rc->args2.len) {
    diag_error(L->d, E_ARITY, rc->loc, NULL, "range expected 1 to 3 positional arguments");
    return false;
  }
  SrcLoc loc = rc->loc;
  int start = na == 1 ? lower_const_int(L, 0, loc) : i64(L, rc->args.data[0]);
  int stop = i64(L, rc->args.data[na == 1 ? 0 : 1]);
  int step = na == 3 ? i64(L, rc->args.data[2]) : lower_const_int(L, 1, loc);
  IrGlobal g;
  if (na == 3 && ir_fold(L->lp, L->f, rc->args.data[2], &g, NULL) && g.ival == 0) {
    diag_error(L->d, E_BADARG, rc->args.data[2]->loc, NULL, "range() arg 3 must not be zero");
    return false;
  }
  s->is_range = true;
  s->start = temp_of(L, start, loc);
  s->step = temp_of(L, step, loc);
  s->len = temp_of(L, lower_cast(L, lower_range_len(L, start, stop, step, loc), TY_I64_T, loc), loc);
  return true;
}

static bool make_source(Lower *L, const Node *n, IterSource *s) {
  memset(s, 0, sizeof *s);
  if (is_builtin_call(L, n, "range"))
    return range_source(L, n, s);
  if (is_builtin_call(L, n, "zip") || is_builtin_call(L, n, "enumerate")) {
    if (++L->iter_depth > 4) { /* bounded: each level multiplies the temporaries */
      diag_error(L->d, E_NOTYET, n->loc, "loop over the arrays with one index",
                 "zip() and enumerate() nested more than 4 deep are not supported");
      L->iter_depth--;
      return false;
    }
    s->nested = arena_alloc(L->a, sizeof *s->nested);
    bool ok = plan_iter(L, n, s->nested);
    L->iter_depth--;
    if (!ok)
      return false;
    s->len = temp_of(L, trip_count(L, s->nested, n->loc), n->loc);
    return true;
  }
  int v = lower_expr(L, n);
  if (v < 0)
    return false;
  s->value = temp_of(L, v, n->loc);
  int len = lower_emit1(L, OP_ARRAY_SHAPE, n->loc, lower_load(L, s->value, n->loc));
  lower_inst(L, len)->ival = -2; /* len(): arrays and tuples (ops.h) */
  s->len = temp_of(L, len, n->loc);
  return true;
}

/* Element i of a source. */
static int source_elem(Lower *L, const IterSource *s, int i, SrcLoc loc) {
  if (s->nested) {
    int vals[9];
    int n = plan_values(L, s->nested, i, loc, vals);
    return lower_emit(L, OP_TUPLE, loc, vals, n);
  }
  if (s->is_range) {
    int off = lower_emit2(L, OP_MUL, loc, i, lower_load(L, s->step, loc));
    return lower_emit2(L, OP_ADD, loc, lower_load(L, s->start, loc), off);
  }
  return lower_emit2(L, OP_ARRAY_LOAD, loc, lower_load(L, s->value, loc), i);
}

/* Assign vals[0..n) to the target: element-wise when it unpacks them,
 * else as one tuple (`for t in enumerate(a)`). */
static void assign_values(Lower *L, const Node *t, const int *vals, int n, SrcLoc loc) {
  if (n == 1) {
    lower_assign_to(L, t, vals[0]);
    return;
  }
  if (t && (t->kind == ND_TUPLE || t->kind == ND_LIST) && t->args.len == n) {
    for (int k = 0; k < n; k++)
      lower_assign_to(L, t->args.data[k], vals[k]);
    return;
  }
  if (t && (t->kind == ND_TUPLE || t->kind == ND_LIST)) {
    diag_error(L->d, E_TARGET, t->loc, NULL, "cannot unpack %d values into %d targets", n, t->args.len);
    return;
  }
  lower_assign_to(L, t, lower_emit(L, OP_TUPLE, loc, vals, n));
}


static bool plan_iter(Lower *L, const Node *it, IterPlan *p) {
  memset(p, 0, sizeof *p);
  bool is_enum = is_builtin_call(L, it, "enumerate"), is_zip = is_builtin_call(L, it, "zip");
  if (!is_enum && !is_zip)
    return make_source(L, it, &p->src[p->nsrc++]);
  const char *name = is_enum ? "enumerate" : "zip";
  if (it->args2.len) {
    diag_error(L->d, E_ARITY, it->loc, is_enum ? "pass the start as the second argument" : NULL,
               "%s() takes no keyword arguments in kernels", name);
    return false;
  }
  int na = it->args.len;
  if (is_enum ? (na < 1 || na > 2) : (na < 1 || na > 8)) {
    diag_error(L->d, E_ARITY, it->loc, NULL, is_enum ? "enumerate() takes 1 or 2 arguments, got %d"
                                                     : "zip() takes 1 to 8 arguments, got %d", na);
    return false;
  }
  p->enumerate = is_enum;
  if (is_enum) {
    const Node *st = na == 2 ? it->args.data[1] : NULL;
    p->start = temp_of(L, st ? i64(L, st) : lower_const_int(L, 0, it->loc), it->loc);
    return make_source(L, it->args.data[0], &p->src[p->nsrc++]);
  }
  for (int k = 0; k < na; k++)
    if (!make_source(L, it->args.data[k], &p->src[p->nsrc++]))
      return false;
  return true;
}

/* The loop's trip count: the shortest source. */
static int trip_count(Lower *L, const IterPlan *p, SrcLoc loc) {
  int n = lower_load(L, p->src[0].len, loc);
  for (int k = 1; k < p->nsrc; k++) {
    int m = lower_load(L, p->src[k].len, loc);
    int sel[3] = {lower_emit2(L, OP_LT, loc, m, n), m, n};
    n = lower_emit(L, OP_SELECT, loc, sel, 3);
  }
  return n;
}

/* The values of step i: the count (enumerate), then each source's element. */
static int plan_values(Lower *L, const IterPlan *p, int i, SrcLoc loc, int *vals) {
  int nv = 0;
  if (p->enumerate)
    vals[nv++] = lower_emit2(L, OP_ADD, loc, lower_load(L, p->start, loc), i);
  for (int k = 0; k < p->nsrc; k++)
    vals[nv++] = source_elem(L, &p->src[k], i, loc);
  return nv;
}

static void indexed_loop(Lower *L, const Node *s, const IterPlan *p) {
  SrcLoc loc = s->rhs->loc;
  int n = temp_of(L, trip_count(L, p, loc), loc);
  int i = temp_of(L, lower_const_int(L, 0, loc), loc);
  int cond_b = lower_new_block(L), body_b = lower_new_block(L);
  int incr_b = lower_new_block(L), exit_b = lower_new_block(L);
  int else_b = s->orelse.len ? lower_new_block(L) : exit_b;
  lower_br(L, cond_b, loc);
  lower_set_block(L, cond_b);
  int c = lower_emit2(L, OP_LT, loc, lower_load(L, i, loc), lower_load(L, n, loc));
  lower_cbr(L, c, body_b, else_b, loc);
  lower_set_block(L, body_b);
  int vals[9];
  int nv = plan_values(L, p, lower_load(L, i, loc), loc, vals);
  assign_values(L, s->lhs, vals, nv, loc);
  lower_loop_body(L, s, L->cur, incr_b, exit_b);
  lower_set_block(L, incr_b);
  int next = lower_emit2(L, OP_ADD, loc, lower_load(L, i, loc), lower_const_int(L, 1, loc));
  lower_inst(L, next)->ival = 1; /* a counter below n: no wrap */
  lower_store(L, i, next, loc);
  lower_br(L, cond_b, loc);
  lower_loop_else(L, s, exit_b, else_b);
}

/* for x in (a, b, c): the body once per element (errors reported once). */
static void unrolled_loop(Lower *L, const Node *s, int tup) {
  SrcLoc loc = s->rhs->loc;
  const Inst *in = lower_inst(L, tup);
  int n = in->nargs, *elems = arena_alloc(L->a, sizeof(int) * (size_t)(n + 1));
  for (int k = 0; k < n; k++)
    elems[k] = temp_of(L, lower_inst(L, tup)->args[k], loc);
  int exit_b = lower_new_block(L);
  int else_b = s->orelse.len ? lower_new_block(L) : exit_b;
  int diags = L->d->list.len, nerrors = L->d->nerrors;
  for (int k = 0; k < n; k++) {
    int next = k + 1 < n ? lower_new_block(L) : else_b;
    int body = lower_new_block(L);
    lower_br(L, body, loc);
    lower_set_block(L, body);
    lower_assign_to(L, s->lhs, lower_load(L, elems[k], loc));
    lower_loop_body(L, s, L->cur, next, exit_b);
    lower_set_block(L, next);
    if (k == 0)
      diags = L->d->list.len, nerrors = L->d->nerrors;
    else
      L->d->list.len = diags, L->d->nerrors = nerrors;
  }
  if (n == 0)
    lower_br(L, else_b, loc);
  lower_loop_else(L, s, exit_b, else_b);
}

/* numba.literal_unroll(t) (also from numba.misc.special and
 * numba.cuda.misc.special): a tuple display or module tuple is unrolled
 * anyway, so the call is its argument. */
static const Node *strip_literal_unroll(Lower *L, const Node *it) {
  if (!it || it->kind != ND_CALL || it->args.len != 1 || it->args2.len)
    return it;
  const char *path = ir_resolve_path(L->lp, L->f, it->lhs);
  const char *dot = path ? strrchr(path, '.') : NULL;
  return dot && strcmp(dot, ".literal_unroll") == 0 && ir_starts_with(path, "numba.")
             ? it->args.data[0] : it;
}

/* A module tuple that did not fold as a constant because it holds
 * functions (`FNS = (twice, plus1)`, unrolled as Numba's literal_unroll
 * does): its display, whose names are read as module names; otherwise it
 * as is (a local of that name shadows the module one). */
static const Node *module_function_tuple(Lower *L, const Node *it) {
  if (!it || it->kind != ND_NAME || ir_local_find(L->f, it->name) >= 0 ||
      !ir_nonconst_find(L->lp, it->name))
    return it;
  const Node *v = ir_sig_resolve(L->p, it);
  if (!v || v->kind != ND_TUPLE)
    return it;
  for (int k = 0; k < v->args.len; k++) {
    const Node *e = v->args.data[k];
    if (!e || (e->kind != ND_NAME && e->kind != ND_ATTR) ||
        (e->kind == ND_NAME && ir_local_find(L->f, e->name) >= 0))
      return it;
  }
  return v;
}

void lower_for_iter(Lower *L, const Node *s) {
  const Node *it = module_function_tuple(L, strip_literal_unroll(L, s->rhs));
  bool special = is_builtin_call(L, it, "enumerate") || is_builtin_call(L, it, "zip");
  if (!special && it && it->kind != ND_CALL) {
    int v = lower_expr(L, it);
    if (v < 0)
      return;
    if (lower_inst(L, v)->op == OP_TUPLE) {
      unrolled_loop(L, s, v);
      return;
    }
    IterPlan p = {.nsrc = 1};
    p.src[0].value = temp_of(L, v, it->loc);
    int len = lower_emit1(L, OP_ARRAY_SHAPE, it->loc, lower_load(L, p.src[0].value, it->loc));
    lower_inst(L, len)->ival = -2;
    p.src[0].len = temp_of(L, len, it->loc);
    indexed_loop(L, s, &p);
    return;
  }
  IterPlan p;
  if (plan_iter(L, it, &p))
    indexed_loop(L, s, &p);
}
