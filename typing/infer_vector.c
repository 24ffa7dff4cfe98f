/* infer_vector.c - typing of OP_VECTOR, the constructors of CUDA vector
 * types (cuda.float32x4(...)).
 *
 * numba-cuda gives each vector type one constructor case per way of filling
 * its n elements from numbers and smaller vectors of the same base type
 * (float32x4(float32x2, z, w), float32x4(float32x1, y, float32x2)...): the
 * vectors are taken whole, every number is converted to the base type (an
 * unsafe conversion, as for any concrete signature). */
#include "typing/typing_internal.h"

#define TN(t) ir_infer_tname(inf, (t))

static const Type *operand(const Infer *inf, const Inst *in, int k) {
  const Type *t = inf->f->insts.data[in->args[k]].type;
  return t && t->kind != TY_UNKNOWN ? t : NULL;
}

const Type *ir_infer_vector(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *vt = in->tyimm;
  if (!ty_is_vector(vt))
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: vector.make without a type");
  int count = 0;
  for (int k = 0; k < in->nargs; k++) {
    const Type *t = operand(inf, in, k);
    if (!t)
      return NULL;
    if (ty_is_vector(t) && t->elem == vt->elem) {
      count += t->nelems;
      continue;
    }
    if (!ty_is_number(t) || ty_is_complex(t))
      return ir_infer_fail(inf, idx, E_TY_INTRINSIC,
                           ty_is_vector(t) ? "convert the elements: a vector's parts must have its base type" : NULL,
                           "%s() does not take %s (argument %d)", TN(vt), TN(t), k + 1);
    if (need)
      need[k] = vt->elem;
    count++;
  }
  if (count != vt->nelems)
    return ir_infer_fail(inf, idx, E_TY_NARGS, NULL,
                         "%s() needs %d elements in all, got %d", TN(vt), vt->nelems, count);
  return vt;
}
