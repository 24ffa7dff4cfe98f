/* reshape.c - a.reshape(shape): lowering and typing of ARRAY_RESHAPE.
 *
 * Numba (numba/core/typing/arraydecl.py, resolve_reshape) takes the shape
 * as ints (`a.reshape(4, 6)`) or one tuple of ints (`a.reshape((4, 6))`,
 * `a.reshape(t)`; np.reshape(a, shape) alike), and only a contiguous array: the result is a view of the
 * same data with the array's layout (C stays C).  kjit types F arrays as A,
 * so only C arrays are reshaped; an A array is rejected as Numba rejects a
 * non-contiguous one.  The shape's values are run-time values: one negative
 * entry is inferred (codegen/cg_reshape.c). */
#include "ir/infer.h"
#include "ir/lower_internal.h"

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

/* -------------------------------------------------------------- typing -- */

static const Type *arg_type(const Infer *inf, const Inst *in, int k) {
  const Type *t = inf->f->insts.data[in->args[k]].type;
  return t && t->kind != TY_UNKNOWN ? t : NULL;
}

/* The shape's operands: ndim (1..4), each cast to int64 (a tuple to a
 * UniTuple of int64); 0 while unknown, -1 after an error. */
static int shape_ndim(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *t1 = arg_type(inf, in, 1);
  if (!t1)
    return 0;
  if (in->nargs == 2 && t1->kind == TY_TUPLE) {
    for (int i = 0; i < t1->nelems; i++)
      if (!ty_is_int(t1->elems[i])) {
        ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "reshape() shape must hold integers, not %s",
                      ir_infer_tname(inf, t1->elems[i]));
        return -1;
      }
    if (t1->nelems < 1 || t1->nelems > 4) {
      ir_infer_fail(inf, idx, E_TY_INDEX, "give 1 to 4 dimensions",
                    "reshape() to %d dimensions is not supported (arrays have 1 to 4)", t1->nelems);
      return -1;
    }
    if (need)
      need[1] = ty_unituple(inf->tt, TY_I64_T, t1->nelems);
    return t1->nelems;
  }
  for (int k = 1; k < in->nargs; k++) {
    const Type *t = arg_type(inf, in, k);
    if (!t)
      return 0;
    if (!ty_is_int(t)) {
      ir_infer_fail(inf, idx, E_TY_INDEX, "pass ints, or one tuple of ints",
                    "reshape() arg cannot be %s", ir_infer_tname(inf, t));
      return -1;
    }
    if (need)
      need[k] = TY_I64_T;
  }
  return in->nargs - 1;
}

const Type *ir_infer_reshape(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *arr = in->nargs >= 2 ? arg_type(inf, in, 0) : NULL;
  if (!arr)
    return NULL;
  if (arr->kind != TY_ARRAY)
    return ir_infer_fail(inf, idx, E_TY_ATTR, NULL, "unknown attribute 'reshape' of type %s",
                         ir_infer_tname(inf, arr));
  if (arr->layout != LAYOUT_C)
    return ir_infer_fail(inf, idx, E_TY_ATTR,
                         "reshape a C-contiguous array (a float32[:, ::1] parameter, or "
                         "copy the elements first)",
                         "reshape() supports contiguous arrays only, not %s",
                         ir_infer_tname(inf, arr));
  int ndim = shape_ndim(inf, idx, need);
  if (ndim <= 0)
    return NULL;
  return arr->readonly ? ty_array_readonly(inf->tt, arr->elem, ndim, LAYOUT_C)
                       : ty_array(inf->tt, arr->elem, ndim, LAYOUT_C);
}
