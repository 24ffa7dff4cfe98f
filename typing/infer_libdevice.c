/* infer_libdevice.c - typing of OP_LIBDEVICE (cuda.libdevice.<f>).
 *
 * numba-cuda declares each libdevice function with one concrete signature,
 * so, as in Numba's overload resolution, every real operand is converted to
 * the declared parameter type (unsafe conversions included: a float64
 * passed to sinf is rounded to float32, a float to an int parameter is
 * truncated).  Pointer parameters become extra results: the function then
 * returns a tuple (return value first unless void, then the pointed-to
 * values in parameter order). */
#include "typing/typing_internal.h"
#include "ir/libdevice_fns.h"

#define TN(t) ir_infer_tname(inf, (t))

static const Type *operand(const Infer *inf, const Inst *in, int k) {
  const Type *t = inf->f->insts.data[in->args[k]].type;
  return t && t->kind != TY_UNKNOWN ? t : NULL;
}

/* The Python-level result type of libdevice function fn. */
static const Type *result_type(Infer *inf, int fn) {
  const LibdeviceInfo *li = &ir_libdevice_info[fn];
  const Type *el[4];
  int n = 0;
  if (li->ret[0] != 'v')
    el[n++] = ir_libdevice_type(li->ret[0]);
  for (const char *c = li->args; *c && n < 4; c++)
    if (*c == '*')
      el[n++] = ir_libdevice_type(*++c);
  return n == 1 ? el[0] : ty_tuple(inf->tt, el, n);
}

const Type *ir_infer_libdevice(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  int fn = (int)in->ival;
  if (fn < 0 || fn >= LD__COUNT || in->nargs != ir_libdevice_nparams(fn) || in->nargs > 4)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: bad libdevice call");
  const char *c = ir_libdevice_info[fn].args;
  for (int k = 0; k < in->nargs; k++, c++) {
    while (*c == '*')
      c += 2;
    const Type *t = operand(inf, in, k);
    if (!t)
      return NULL;
    if (!ty_is_number(t) || ty_is_complex(t))
      return ir_infer_fail(inf, idx, E_TY_INTRINSIC,
                           t->kind == TY_ARRAY ? "pass one element: libdevice.f(a[i])" : NULL,
                           "libdevice.%s() does not support %s (argument %d takes %s)",
                           ir_libdevice_info[fn].name, TN(t), k + 1, TN(ir_libdevice_type(*c)));
    if (need)
      need[k] = ir_libdevice_type(*c);
  }
  return result_type(inf, fn);
}
