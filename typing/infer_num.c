/* infer_num.c - typing of OP_NUMFN: complex(), .real/.imag/.conjugate(),
 * cmath.* and cuda.fp16.* (ir/numfn.h).
 *
 * The rules are numba-cuda's templates: complex(re, im) is complex128;
 * attributes of a complex give its float, of a real number the number's own
 * type; cmath functions have complex64 and complex128 cases, so a real
 * operand picks the first it converts to safely (float32 -> complex64,
 * float64 and int64 -> complex128), as Numba's overload resolution does. */
#include "typing/typing_internal.h"
#include "ir/numfn.h"

#define TN(t) ir_infer_tname(inf, (t))

static const Type *operand(const Infer *inf, const Inst *in, int k) {
  const Type *t = inf->f->insts.data[in->args[k]].type;
  return t && t->kind != TY_UNKNOWN ? t : NULL;
}

static void need_all(const Type **need, int n, const Type *t) {
  for (int k = 0; need && k < n; k++)
    need[k] = t;
}

static const char *fn_name(int fn) { return ir_numfn_info[fn].name; }

static const char *fn_prefix(int fn) {
  NumFnKind k = ir_numfn_info[fn].kind;
  if (k == NK_MAKE || k == NK_PART)
    return "";
  return k >= NK_H1 ? "cuda.fp16." : "cmath.";
}

static const Type *bad(Infer *inf, int idx, int fn, const Type *t, const char *hint) {
  if (ir_numfn_info[fn].kind == NK_PART)
    return ir_infer_fail(inf, idx, E_TY_ATTR, hint, "%s has no attribute '%s'", TN(t), fn_name(fn));
  return ir_infer_fail(inf, idx, E_TY_INTRINSIC, hint, "%s%s() does not support %s", fn_prefix(fn),
                       fn_name(fn), TN(t));
}

static bool real(const Type *t) { return ty_is_number(t) && !ty_is_complex(t); }

/* The complex type a cmath function computes in (reals convert). */
static const Type *cmath_type(const Type *t) {
  return ty_is_complex(t) ? t : ty_binop(OP_ADD, t, TY_C64_T, NULL);
}

static const Type *float_of(const Type *c) { return c == TY_C64_T ? TY_F32_T : TY_F64_T; }

/* a.real / a.imag of an array (Numba's array_real_part/array_imag_part):
 * of a complex array a strided view of its floats (layout A, writable, so
 * atomics and stores reach the array); .real of a real array is the array.
 * .imag of a real array is a new zero array in Numba, which a kernel cannot
 * allocate. */
static const Type *type_array_part(Infer *inf, int idx, int fn, const Type *t, const Type **need) {
  if (fn == NF_CONJ || !ty_is_number(t->elem))
    return bad(inf, idx, fn, t, NULL);
  need_all(need, 1, t);
  if (!ty_is_complex(t->elem)) {
    if (fn == NF_REAL)
      return t;
    return ir_infer_fail(inf, idx, E_TY_ATTR, "only complex arrays have an imaginary part in kernels",
                         "a.imag of %s is not supported (Numba allocates a zero array for it)", TN(t));
  }
  const Type *f = float_of(t->elem);
  return t->readonly ? ty_array_readonly(inf->tt, f, t->ndim, LAYOUT_A) : ty_array(inf->tt, f, t->ndim, LAYOUT_A);
}

/* .real/.imag/.conjugate(): Numba's number attributes (bool has none). */
static const Type *type_part(Infer *inf, int idx, int fn, const Type *t, const Type **need) {
  if (t->kind == TY_ARRAY)
    return type_array_part(inf, idx, fn, t, need);
  if (!ty_is_number(t) || t->kind == TY_BOOL)
    return bad(inf, idx, fn, t, NULL);
  need_all(need, 1, t);
  return ty_is_complex(t) && fn != NF_CONJ ? float_of(t) : t;
}

/* cuda.fp16 functions take float16 (choice: other types are rejected
 * rather than converted, so a float32 never silently loses precision). */
/* NK_HCONV: the operand and result types of CUDA's declarations. */
static void conv_types(int fn, const Type **arg, const Type **ret) {
  *arg = TY_F16_T;
  switch (fn) {
  case NF_HISNAN: *ret = TY_BOOL_T; break;
  case NF_HISINF: *ret = TY_I32_T; break;  /* -1, 0 or 1 */
  case NF_HALF2FLOAT: *ret = TY_F32_T; break;
  case NF_HALF_AS_SHORT: *ret = TY_I16_T; break;
  case NF_HALF_AS_USHORT: *ret = TY_U16_T; break;
  case NF_FLOAT2HALF: case NF_FLOAT2HALF_RN: *arg = TY_F32_T, *ret = TY_F16_T; break;
  case NF_DOUBLE2HALF: *arg = TY_F64_T, *ret = TY_F16_T; break;
  case NF_SHORT_AS_HALF: *arg = TY_I16_T, *ret = TY_F16_T; break;
  default: *arg = TY_U16_T, *ret = TY_F16_T; break; /* __ushort_as_half */
  }
}

/* The conversions take any real number, converted to the declared type as
 * Numba converts to a concrete signature. */
static const Type *type_half_conv(Infer *inf, int idx, int fn, const Type *t, const Type **need) {
  const Type *arg, *ret;
  conv_types(fn, &arg, &ret);
  if (!real(t) || (arg == TY_F16_T && t != TY_F16_T))
    return bad(inf, idx, fn, t, arg == TY_F16_T ? "convert the operand with numba.float16(x)" : NULL);
  need_all(need, 1, arg);
  return ret;
}

static const Type *type_half(Infer *inf, int idx, int fn, const Type *const *ts, int n,
                             const Type **need) {
  if (ir_numfn_info[fn].kind == NK_HCONV)
    return type_half_conv(inf, idx, fn, ts[0], need);
  for (int k = 0; k < n; k++)
    if (ts[k] != TY_F16_T)
      return bad(inf, idx, fn, ts[k], "convert the operand with numba.float16(x)");
  need_all(need, n, TY_F16_T);
  return ir_numfn_info[fn].kind == NK_HCMP ? TY_BOOL_T : TY_F16_T;
}

static const Type *type_complex_fn(Infer *inf, int idx, int fn, const Type *const *ts,
                                   const Type **need) {
  NumFnKind kind = ir_numfn_info[fn].kind;
  const Type *c;
  switch (kind) {
  case NK_MAKE:
    for (int k = 0; k < 2; k++)
      if (!real(ts[k]))
        return bad(inf, idx, fn, ts[k], "complex(re, im) takes two real numbers");
    need_all(need, 2, TY_F64_T);
    return TY_C128_T;
  case NK_PART:
    return type_part(inf, idx, fn, ts[0], need);
  case NK_RECT: {
    if (!real(ts[0]) || !real(ts[1]))
      return bad(inf, idx, fn, real(ts[0]) ? ts[1] : ts[0], NULL);
    const Type *f = ty_binop(OP_ADD, ty_unify(inf->tt, ts[0], ts[1]), TY_F32_T, NULL);
    need_all(need, 2, f);
    return f == TY_F32_T ? TY_C64_T : TY_C128_T;
  }
  default: break;
  }
  if (!ty_is_number(ts[0]) || !(c = cmath_type(ts[0])))
    return bad(inf, idx, fn, ts[0], NULL);
  need_all(need, 1, c);
  switch (kind) {
  case NK_CPRED: return TY_BOOL_T;
  case NK_CREAL: return float_of(c);
  case NK_POLAR: return ty_unituple(inf->tt, float_of(c), 2);
  default: return c;
  }
}

const Type *ir_infer_numfn(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  int fn = (int)in->ival;
  if (fn < 0 || fn >= NF__COUNT || in->nargs != ir_numfn_info[fn].arity || in->nargs > 3)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: malformed numfn");
  const Type *ts[3];
  for (int k = 0; k < in->nargs; k++)
    if (!(ts[k] = operand(inf, in, k)))
      return NULL;
  if (ir_numfn_info[fn].kind >= NK_H1)
    return type_half(inf, idx, fn, ts, in->nargs, need);
  return type_complex_fn(inf, idx, fn, ts, need);
}
