/* infer_npmath.c - typing of OP_NPUFUNC: NumPy ufuncs on scalars, and of
 * OP_ARRAY_UFUNC: the same loops written into an out array.
 *
 * Numba types np.sin(x) & co. by NumPy's loop tables: the loops are tried
 * in NumPy's order and the first one every operand converts to with
 * np.can_cast(..., 'safe') wins (float16 loops are skipped, so float16
 * computes in float32).  When the operands mix integers with floats, any
 * integer may go to any float loop, so np.power(float32, int32) stays
 * float32 while np.sqrt(int32) is float64.  Arrays and complex numbers are
 * rejected: kernels apply ufuncs element by element. */
#include "typing/typing_internal.h"
#include "ir/npmath.h"

#define TN(t) ir_infer_tname(inf, (t))

static const Type *operand(const Infer *inf, const Inst *in, int k) {
  const Type *t = inf->f->insts.data[in->args[k]].type;
  return t && t->kind != TY_UNKNOWN ? t : NULL;
}

/* The kjit type of a NumPy loop letter. */
static const Type *letter_type(char c) {
  switch (c) {
  case '?': return TY_BOOL_T;
  case 'b': return TY_I8_T;  case 'B': return TY_U8_T;
  case 'h': return TY_I16_T; case 'H': return TY_U16_T;
  case 'i': return TY_I32_T; case 'I': return TY_U32_T;
  case 'l': return TY_I64_T; case 'L': return TY_U64_T;
  case 'f': return TY_F32_T; case 'd': return TY_F64_T;
  default: return NULL;
  }
}

/* np.can_cast(from, to, 'safe') for bool, ints and floats. */
static bool can_cast_safe(const Type *from, const Type *to) {
  if (from == to || from->kind == TY_BOOL)
    return true;
  if (to->kind == TY_BOOL)
    return false;
  int fb = ty_bits(from), tb = ty_bits(to);
  if (ty_is_float(to)) {
    if (ty_is_float(from))
      return fb <= tb;
    return tb == 64 || (tb == 32 && fb <= 16) || (tb == 16 && fb <= 8);
  }
  if (ty_is_float(from))
    return false;
  if (ty_is_signed(from))
    return ty_is_signed(to) && fb <= tb;
  return ty_is_signed(to) ? fb < tb : fb <= tb;
}

/* Numba's ufunc_can_cast: with mixed int/float operands, ints go to any float. */
static bool loop_accepts(const Type *from, const Type *to, bool mixed) {
  if (mixed && ty_is_int(from) && ty_is_float(to))
    return true;
  return can_cast_safe(from, to);
}

/* The first loop of u that takes every operand, or NULL. */
static const Type *pick_loop(int u, const Type *const *ts, int n) {
  bool any_int = false, any_float = false;
  for (int k = 0; k < n; k++) {
    any_int |= ty_is_int(ts[k]);
    any_float |= ty_is_float(ts[k]);
  }
  for (const char *c = ir_npufunc_info[u].loops; *c; c++) {
    const Type *lt = letter_type(*c);
    bool ok = lt != NULL;
    for (int k = 0; k < n && ok; k++)
      ok = loop_accepts(ts[k], lt, any_int && any_float);
    if (ok)
      return lt;
  }
  return NULL;
}

static const Type *bad_operand(Infer *inf, int idx, int u, const Type *t) {
  const char *hint = t->kind == TY_ARRAY
                         ? "kernels apply NumPy functions to one element at a time: np.sin(a[i])"
                     : ty_is_complex(t) ? "use cmath for complex numbers"
                                        : NULL;
  return ir_infer_fail(inf, idx, E_TY_INTRINSIC, hint, "np.%s() does not support %s",
                       ir_npufunc_info[u].name, TN(t));
}

const Type *ir_infer_npufunc(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  int u = (int)in->ival;
  if (u < 0 || u >= NU__COUNT || in->nargs != ir_npufunc_info[u].nin)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: bad ufunc call");
  const Type *ts[2];
  for (int k = 0; k < in->nargs; k++) {
    if (!(ts[k] = operand(inf, in, k)))
      return NULL;
    if (!ty_is_number(ts[k]) || ty_is_complex(ts[k]))
      return bad_operand(inf, idx, u, ts[k]);
  }
  const Type *lt = pick_loop(u, ts, in->nargs);
  if (!lt) { /* e.g. np.bitwise_and(float): name the operand no loop takes */
    int k = in->nargs == 2 && pick_loop(u, ts, 1) ? 1 : 0;
    return bad_operand(inf, idx, u, ts[k]);
  }
  for (int k = 0; need && k < in->nargs; k++)
    need[k] = lt;
  return ir_npufunc_info[u].pred ? TY_BOOL_T : lt;
}

/* NumPy's casting='same_kind' of the loop's result into out's dtype, which
 * Numba's ufunc with an output argument keeps: bool goes anywhere, ints to
 * ints or floats, floats to floats (of any size). */
static bool same_kind(const Type *from, const Type *to) {
  if (from->kind == TY_BOOL)
    return true;
  if (ty_is_float(from))
    return ty_is_float(to) || ty_is_complex(to);
  return to->kind != TY_BOOL;
}

/* np.sin(x, out) / np.add(a, b, out=out) in a kernel: Numba's ufunc loop
 * over out's elements, each operand an array broadcast onto out's shape or
 * a number.  The instruction's type is the loop type codegen computes in. */
const Type *ir_infer_array_ufunc(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  int u = (int)in->ival;
  if (u < 0 || u >= NU__COUNT || in->nargs != ir_npufunc_info[u].nin + 1)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: bad ufunc call");
  const Type *out = operand(inf, in, 0), *ts[2];
  if (!out)
    return NULL;
  if (out->kind != TY_ARRAY || !ty_is_number(out->elem) || ty_is_complex(out->elem))
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC, "pass an array of numbers to write into",
                         "the output of np.%s() must be an array of numbers, not %s",
                         ir_npufunc_info[u].name, TN(out));
  if (!ir_infer_check_writable(inf, idx, out))
    return NULL;
  if (u == NU_POWER)
    return ir_infer_fail(inf, idx, E_NOTYET, "write the loop: out[i] = a[i] ** b[i]",
                         "np.power() with an output array is not supported");
  for (int k = 0; k < in->nargs - 1; k++) {
    const Type *t = operand(inf, in, k + 1);
    if (!t)
      return NULL;
    if (t->kind == TY_ARRAY && t->ndim > out->ndim)
      return ir_infer_fail(inf, idx, E_TY_INDEX, "the operands may have as many dimensions as "
                           "the output, or fewer (broadcast)",
                           "np.%s(): operand %d (%s) has more dimensions than the output (%s)",
                           ir_npufunc_info[u].name, k + 1, TN(t), TN(out));
    ts[k] = t->kind == TY_ARRAY ? t->elem : t;
    if (!ty_is_number(ts[k]) || ty_is_complex(ts[k]))
      return bad_operand(inf, idx, u, t);
  }
  const Type *lt = pick_loop(u, ts, in->nargs - 1);
  if (!lt)
    return bad_operand(inf, idx, u, ts[0]);
  const Type *rt = ir_npufunc_info[u].pred ? TY_BOOL_T : lt;
  if (!same_kind(rt, out->elem))
    return ir_infer_fail(inf, idx, E_TY_CONVERT, "pass an output array of a wider kind",
                         "np.%s(): cannot write the loop's %s results into %s (NumPy's "
                         "casting='same_kind')", ir_npufunc_info[u].name, TN(rt), TN(out));
  return lt;
}
