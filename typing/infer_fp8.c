/* infer_fp8.c - typing of the fp8 types of numba.cuda._internal.cuda_fp8
 * (fp8_e4m3, fp8_e5m2, fp8_e8m0): their constructors and conversions (CASTs)
 * and the cvt_* intrinsics (OP_FP8); ir_infer_inst hands every op that
 * meets an fp8 operand here first.
 *
 * The rules are numba-cuda's generated bindings: an fp8 type is a Number
 * whose can_convert_from/to allow nothing, so a value is made only by its
 * constructor (from float16, bfloat16, float32, float64 and the int types)
 * and read only by an explicit conversion (float16(v), float32(v),
 * float64(v), bfloat16(v), the int types); no operator, math function,
 * implicit conversion (an array store, a mixed expression) or truth test
 * takes one (numba-cuda 0.30 types bool(v) but cannot lower it).  The cvt_* functions convert their value argument as Numba's
 * call resolution does (any int or float), except bfloat16_raw, which only
 * cvt_e8m0_to_bf16raw makes, and the float2/double2 of the pair
 * conversions (cuda.float32x2 / cuda.float64x2). */
#include "ir/fp8.h"
#include "typing/typing_internal.h"

#define TN(t) ir_infer_tname(inf, (t))

static const char *const fields_x[] = {"x"};

/* numba-cuda's bfloat16_raw (cuda_bf16.h's __nv_bfloat16_raw): a struct
 * whose field x holds the 16 bits; kjit's a one-field named tuple. */
static const Type *raw_type(Infer *inf) {
  const Type *u16 = TY_U16_T;
  return ty_named_tuple(inf->tt, "bfloat16_raw", fields_x, &u16, 1);
}

static const Type *arg_type(const Infer *inf, const Inst *in, int k) {
  const Type *t = inf->f->insts.data[in->args[k]].type;
  return t && t->kind != TY_UNKNOWN ? t : NULL;
}

static bool any_fp8(const Infer *inf, const Inst *in) {
  for (int k = 0; k < in->nargs; k++)
    if (ty_is_fp8(arg_type(inf, in, k)))
      return true;
  return false;
}

bool ir_infer_fp8_claims(const Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  int flags = ir_op_info[in->op].flags;
  if (in->op == OP_FP8)
    return true;
  if (in->op == OP_CAST)
    return ty_is_fp8(in->tyimm) || any_fp8(inf, in);
  return (flags & (OPF_BINARY | OPF_CMP | OPF_UNARY) || in->op == OP_INTRINSIC ||
          in->op == OP_NUMFN || in->op == OP_NPUFUNC || in->op == OP_BF16) &&
         any_fp8(inf, in);
}

/* The constructor's sources (cuda_fp8.hpp's explicit constructors; int8
 * and uint8 reach the 16-bit ones by promotion) and the conversion
 * operators' targets. */
static bool converts(const Type *from, const Type *to) {
  if (from == to)
    return true;
  if (ty_is_fp8(to))
    return ty_is_int(from) || ty_is_float(from) || from == TY_BF16_T;
  return ty_is_fp8(from) && (ty_is_int(to) || ty_is_float(to) || to == TY_BF16_T);
}

static const Type *type_cast(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *a = arg_type(inf, in, 0);
  if (!a)
    return NULL;
  if (!converts(a, in->tyimm))
    return ir_infer_fail(inf, idx, E_TY_CONVERT,
                         ty_is_fp8(in->tyimm)
                             ? "an fp8 value is made from an int, float16, bfloat16, float32 or float64"
                             : "an fp8 value converts to float16, bfloat16, float32, float64 and the "
                               "int types",
                         "cannot convert %s to %s", TN(a), TN(in->tyimm));
  return in->tyimm;
}

/* An operator or a math function on an fp8 value: numba-cuda defines none. */
static const Type *no_arithmetic(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *t = NULL;
  for (int k = 0; k < in->nargs && !t; k++)
    if (ty_is_fp8(arg_type(inf, in, k)))
      t = arg_type(inf, in, k);
  return ir_infer_fail(inf, idx, E_TY_OPERANDS,
                       "fp8 types have no arithmetic in Numba: convert first, float32(v) (and back "
                       "with the constructor, e.g. fp8_e4m3(r))",
                       "%s values support no operators or math functions", TN(t));
}

static const Type *want_of(Infer *inf, Fp8Arg a) {
  switch (a) {
  case FA_F32: return TY_F32_T;
  case FA_F64: return TY_F64_T;
  case FA_U8: return TY_U8_T;
  case FA_U16: return TY_U16_T;
  case FA_F32X2: return ty_vector(inf->tt, TY_F32_T, 2);
  case FA_F64X2: return ty_vector(inf->tt, TY_F64_T, 2);
  default: return raw_type(inf);
  }
}

static const Type *type_fn(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  int fn = FP8_FN(in->ival);
  if (fn >= FP8__COUNT || in->nargs != FP8_ARITY)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: malformed fp8 op");
  const Fp8Info *fi = &ir_fp8_info[fn];
  const Type *t = arg_type(inf, in, 0), *want = want_of(inf, fi->arg);
  if (!t)
    return NULL;
  /* an int or float converts to the declared int or float type, as
   * Numba's call resolution converts (unsafely); bfloat16_raw is exact */
  bool exact = fi->arg == FA_RAW || fi->arg == FA_F32X2 || fi->arg == FA_F64X2;
  bool ok = t == want || (!exact && (ty_is_int(t) || ty_is_float(t) || t == TY_BOOL_T));
  if (!ok)
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC,
                         fi->arg == FA_RAW     ? "cvt_e8m0_to_bf16raw(e) makes a bfloat16_raw"
                         : fi->arg == FA_F32X2 ? "make one with cuda.float32x2(x, y)"
                         : fi->arg == FA_F64X2 ? "make one with cuda.float64x2(x, y)"
                                               : NULL,
                         "%s() does not support %s (it takes %s)", fi->name, TN(t), TN(want));
  if (need)
    need[0] = want;
  return want_of(inf, fi->result);
}

const Type *ir_infer_fp8(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  switch (in->op) {
  case OP_FP8: return type_fn(inf, idx, need);
  case OP_CAST: return type_cast(inf, idx);
  default:
    for (int k = 0; k < in->nargs; k++)
      if (!arg_type(inf, in, k))
        return NULL;
    return no_arithmetic(inf, idx);
  }
}
