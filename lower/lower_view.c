/* lower_view.c - subscripts that make array views: slices (`a[1:]`,
 * `a[i, ::-1]`) and the index forms kjit rejects by name (`...`, None /
 * np.newaxis, lists).
 *
 * A subscript with a slice becomes one ARRAY_VIEW (ops.h): the array, then
 * per position one int operand or, for a slice, three (start, stop, step,
 * `none` where omitted), bit p of ival marking position p as a slice.
 * Partial integer indexing (`a[i]` of a 2-d array) is not visible here: it
 * stays an ARRAY_LOAD that typing rewrites into a view (infer_view.c). */
#include "lower/lower_internal.h"

/* The index forms kjit does not offer, by name; NULL when n is fine. */
static const char *rejected_index(Lower *L, const Node *n) {
  if (!n)
    return NULL;
  if (n->kind == ND_ELLIPSIS)
    return "indexing an array with '...' (Ellipsis)";
  if (n->kind == ND_NONE)
    return "indexing an array with None (np.newaxis)";
  if (n->kind == ND_LIST || n->kind == ND_COMPREHENSION)
    return "indexing an array with a list";
  const char *path = n->kind == ND_ATTR ? ir_resolve_path(L->lp, L->f, n) : NULL;
  if (path && strcmp(path, "numpy.newaxis") == 0)
    return "indexing an array with np.newaxis";
  return NULL;
}

bool lower_check_index(Lower *L, const Node *n) {
  const char *what = rejected_index(L, n);
  if (!what)
    return true;
  diag_error(L->d, E_NOTYET, n->loc, "index with integers and slices (a[i], a[1:n], a[:, j])",
             "%s is not supported", what);
  return false;
}

/* One slice component: omitted (or a literal None) is `none`. */
static int slice_part(Lower *L, const Node *n, SrcLoc loc) {
  if (!n || n->kind == ND_NONE) {
    int id = lower_emit0(L, OP_CONST_NONE, n ? n->loc : loc);
    lower_inst(L, id)->type = TY_NONE_T;
    return id;
  }
  return lower_expr(L, n);
}

/* A constant step of 0 is an error here (Python raises ValueError). */
static bool check_step(Lower *L, const Node *step) {
  IrGlobal g;
  if (!step || step->kind == ND_NONE || !ir_fold(L->lp, L->f, step, &g, NULL))
    return true;
  if (!g.type || !ty_is_int(g.type) || g.ival != 0)
    return true;
  diag_error(L->d, E_BADARG, step->loc, NULL, "slice step cannot be zero");
  return false;
}

/* base[ix] where ix holds at least one slice: one ARRAY_VIEW. */
int lower_view(Lower *L, const Node *ix, int base, SrcLoc loc) {
  const Node *one[1] = {ix};
  const Node *const *pos = ix->kind == ND_TUPLE ? (const Node *const *)ix->args.data : one;
  int npos = ix->kind == ND_TUPLE ? ix->args.len : 1;
  if (npos > 4) {
    diag_error(L->d, E_UNSUPPORTED, ix->loc, NULL, "arrays have 1 to 4 dimensions, not %d", npos);
    return -1;
  }
  int ops[1 + 3 * 4], n = 0;
  int64_t mask = 0;
  bool ok = true;
  ops[n++] = base;
  for (int p = 0; p < npos; p++) {
    const Node *e = pos[p];
    if (e && e->kind == ND_SLICE) {
      mask |= (int64_t)1 << p;
      ok &= check_step(L, e->third);
      ops[n++] = slice_part(L, e->lhs, e->loc);
      ops[n++] = slice_part(L, e->rhs, e->loc);
      ops[n++] = slice_part(L, e->third, e->loc);
    } else {
      ok &= lower_check_index(L, e);
      ops[n++] = ok ? lower_expr(L, e) : -1;
    }
  }
  if (!ok)
    return -1;
  int id = lower_emit(L, OP_ARRAY_VIEW, loc, ops, n);
  lower_inst(L, id)->ival = mask;
  return id;
}
