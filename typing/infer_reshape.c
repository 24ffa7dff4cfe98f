/* infer_reshape.c - typing of ARRAY_RESHAPE (lowered by reshape.c): the
 * shape as ints or one tuple of ints, 1 to TY_MAX_NDIM dimensions, C arrays only
 * (Numba's resolve_reshape; kjit types F arrays as A); the result keeps
 * the array's element type, read-only flag and C layout. */
#include "typing/typing_internal.h"

static const Type *arg_type(const Infer *inf, const Inst *in, int k) {
  const Type *t = inf->f->insts.data[in->args[k]].type;
  return t && t->kind != TY_UNKNOWN ? t : NULL;
}

/* The shape's operands: ndim (1..TY_MAX_NDIM), each cast to int64 (a tuple to a
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
    if (t1->nelems < 1 || t1->nelems > TY_MAX_NDIM) {
      ir_infer_fail(inf, idx, E_TY_INDEX, "give 1 to 8 dimensions",
                    "reshape() to %d dimensions is not supported (arrays have 1 to 8)", t1->nelems);
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

static void set_need1(const Type **need, const Type *t) {
  if (need)
    need[1] = t;
}

/* carray(p, shape[, dtype]) / farray(...): Numba's numpy_support.carray
 * over a CPointer: the shape an int or a tuple of ints, a dtype (when
 * given) equal to the pointee's; a C array, or for farray an F one (typed
 * A, as kjit types F arrays; 1-d is C either way). */
static const Type *infer_carray(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const char *fn = in->ival == 2 ? "farray" : "carray";
  const Type *p = arg_type(inf, in, 0), *shape = arg_type(inf, in, 1);
  const Type *dt = in->nargs > 2 ? arg_type(inf, in, 2) : NULL;
  if (!p || !shape || (in->nargs > 2 && !dt))
    return NULL;
  if (p->kind != TY_PTR)
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC, "pass a raw pointer parameter (types.CPointer(T))",
                         "%s() takes a raw pointer, not %s", fn, ir_infer_tname(inf, p));
  if (dt && (dt->kind != TY_DTYPE || dt->elem != p->elem))
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC, "leave dtype out, or give the pointee's type",
                         "%s(): dtype %s does not match the pointer's %s", fn, ir_infer_tname(inf, dt),
                         ir_infer_tname(inf, p));
  int ndim = 1;
  if (ty_is_int(shape)) {
    set_need1(need, TY_I64_T);
  } else if (shape->kind == TY_TUPLE && shape->nelems >= 1 && shape->nelems <= TY_MAX_NDIM) {
    for (int i = 0; i < shape->nelems; i++)
      if (!ty_is_int(shape->elems[i]))
        return ir_infer_fail(inf, idx, E_TY_INTRINSIC, NULL, "%s(): the shape must hold integers, not %s",
                             fn, ir_infer_tname(inf, shape->elems[i]));
    ndim = shape->nelems;
    set_need1(need, ty_unituple(inf->tt, TY_I64_T, ndim));
  } else {
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC, "give an int or a tuple of 1 to 8 ints",
                         "%s(): the shape cannot be %s", fn, ir_infer_tname(inf, shape));
  }
  return ty_array(inf->tt, p->elem, ndim, in->ival == 2 && ndim > 1 ? LAYOUT_A : LAYOUT_C);
}

const Type *ir_infer_reshape(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  if (in->ival > 0)
    return infer_carray(inf, idx, need);
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
