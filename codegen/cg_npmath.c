/* cg_npmath.c - OP_NPUFUNC: NumPy ufuncs on scalars (np.sin(x)...).
 *
 * Typing (typing/infer_npmath.c) has converted every operand to the loop type,
 * so each ufunc is computed in that type.  Those that are math.* functions
 * under another name reuse the intrinsics of cg_math.c (a copy of the
 * instruction carrying the intrinsic id); the rest follow the semantics of
 * Numba's ufunc loops: maximum/minimum propagate a NaN and fmax/fmin drop
 * it, integer division and remainder by zero give 0, floor_divide of
 * floats is floor(a / b), remainder takes the divisor's sign. */
#include "codegen/cg_internal.h"
#include "ir/npmath.h"

/* The intrinsic computing ufunc u, or -1. */
static int as_intrinsic(NpUfunc u) {
  static const struct { NpUfunc u; Intrinsic id; } map[] = {
      {NU_SIN, IN_SIN}, {NU_COS, IN_COS}, {NU_TAN, IN_TAN}, {NU_ARCSIN, IN_ASIN},
      {NU_ARCCOS, IN_ACOS}, {NU_ARCTAN, IN_ATAN}, {NU_SINH, IN_SINH}, {NU_COSH, IN_COSH},
      {NU_TANH, IN_TANH}, {NU_ARCSINH, IN_ASINH}, {NU_ARCCOSH, IN_ACOSH},
      {NU_ARCTANH, IN_ATANH}, {NU_EXP, IN_EXP}, {NU_EXP2, IN_EXP2}, {NU_EXPM1, IN_EXPM1},
      {NU_LOG, IN_LOG}, {NU_LOG2, IN_LOG2}, {NU_LOG10, IN_LOG10}, {NU_LOG1P, IN_LOG1P},
      {NU_SQRT, IN_SQRT}, {NU_CBRT, IN_CBRT}, {NU_FABS, IN_FABS}, {NU_DEG2RAD, IN_RADIANS},
      {NU_RADIANS, IN_RADIANS}, {NU_RAD2DEG, IN_DEGREES}, {NU_DEGREES, IN_DEGREES},
      {NU_ARCTAN2, IN_ATAN2}, {NU_HYPOT, IN_HYPOT}, {NU_COPYSIGN, IN_COPYSIGN},
      {NU_FLOOR, IN_FLOOR}, {NU_CEIL, IN_CEIL}, {NU_TRUNC, IN_TRUNC},
      {NU_ABSOLUTE, IN_ABS}, {NU_ABS, IN_ABS}, {NU_ISNAN, IN_ISNAN}, {NU_ISINF, IN_ISINF},
      {NU_ISFINITE, IN_ISFINITE}, {NU_NEXTAFTER, IN_NEXTAFTER}, {NU_FLOAT_POWER, IN_POWF},
  };
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (map[i].u == u)
      return map[i].id;
  return -1;
}

static LLVMValueRef fconst(LLVMValueRef like, double v) { return LLVMConstReal(LLVMTypeOf(like), v); }

static LLVMValueRef unary_intrinsic(Cg *cg, const char *name, LLVMValueRef x) {
  LLVMTypeRef t = LLVMTypeOf(x);
  return cg_intrinsic(cg, name, &t, 1, &x, 1);
}

/* np.sign: -1 or 1; zeros (either sign) and NaN are returned as they are.
 * Integers compare as signed whatever their type, as Numba's loop does, so
 * an unsigned value with the top bit set gives -1 (all ones). */
static LLVMValueRef sign(Cg *cg, LLVMValueRef x, const Type *t) {
  LLVMBuilderRef B = cg->b;
  if (cg_is_float(t)) {
    LLVMValueRef pos = LLVMBuildFCmp(B, LLVMRealOGT, x, fconst(x, 0), "");
    LLVMValueRef neg = LLVMBuildFCmp(B, LLVMRealOLT, x, fconst(x, 0), "");
    LLVMValueRef r = LLVMBuildSelect(B, neg, fconst(x, -1), x, "");
    return LLVMBuildSelect(B, pos, fconst(x, 1), r, "");
  }
  LLVMTypeRef it = LLVMTypeOf(x);
  LLVMValueRef z = LLVMConstNull(it);
  LLVMValueRef gt = LLVMBuildZExt(B, LLVMBuildICmp(B, LLVMIntSGT, x, z, ""), it, "");
  LLVMValueRef lt = LLVMBuildZExt(B, LLVMBuildICmp(B, LLVMIntSLT, x, z, ""), it, "");
  return LLVMBuildSub(B, gt, lt, "");
}

/* np.reciprocal: 1 / x; integers through float64 and back, as Numba. */
static LLVMValueRef reciprocal(Cg *cg, LLVMValueRef x, const Type *t) {
  if (cg_is_float(t))
    return cg_fp(cg, LLVMBuildFDiv(cg->b, fconst(x, 1.0), x, ""));
  const Type *f64 = cg_scalar(TY_F64);
  LLVMValueRef d = cg_convert(cg, x, t, f64);
  LLVMValueRef r = d ? LLVMBuildFDiv(cg->b, LLVMConstReal(cg->t_f64, 1.0), d, "") : NULL;
  return r ? cg_convert(cg, r, f64, t) : NULL;
}

/* maximum/minimum (nan_wins) and fmax/fmin (a NaN operand gives the other)
 * on floats; integers and bools compare as min()/max(). */
static LLVMValueRef extremum(Cg *cg, const Inst *in, bool is_max, bool nan_wins, LLVMValueRef a,
                             LLVMValueRef b, const Type *t) {
  LLVMBuilderRef B = cg->b;
  if (!cg_is_float(t)) {
    Inst tmp = *in;
    tmp.op = OP_INTRINSIC;
    tmp.ival = is_max ? IN_MAX : IN_MIN;
    return cg_lower_intrinsic(cg, &tmp);
  }
  LLVMValueRef keep_a = LLVMBuildFCmp(B, is_max ? LLVMRealOGE : LLVMRealOLE, a, b, "");
  LLVMValueRef plain = LLVMBuildSelect(B, keep_a, a, b, "");
  LLVMValueRef any_nan = LLVMBuildFCmp(B, LLVMRealUNO, a, b, "");
  LLVMValueRef nan_r = nan_wins ? LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, a, a, ""), a, b, "")
                                : LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, b, b, ""), a, b, "");
  return LLVMBuildSelect(B, any_nan, nan_r, plain, "");
}

/* Integer floor_divide / remainder / fmod: 0 for a zero divisor (and for
 * MIN // -1, which has no value), else floor (Python) semantics.  Numba's
 * fmod loop for every integer type is an unsigned remainder (np.fmod(-7, 3)
 * is (2**64 - 7) % 3 = 0 in int64), kept for equal results. */
static LLVMValueRef int_divide(Cg *cg, NpUfunc u, LLVMValueRef a, LLVMValueRef b, bool sg) {
  LLVMBuilderRef B = cg->b;
  LLVMTypeRef it = LLVMTypeOf(a);
  LLVMValueRef zero = LLVMConstNull(it), one = LLVMConstInt(it, 1, 0);
  if (u == NU_FMOD)
    sg = false;
  LLVMValueRef bad = LLVMBuildICmp(B, LLVMIntEQ, b, zero, "");
  if (sg)
    bad = LLVMBuildOr(B, bad, LLVMBuildICmp(B, LLVMIntEQ, b, LLVMConstAllOnes(it), ""), "");
  LLVMValueRef safe = LLVMBuildSelect(B, bad, one, b, "");
  bool want_div = u == NU_FLOOR_DIVIDE;
  if (!sg) {
    LLVMValueRef r = want_div ? LLVMBuildUDiv(B, a, safe, "") : LLVMBuildURem(B, a, safe, "");
    return LLVMBuildSelect(B, bad, zero, r, "");
  }
  LLVMValueRef q = LLVMBuildSDiv(B, a, safe, ""), m = LLVMBuildSRem(B, a, safe, "");
  LLVMValueRef adj = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntNE, m, zero, ""),
                                  LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildXor(B, m, b, ""), zero, ""), "");
  LLVMValueRef r = want_div ? LLVMBuildSelect(B, adj, LLVMBuildSub(B, q, one, ""), q, "")
                            : LLVMBuildSelect(B, adj, LLVMBuildAdd(B, m, b, ""), m, "");
  if (!want_div) /* x % -1 is 0, which the guard gives too */
    return LLVMBuildSelect(B, bad, zero, r, "");
  /* x // -1 is -x (wrapping for MIN, where Numba gives 0) */
  LLVMValueRef m1 = LLVMBuildICmp(B, LLVMIntEQ, b, LLVMConstAllOnes(it), "");
  LLVMValueRef minv = LLVMConstInt(it, 1ULL << (LLVMGetIntTypeWidth(it) - 1), 0);
  LLVMValueRef negx = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, a, minv, ""), zero,
                                      LLVMBuildNeg(B, a, ""), "");
  r = LLVMBuildSelect(B, m1, negx, r, "");
  return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, b, zero, ""), zero, r, "");
}

/* Float floor_divide (floor(a / b)), remainder (the divisor's sign), fmod. */
static LLVMValueRef float_divide(Cg *cg, NpUfunc u, LLVMValueRef a, LLVMValueRef b) {
  LLVMBuilderRef B = cg->b;
  if (u == NU_FLOOR_DIVIDE)
    return unary_intrinsic(cg, "llvm.floor", cg_fp(cg, LLVMBuildFDiv(B, a, b, "")));
  LLVMValueRef r = LLVMBuildFRem(B, a, b, "");
  if (u == NU_FMOD)
    return r;
  LLVMValueRef z = fconst(a, 0);
  LLVMValueRef fix = LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealONE, r, z, ""),
                                  LLVMBuildXor(B, LLVMBuildFCmp(B, LLVMRealOLT, b, z, ""),
                                               LLVMBuildFCmp(B, LLVMRealOLT, r, z, ""), ""), "");
  return cg_fp(cg, LLVMBuildFAdd(B, r, LLVMBuildSelect(B, fix, b, z, ""), ""));
}

/* add/subtract/multiply in the loop type: ints wrap, bools are or/and. */
static LLVMValueRef arith(Cg *cg, NpUfunc u, LLVMValueRef a, LLVMValueRef b, const Type *t) {
  LLVMBuilderRef B = cg->b;
  if (cg_is_float(t))
    return cg_fp(cg, u == NU_ADD ? LLVMBuildFAdd(B, a, b, "") : u == NU_SUBTRACT ? LLVMBuildFSub(B, a, b, "")
                                                                  : LLVMBuildFMul(B, a, b, ""));
  if (t->kind == TY_BOOL)
    return u == NU_ADD ? LLVMBuildOr(B, a, b, "") : LLVMBuildAnd(B, a, b, "");
  return u == NU_ADD ? LLVMBuildAdd(B, a, b, "") : u == NU_SUBTRACT ? LLVMBuildSub(B, a, b, "")
                                                    : LLVMBuildMul(B, a, b, "");
}

/* greater...not_equal: ordered float comparisons (a NaN gives False, but
 * True for not_equal); ints by signedness, bools as unsigned. */
static LLVMValueRef compare(Cg *cg, NpUfunc u, LLVMValueRef a, LLVMValueRef b, const Type *t) {
  static const LLVMRealPredicate fp[] = {LLVMRealOGT, LLVMRealOGE, LLVMRealOLT, LLVMRealOLE,
                                         LLVMRealOEQ, LLVMRealUNE};
  static const LLVMIntPredicate sp[] = {LLVMIntSGT, LLVMIntSGE, LLVMIntSLT, LLVMIntSLE,
                                        LLVMIntEQ, LLVMIntNE};
  static const LLVMIntPredicate up[] = {LLVMIntUGT, LLVMIntUGE, LLVMIntULT, LLVMIntULE,
                                        LLVMIntEQ, LLVMIntNE};
  int k = u - NU_GREATER;
  if (cg_is_float(t))
    return LLVMBuildFCmp(cg->b, fp[k], a, b, "");
  return LLVMBuildICmp(cg->b, cg_is_signed(t) ? sp[k] : up[k], a, b, "");
}

/* logical_and/or/xor/not on the operands' truth values. */
static LLVMValueRef logical(Cg *cg, NpUfunc u, LLVMValueRef *a, const Type *t) {
  LLVMValueRef x = cg_truth(cg, a[0], t);
  if (u == NU_LOGICAL_NOT)
    return LLVMBuildNot(cg->b, x, "");
  LLVMValueRef y = cg_truth(cg, a[1], t);
  return u == NU_LOGICAL_AND ? LLVMBuildAnd(cg->b, x, y, "")
         : u == NU_LOGICAL_OR ? LLVMBuildOr(cg->b, x, y, "")
                              : LLVMBuildXor(cg->b, x, y, "");
}

/* np.signbit: the sign bit of the float. */
static LLVMValueRef signbit(Cg *cg, LLVMValueRef x, const Type *t) {
  LLVMTypeRef it = t->kind == TY_F32 ? cg->t_i32 : cg->t_i64;
  LLVMValueRef bits = LLVMBuildBitCast(cg->b, x, it, "");
  return LLVMBuildICmp(cg->b, LLVMIntSLT, bits, LLVMConstNull(it), "");
}

static LLVMValueRef lower_logic(Cg *cg, NpUfunc u, LLVMValueRef *a, const Type *t) {
  LLVMBuilderRef B = cg->b;
  switch (u) {
  case NU_BITWISE_AND: return LLVMBuildAnd(B, a[0], a[1], "");
  case NU_BITWISE_OR: return LLVMBuildOr(B, a[0], a[1], "");
  case NU_BITWISE_XOR: return LLVMBuildXor(B, a[0], a[1], "");
  case NU_INVERT: case NU_BITWISE_NOT: return LLVMBuildNot(B, a[0], "");
  case NU_LEFT_SHIFT: return LLVMBuildShl(B, a[0], a[1], "");
  case NU_RIGHT_SHIFT:
    return cg_is_signed(t) ? LLVMBuildAShr(B, a[0], a[1], "") : LLVMBuildLShr(B, a[0], a[1], "");
  default: return logical(cg, u, a, t);
  }
}

static LLVMValueRef lower_other(Cg *cg, const Inst *in, NpUfunc u, LLVMValueRef *a, const Type *t) {
  switch (u) {
  case NU_ADD: case NU_SUBTRACT: case NU_MULTIPLY: return arith(cg, u, a[0], a[1], t);
  case NU_NEGATIVE:
    return cg_is_float(t) ? LLVMBuildFNeg(cg->b, a[0], "") : LLVMBuildNeg(cg->b, a[0], "");
  case NU_POSITIVE: case NU_CONJUGATE: return a[0];
  case NU_GREATER: case NU_GREATER_EQUAL: case NU_LESS: case NU_LESS_EQUAL: case NU_EQUAL:
  case NU_NOT_EQUAL:
    return compare(cg, u, a[0], a[1], t);
  case NU_SIGNBIT: return signbit(cg, a[0], t);
  case NU_LOGICAL_AND: case NU_LOGICAL_OR: case NU_LOGICAL_XOR: case NU_LOGICAL_NOT:
  case NU_BITWISE_AND: case NU_BITWISE_OR: case NU_BITWISE_XOR: case NU_INVERT:
  case NU_BITWISE_NOT: case NU_LEFT_SHIFT: case NU_RIGHT_SHIFT:
    return lower_logic(cg, u, a, t);
  case NU_RINT: return unary_intrinsic(cg, "llvm.rint", a[0]);
  case NU_SIGN: return sign(cg, a[0], t);
  case NU_SQUARE:
    return cg_is_float(t) ? cg_fp(cg, LLVMBuildFMul(cg->b, a[0], a[0], "")) : LLVMBuildMul(cg->b, a[0], a[0], "");
  case NU_RECIPROCAL: return reciprocal(cg, a[0], t);
  case NU_POWER: return cg_lower_pow(cg, in, a[0], a[1]);
  case NU_MAXIMUM: case NU_MINIMUM:
    return extremum(cg, in, u == NU_MAXIMUM, true, a[0], a[1], t);
  case NU_FMAX: case NU_FMIN:
    return extremum(cg, in, u == NU_FMAX, false, a[0], a[1], t);
  case NU_FLOOR_DIVIDE: case NU_REMAINDER: case NU_MOD: case NU_FMOD:
    if (cg_is_float(t))
      return float_divide(cg, u == NU_MOD ? NU_REMAINDER : u, a[0], a[1]);
    return int_divide(cg, u == NU_MOD ? NU_REMAINDER : u, a[0], a[1], cg_is_signed(t));
  default:
    cg_fail(cg, in, "ufunc %s has no lowering", ir_npufunc_info[u].name);
    return NULL;
  }
}

/* For OP_ARRAY_UFUNC's loop (cg_fill.c): the operands are values already of
 * the loop type, not instructions.  np.power is not among them (typing). */
LLVMValueRef cg_npufunc_apply(Cg *cg, const Inst *in, int u, LLVMValueRef *a, const Type *t) {
  int id = as_intrinsic((NpUfunc)u);
  return id >= 0 ? cg_intrinsic_apply(cg, in, id, a, t) : lower_other(cg, in, (NpUfunc)u, a, t);
}

LLVMValueRef cg_lower_npufunc(Cg *cg, const Inst *in) {
  if (in->ival < 0 || in->ival >= NU__COUNT || in->nargs != ir_npufunc_info[in->ival].nin) {
    cg_fail(cg, in, "malformed ufunc call");
    return NULL;
  }
  NpUfunc u = (NpUfunc)in->ival;
  int id = as_intrinsic(u);
  if (id >= 0) {
    Inst tmp = *in;
    tmp.op = OP_INTRINSIC;
    tmp.ival = id;
    return cg_lower_intrinsic(cg, &tmp);
  }
  LLVMValueRef a[2];
  const Type *t = cg_arg_type(cg, in, 0);
  for (int i = 0; i < in->nargs; i++)
    if (!(a[i] = cg_arg(cg, in, i)))
      return NULL;
  if (!t || (in->nargs == 2 && LLVMTypeOf(a[0]) != LLVMTypeOf(a[1]))) {
    cg_fail(cg, in, "ufunc operands of different types");
    return NULL;
  }
  return lower_other(cg, in, u, a, t);
}
