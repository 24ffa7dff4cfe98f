/* lower_array.c - lowering of what is done to arrays beyond indexing:
 * views by slicing, reshape, and the whole-array reductions.
 *
 * Views: subscripts that make array views: slices (`a[1:]`,
 * `a[i, ::-1]`) and the index forms kjit rejects by name (`...`, None /
 * np.newaxis, lists).
 *
 * A subscript with a slice becomes one ARRAY_VIEW (ops.h): the array, then
 * per position one int operand or, for a slice, three (start, stop, step,
 * `none` where omitted), bit p of ival marking position p as a slice.
 * Partial integer indexing (`a[i]` of a 2-d array) is not visible here: it
 * stays an ARRAY_LOAD that typing rewrites into a view (infer_view.c). */
#include <string.h>

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
  if (npos > TY_MAX_NDIM) {
    diag_error(L->d, E_UNSUPPORTED, ix->loc, NULL, "arrays have 1 to %d dimensions, not %d",
               TY_MAX_NDIM, npos);
    return -1;
  }
  int ops[1 + 3 * TY_MAX_NDIM], n = 0;
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

/* a.reshape(shape): lowering of ARRAY_RESHAPE (typing:
 * infer_reshape.c).
 *
 * Numba (numba/core/typing/arraydecl.py, resolve_reshape) takes the shape
 * as ints (`a.reshape(4, 6)`) or one tuple of ints (`a.reshape((4, 6))`,
 * `a.reshape(t)`; np.reshape(a, shape) alike), and only a contiguous array: the result is a view of the
 * same data with the array's layout (C stays C).  kjit types F arrays as A,
 * so only C arrays are reshaped; an A array is rejected as Numba rejects a
 * non-contiguous one.  The shape's values are run-time values: one negative
 * entry is inferred (codegen/cg_reshape.c). */

/* a.reshape(d0, d1, ...) or a.reshape(shape): the array, then the shape's
 * operands as written (typing checks their kinds). */
int lower_reshape(Lower *L, const Node *call) {
  int base = lower_expr(L, call->lhs->lhs);
  if (base < 0)
    return -1;
  if (call->args2.len) {
    diag_error(L->d, E_ARITY, call->loc, "pass the shape by position: a.reshape((4, 6))",
               "reshape() takes no keyword arguments");
    return -1;
  }
  int n = call->args.len;
  if (n == 0 || n > TY_MAX_NDIM) {
    diag_error(L->d, E_ARITY, call->loc, "give 1 to 8 dimensions: a.reshape(n), a.reshape((rows, cols))",
               n ? "reshape() to %d dimensions is not supported (arrays have 1 to 8)"
                 : "reshape() needs the new shape", n);
    return -1;
  }
  int ops[1 + TY_MAX_NDIM];
  ops[0] = base;
  for (int i = 0; i < n; i++)
    if ((ops[i + 1] = lower_expr(L, call->args.data[i])) < 0)
      return -1;
  return lower_emit(L, OP_ARRAY_RESHAPE, call->loc, ops, n + 1);
}

/* The shape of np.reshape: the second positional argument, or shape= /
 * newshape= (NumPy 2.1 renamed it; Numba takes the installed NumPy's). */
static const Node *np_shape_arg(const Node *call) {
  if (call->args.len == 2 && !call->args2.len)
    return call->args.data[1];
  if (call->args.len != 1 || call->args2.len != 1)
    return NULL;
  const Node *kw = call->args2.data[0];
  return kw->name && (strcmp(kw->name, "shape") == 0 || strcmp(kw->name, "newshape") == 0) ? kw->lhs : NULL;
}

/* np.reshape(a, shape): Numba offers the array and the shape (no order=). */
int lower_np_reshape(Lower *L, const Node *call) {
  const Node *shape = np_shape_arg(call);
  if (!shape) {
    diag_error(L->d, E_ARITY, call->loc, "write np.reshape(a, (rows, cols))",
               "np.reshape() takes the array and the new shape");
    return -1;
  }
  int ops[2];
  if ((ops[0] = lower_expr(L, call->args.data[0])) < 0 || (ops[1] = lower_expr(L, shape)) < 0)
    return -1;
  return lower_emit(L, OP_ARRAY_RESHAPE, call->loc, ops, 2);
}

/* carray(ptr, shape, dtype=None) / farray(...) (numba.np.numpy_support,
 * also numba.carray): Numba's view of the memory behind a CPointer as an
 * array of the shape (an int or a tuple of ints) in C or Fortran order.
 * ARRAY_RESHAPE with ival 1 (C) or 2 (F): operands the pointer, the
 * shape, and the dtype when given (typing: infer_reshape.c). */
int lower_carray(Lower *L, const Node *call, bool fortran) {
  const char *fn = fortran ? "farray" : "carray";
  const Node *dtype = call->args.len == 3 ? call->args.data[2] : NULL;
  bool bad = call->args.len < 2 || call->args.len > 3 || call->args2.len > 1;
  if (!bad && call->args2.len == 1) {
    const Node *kw = call->args2.data[0];
    bad = dtype || !kw->name || strcmp(kw->name, "dtype") != 0;
    dtype = kw->lhs;
  }
  if (bad) {
    diag_error(L->d, E_ARITY, call->loc, "write carray(ptr, (rows, cols), dtype=np.float32)",
               "%s() takes a pointer, a shape and an optional dtype", fn);
    return -1;
  }
  int ops[3], n = dtype ? 3 : 2;
  if ((ops[0] = lower_expr(L, call->args.data[0])) < 0 ||
      (ops[1] = lower_expr(L, call->args.data[1])) < 0 || (dtype && (ops[2] = lower_expr(L, dtype)) < 0))
    return -1;
  int id = lower_emit(L, OP_ARRAY_RESHAPE, call->loc, ops, n);
  lower_inst(L, id)->ival = fortran ? 2 : 1;
  return id;
}

/* Whole-array reductions as Numba has them (numba-cuda's
 * np/arraymath.py): np.all, np.any, np.sum, np.prod, np.mean, np.var,
 * np.std, np.nansum, np.nanprod, np.nanmean, np.nanvar, np.nanstd, np.min, np.max,
 * np.argmin, np.argmax, np.nanmin, np.nanmax,
 * np.count_nonzero, and the array methods a.all() ... a.std().
 *
 * Lowering makes one ARRAY_REDUCE (ival = the kind) over the array; typing
 * (infer_array_reduce.c) gives Numba's result type; codegen/cg_reduce.c loops over the elements in
 * C index order, as Numba's np.nditer loops do, so float sums round the
 * same way.  No axis= or dtype= (rejected by name). */

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
  int kind = c->name ? find(c->name, AR__COUNT - 1) : -1;
  if (kind < 0 || (kind > AR_STD && kind != AR_MIN && kind != AR_MAX && kind != AR_ARGMIN &&
                   kind != AR_ARGMAX))
    return -2; /* a.min() a.argmax() are methods too; nan* and count_nonzero are not */
  const char *what = ir_dotted(L->a, c); /* "a.sum" */
  if (call->args.len) {
    diag_error(L->d, E_NOTYET, call->loc, "reduce the whole array: a.sum()",
               "%s() with an axis is not supported yet", what);
    return -1;
  }
  return emit(L, kind, call, lower_expr(L, c->lhs), what);
}
