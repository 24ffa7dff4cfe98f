/* reshape.c - a.reshape(shape): lowering of ARRAY_RESHAPE (typing:
 * infer_reshape.c).
 *
 * Numba (numba/core/typing/arraydecl.py, resolve_reshape) takes the shape
 * as ints (`a.reshape(4, 6)`) or one tuple of ints (`a.reshape((4, 6))`,
 * `a.reshape(t)`; np.reshape(a, shape) alike), and only a contiguous array: the result is a view of the
 * same data with the array's layout (C stays C).  kjit types F arrays as A,
 * so only C arrays are reshaped; an A array is rejected as Numba rejects a
 * non-contiguous one.  The shape's values are run-time values: one negative
 * entry is inferred (codegen/cg_reshape.c). */
#include "lower/lower_internal.h"

/* ------------------------------------------------------------ lowering -- */

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
  if (n == 0 || n > 4) {
    diag_error(L->d, E_ARITY, call->loc, "give 1 to 4 dimensions: a.reshape(n), a.reshape((rows, cols))",
               n ? "reshape() to %d dimensions is not supported (arrays have 1 to 4)"
                 : "reshape() needs the new shape", n);
    return -1;
  }
  int ops[5];
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
