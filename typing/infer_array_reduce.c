/* infer_array_reduce.c - typing of ARRAY_REDUCE, the whole-array reductions
 * (np.sum(a), a.mean(), ...; lowered by array_reduce.c): Numba's result
 * types (numba-cuda's np/arraymath.py), float16 and complex arrays refused. */
#include "typing/typing_internal.h"

/* Numba's _expand_integer: ints widen to 64 bits keeping the sign; a bool
 * sums as intp. */
static const Type *expand(const Type *e) {
  if (e == TY_BOOL_T)
    return TY_I64_T;
  if (ty_is_int(e))
    return ty_is_signed(e) ? TY_I64_T : TY_U64_T;
  return e;
}

const Type *ir_infer_array_reduce(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *a = in->args[0] >= 0 ? inf->f->insts.data[in->args[0]].type : NULL;
  const char *name = ir_array_reduce_names[in->ival];
  if (!a)
    return NULL;
  if (a->kind != TY_ARRAY)
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC, NULL, "%s() needs an array, not %s", name,
                         ir_infer_tname(inf, a));
  const Type *e = a->elem;
  if (ty_is_complex(e) || e->kind == TY_F16)
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC, "use a float32 or float64 array",
                         "%s() of a %s array is not supported yet", name, ir_infer_tname(inf, e));
  switch ((ArrayReduceKind)in->ival) {
  case AR_MIN: case AR_MAX: case AR_NANMIN: case AR_NANMAX: /* the element's type */
  case AR_ARGMIN: case AR_ARGMAX:
    if (e == TY_BOOL_T)
      return ir_infer_fail(inf, idx, E_TY_INTRINSIC, "use an integer or float array",
                           "%s() of a bool array is not supported yet", name);
    return in->ival == AR_ARGMIN || in->ival == AR_ARGMAX ? TY_I64_T : e;
  case AR_ALL: case AR_ANY: return TY_BOOL_T;
  case AR_COUNT_NONZERO: return TY_I64_T;
  case AR_SUM: case AR_PROD: return expand(e);
  case AR_NANSUM: case AR_NANPROD: /* Numba: integers give intp, others keep */
    return ty_is_int(e) || e == TY_BOOL_T ? TY_I64_T : e;
  default: return TY_F64_T; /* the means, variances and deviations */
  }
}
