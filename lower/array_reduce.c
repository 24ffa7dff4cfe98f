/* array_reduce.c - whole-array reductions as Numba has them (numba-cuda's
 * np/arraymath.py): np.all, np.any, np.sum, np.prod, np.mean, np.var,
 * np.std, np.nansum, np.nanprod, np.nanmean, np.nanvar, np.nanstd,
 * np.count_nonzero, and the array methods a.all() ... a.std().
 *
 * Lowering makes one ARRAY_REDUCE (ival = the kind) over the array; typing
 * (infer_array_reduce.c) gives Numba's result type; codegen/cg_reduce.c loops over the elements in
 * C index order, as Numba's np.nditer loops do, so float sums round the
 * same way.  No axis= or dtype= (rejected by name). */
#include <string.h>

#include "lower/lower_internal.h"

static int find(const char *name, int last) {
  for (int k = 0; k <= last; k++)
    if (strcmp(name, ir_array_reduce_names[k]) == 0)
      return k;
  return -1;
}

static int emit(Lower *L, int kind, const Node *call, int arr, const char *what) {
  if (call->args2.len) {
    const Node *kw = call->args2.data[0];
    diag_error(L->d, E_NOTYET, kw->loc, "reduce the whole array (no axis= or dtype=)",
               "%s(%s=...) is not supported yet", what, kw->name ? kw->name : "**");
    return -1;
  }
  if (arr < 0)
    return -1;
  int v = lower_emit1(L, OP_ARRAY_REDUCE, call->loc, arr);
  lower_inst(L, v)->ival = kind;
  return v;
}

int lower_np_reduce(Lower *L, const char *path, const Node *call) {
  int kind = ir_starts_with(path, "numpy.") ? find(path + 6, AR__COUNT - 1) : -1;
  if (kind < 0)
    return -2;
  const char *what = arena_printf(L->a, "np.%s", path + 6);
  if (call->args.len != 1) {
    diag_error(L->d, call->args.len ? E_NOTYET : E_ARITY, call->loc,
               "reduce the whole array: np.sum(a)",
               call->args.len ? "%s() with an axis is not supported yet"
                              : "%s() takes an array",
               what);
    return -1;
  }
  return emit(L, kind, call, lower_expr(L, call->args.data[0]), what);
}

/* a.sum() ... a.std(): the methods Numba's arrays have (no nan*, no
 * count_nonzero).  Any object with such a method is lowered so; typing
 * says when it is not an array. */
int lower_reduce_method(Lower *L, const Node *call) {
  const Node *c = call->lhs;
  int kind = c->name ? find(c->name, AR_STD) : -1;
  if (kind < 0)
    return -2;
  const char *what = ir_dotted(L->a, c); /* "a.sum" */
  if (call->args.len) {
    diag_error(L->d, E_NOTYET, call->loc, "reduce the whole array: a.sum()",
               "%s() with an axis is not supported yet", what);
    return -1;
  }
  return emit(L, kind, call, lower_expr(L, c->lhs), what);
}
