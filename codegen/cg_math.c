/* cg_math.c - math intrinsics (math.*, abs/min/max/round, cuda.popc...) and
 * the power operator.
 *
 * Transcendental functions are calls to the target's math library: on NVPTX
 * libdevice's __nv_<fn>f (f32) / __nv_<fn> (f64), linked later by
 * libdevice.c; NVPTX cannot lower llvm.exp.* and friends.  Operations the
 * backend lowers directly (sqrt, fabs, floor, ceil, trunc, rint, fma,
 * copysign, ctpop...) use LLVM intrinsics.  float16 is computed in f32. */
#include "codegen/cg_internal.h"

#include <math.h>
#include <stdio.h>

/* ----------------------------------------------------------- library ---- */

static bool is_f32ish(const Type *t) { return t->kind == TY_F32 || t->kind == TY_F16; }

/* Call the math library's fn on x (of float type t), result in type t. */
LLVMValueRef cg_math1(Cg *cg, const char *fn, LLVMValueRef x, const Type *t) {
  char name[64];
  bool f32 = is_f32ish(t);
  snprintf(name, sizeof name, "%s%s%s", cg->hooks->math_prefix, fn, f32 ? "f" : "");
  LLVMValueRef a = t->kind == TY_F16 ? LLVMBuildFPExt(cg->b, x, cg->t_f32, "") : x;
  LLVMValueRef r = cg_call_extern(cg, name, f32 ? cg->t_f32 : cg->t_f64, &a, 1);
  return r && t->kind == TY_F16 ? LLVMBuildFPTrunc(cg->b, r, cg->t_f16, "") : r;
}

LLVMValueRef cg_math2(Cg *cg, const char *fn, LLVMValueRef x, LLVMValueRef y, const Type *t) {
  char name[64];
  bool f32 = is_f32ish(t);
  snprintf(name, sizeof name, "%s%s%s", cg->hooks->math_prefix, fn, f32 ? "f" : "");
  LLVMValueRef a[2] = {x, y};
  if (t->kind == TY_F16)
    for (int i = 0; i < 2; i++)
      a[i] = LLVMBuildFPExt(cg->b, a[i], cg->t_f32, "");
  LLVMValueRef r = cg_call_extern(cg, name, f32 ? cg->t_f32 : cg->t_f64, a, 2);
  return r && t->kind == TY_F16 ? LLVMBuildFPTrunc(cg->b, r, cg->t_f16, "") : r;
}

static LLVMValueRef llvm_unary(Cg *cg, const char *name, LLVMValueRef x) {
  LLVMTypeRef t = LLVMTypeOf(x);
  return cg_intrinsic(cg, name, &t, 1, &x, 1);
}

static LLVMValueRef llvm_binary(Cg *cg, const char *name, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef t = LLVMTypeOf(x);
  LLVMValueRef a[2] = {x, y};
  return cg_intrinsic(cg, name, &t, 1, a, 2);
}

/* ------------------------------------------------------------- table ---- */

/* libdevice base names of the one- and two-argument IK_MATHF(2) functions. */
static const char *libm_name(Intrinsic id) {
  switch (id) {
  case IN_EXP: return "exp";     case IN_EXP2: return "exp2";   case IN_EXPM1: return "expm1";
  case IN_LOG: return "log";     case IN_LOG2: return "log2";   case IN_LOG10: return "log10";
  case IN_LOG1P: return "log1p"; case IN_SIN: return "sin";     case IN_COS: return "cos";
  case IN_TAN: return "tan";     case IN_ASIN: return "asin";   case IN_ACOS: return "acos";
  case IN_ATAN: return "atan";   case IN_SINH: return "sinh";   case IN_COSH: return "cosh";
  case IN_TANH: return "tanh";   case IN_ASINH: return "asinh"; case IN_ACOSH: return "acosh";
  case IN_ATANH: return "atanh"; case IN_ERF: return "erf";     case IN_ERFC: return "erfc";
  case IN_GAMMA: return "tgamma"; case IN_LGAMMA: return "lgamma"; case IN_CBRT: return "cbrt";
  case IN_ATAN2: return "atan2"; case IN_HYPOT: return "hypot"; case IN_FMOD: return "fmod";
  case IN_POWF: return "pow";    case IN_REMAINDER: return "remainder";
  case IN_NEXTAFTER: return "nextafter";
  default: return NULL;
  }
}

/* ------------------------------------------------------------ helpers --- */

static LLVMValueRef fconst(LLVMValueRef like, double v) {
  return LLVMConstReal(LLVMTypeOf(like), v);
}

static LLVMValueRef classify(Cg *cg, Intrinsic id, LLVMValueRef x, const Type *t) {
  if (!cg_is_float(t)) /* ints and bools: never nan/inf */
    return LLVMConstInt(cg->t_i1, id == IN_ISFINITE, 0);
  if (id == IN_ISNAN)
    return LLVMBuildFCmp(cg->b, LLVMRealUNO, x, x, "");
  LLVMValueRef ax = llvm_unary(cg, "llvm.fabs", x), inf = fconst(x, INFINITY);
  return LLVMBuildFCmp(cg->b, id == IN_ISINF ? LLVMRealOEQ : LLVMRealONE, ax, inf, "");
}

/* Operand k of in was a float32/float64 before typing's unifying cast. */
static bool float_source(const Cg *cg, const Inst *in, int k) {
  const Inst *x = &cg->f->insts.data[in->args[k]];
  if (x->op == OP_CAST && x->nargs == 1)
    x = &cg->f->insts.data[x->args[0]];
  return x->type && (x->type->kind == TY_F32 || x->type->kind == TY_F64);
}

/* min/max as Numba's builtins.  Two float32/float64 operands (marked "num"
 * by lower/lower_builtins.c): fmax/fmin as Numba's __nv_fmaxf & co., a NaN
 * operand gives the other (max.f32 on the GPU).  Otherwise Python's order
 * (Numba's do_minmax): the new value b replaces a only when b > a (b < a),
 * so max(1.0, nan, 2.0) is 2.0 and max(nan, 1, 2) nan.  Ints by signedness. */
static LLVMValueRef minmax(Cg *cg, const Inst *in, bool is_max, LLVMValueRef a, LLVMValueRef b, const Type *t) {
  LLVMValueRef c;
  if (cg_is_float(t) && in->str && strcmp(in->str, "num") == 0 && in->nargs == 2 && float_source(cg, in, 0) &&
      float_source(cg, in, 1)) {
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef ab[2] = {a, b};
    return cg_intrinsic(cg, is_max ? "llvm.maxnum" : "llvm.minnum", &ty, 1, ab, 2);
  }
  if (cg_is_float(t))
    c = LLVMBuildFCmp(cg->b, is_max ? LLVMRealOGT : LLVMRealOLT, b, a, "");
  else if (cg_is_signed(t))
    c = LLVMBuildICmp(cg->b, is_max ? LLVMIntSGT : LLVMIntSLT, b, a, "");
  else
    c = LLVMBuildICmp(cg->b, is_max ? LLVMIntUGT : LLVMIntULT, b, a, "");
  return LLVMBuildSelect(cg->b, c, b, a, "");
}

static LLVMValueRef absval(Cg *cg, LLVMValueRef x, const Type *t) {
  if (cg_is_float(t))
    return llvm_unary(cg, "llvm.fabs", x);
  if (!cg_is_signed(t))
    return x;
  LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, x, LLVMConstNull(LLVMTypeOf(x)), "");
  return LLVMBuildSelect(cg->b, neg, LLVMBuildNeg(cg->b, x, ""), x, "");
}

/* round(x, n) as Numba/CPython: scale by 10**|n|, round half to even, unscale
 * (computed in f64; y inf -> x). */
static LLVMValueRef round_ndigits(Cg *cg, LLVMValueRef x, const Type *t, LLVMValueRef nd, const Type *nt) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef xd = cg_convert(cg, x, t, cg_scalar(TY_F64));
  LLVMValueRef n32 = cg_convert(cg, nd, nt, cg_scalar(TY_I32));
  if (!xd || !n32)
    return NULL;
  LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, n32, cg_const_i32(cg, 0), "");
  LLVMValueRef an = LLVMBuildSelect(B, neg, LLVMBuildNeg(B, n32, ""), n32, "");
  char name[32];
  snprintf(name, sizeof name, "%spowi", cg->hooks->math_prefix);
  LLVMValueRef pa[2] = {LLVMConstReal(cg->t_f64, 10.0), an};
  LLVMValueRef p = cg_call_extern(cg, name, cg->t_f64, pa, 2);
  if (!p)
    return NULL;
  LLVMValueRef y = LLVMBuildSelect(B, neg, LLVMBuildFDiv(B, xd, p, ""), LLVMBuildFMul(B, xd, p, ""), "");
  LLVMValueRef z = llvm_unary(cg, "llvm.rint", y);
  LLVMValueRef r = LLVMBuildSelect(B, neg, LLVMBuildFMul(B, z, p, ""), LLVMBuildFDiv(B, z, p, ""), "");
  LLVMValueRef yinf = LLVMBuildFCmp(B, LLVMRealOEQ, llvm_unary(cg, "llvm.fabs", y),
                                    LLVMConstReal(cg->t_f64, INFINITY), "");
  r = LLVMBuildSelect(B, yinf, xd, r, "");
  return cg_convert(cg, r, cg_scalar(TY_F64), t);
}

static LLVMValueRef bit_op(Cg *cg, Intrinsic id, LLVMValueRef x) {
  LLVMTypeRef t = LLVMTypeOf(x);
  LLVMValueRef f = LLVMConstInt(cg->t_i1, 0, 0);
  switch (id) {
  case IN_POPC: return llvm_unary(cg, "llvm.ctpop", x);
  case IN_BREV: return llvm_unary(cg, "llvm.bitreverse", x);
  case IN_CLZ: {
    LLVMValueRef a[2] = {x, f};
    return cg_intrinsic(cg, "llvm.ctlz", &t, 1, a, 2);
  }
  default: { /* ffs: 1 + index of the lowest set bit, 0 for 0 */
    if (cg->hooks->ffs32 && t == cg->t_i32)
      return cg->hooks->ffs32(cg, x);
    /* cttz with zero poison: the select discards the x == 0 case, and a
     * cttz defined at zero is despeculated by CodeGenPrepare into a branch
     * where it is not one instruction (NVPTX: a branch in every match_any
     * loop's body; bench/gpu pattern_rowhist) */
    LLVMValueRef a[2] = {x, LLVMConstInt(cg->t_i1, 1, 0)};
    LLVMValueRef tz = cg_intrinsic(cg, "llvm.cttz", &t, 1, a, 2);
    LLVMValueRef r = LLVMBuildAdd(cg->b, tz, LLVMConstInt(t, 1, 0), "");
    LLVMValueRef z = LLVMBuildICmp(cg->b, LLVMIntEQ, x, LLVMConstNull(t), "");
    return LLVMBuildSelect(cg->b, z, LLVMConstNull(t), r, "");
  }
  }
}

/* math.frexp / math.modf -> tuples, through the library's out-pointer forms. */
static LLVMValueRef split_float(Cg *cg, const Inst *in, Intrinsic id, LLVMValueRef x, const Type *t) {
  LLVMTypeRef rt = cg_type(cg, in->type);
  if (!cg_is_float(t) || !rt || LLVMGetTypeKind(rt) != LLVMStructTypeKind) {
    cg_fail(cg, in, "frexp/modf with unexpected types");
    return NULL;
  }
  bool f32 = is_f32ish(t);
  LLVMValueRef xa = cg_convert(cg, x, t, f32 ? cg_scalar(TY_F32) : cg_scalar(TY_F64));
  LLVMTypeRef outt = id == IN_FREXP ? cg->t_i32 : LLVMTypeOf(xa);
  LLVMValueRef slot = cg_entry_alloca(cg, outt, "out");
  char name[64];
  snprintf(name, sizeof name, "%s%s%s", cg->hooks->math_prefix, id == IN_FREXP ? "frexp" : "modf", f32 ? "f" : "");
  LLVMValueRef a[2] = {xa, slot};
  LLVMValueRef r0 = cg_call_extern(cg, name, LLVMTypeOf(xa), a, 2);
  LLVMValueRef r1 = LLVMBuildLoad2(cg->b, outt, slot, "");
  const Type *t0 = in->type->elems[0], *t1 = in->type->elems[1];
  r0 = cg_convert(cg, r0, f32 ? cg_scalar(TY_F32) : cg_scalar(TY_F64), t0);
  r1 = cg_convert(cg, r1, id == IN_FREXP ? cg_scalar(TY_I32) : (f32 ? cg_scalar(TY_F32) : cg_scalar(TY_F64)), t1);
  if (!r0 || !r1)
    return NULL;
  /* Python's modf returns (fractional, integral) */
  LLVMValueRef v = LLVMBuildInsertValue(cg->b, LLVMGetPoison(rt), r0, 0, "");
  return LLVMBuildInsertValue(cg->b, v, r1, 1, "");
}

/* sqrt; float16 is taken in float32 (exact after rounding back): LLVM 19's
 * NVPTX backend aborts on an f16 llvm.sqrt with fast-math flags ("Copy one
 * register into another with a different width"; tests/fuzz/regress). */
static LLVMValueRef lower_sqrt(Cg *cg, LLVMValueRef x, const Type *t) {
  if (!t || t->kind != TY_F16)
    return llvm_unary(cg, "llvm.sqrt", x);
  const Type *f32 = cg_scalar(TY_F32);
  LLVMValueRef r = llvm_unary(cg, "llvm.sqrt", cg_convert(cg, x, t, f32));
  return cg_convert(cg, r, f32, t);
}

/* --------------------------------------------------------------- main --- */

static LLVMValueRef lower_float_fn(Cg *cg, const Inst *in, Intrinsic id, LLVMValueRef *a, const Type *t) {
  const char *lib = libm_name(id);
  if (lib)
    return ir_intrinsic_info[id].arity == 1 ? cg_math1(cg, lib, a[0], t) : cg_math2(cg, lib, a[0], a[1], t);
  switch (id) {
  case IN_SQRT: return lower_sqrt(cg, a[0], t);
  case IN_FABS: return llvm_unary(cg, "llvm.fabs", a[0]);
  case IN_FLOOR: return llvm_unary(cg, "llvm.floor", a[0]);
  case IN_CEIL: return llvm_unary(cg, "llvm.ceil", a[0]);
  case IN_TRUNC: return llvm_unary(cg, "llvm.trunc", a[0]);
  case IN_COPYSIGN: return llvm_binary(cg, "llvm.copysign", a[0], a[1]);
  case IN_DEGREES: return cg_fp(cg, LLVMBuildFMul(cg->b, a[0], fconst(a[0], 180.0 / M_PI), ""));
  case IN_RADIANS: return cg_fp(cg, LLVMBuildFMul(cg->b, a[0], fconst(a[0], M_PI / 180.0), ""));
  case IN_FMA: {
    LLVMTypeRef ty = LLVMTypeOf(a[0]);
    return cg_intrinsic(cg, "llvm.fma", &ty, 1, a, 3);
  }
  default:
    cg_fail(cg, in, "math function %s on floats", ir_intrinsic_info[id].name);
    return NULL;
  }
}

/* The type the computation happens in: the first operand's, except that
 * float functions of ints compute in f64 (typing normally casts already). */
static const Type *compute_type(Intrinsic id, const Type *t0) {
  IntrinsicKind k = ir_intrinsic_info[id].kind;
  if ((k == IK_MATHF || k == IK_MATHF2) && !cg_is_float(t0))
    return cg_scalar(TY_F64);
  return t0;
}

static LLVMValueRef lower_intrinsic_value(Cg *cg, const Inst *in, Intrinsic id, LLVMValueRef *a, const Type *t) {
  switch (id) {
  case IN_ISNAN: case IN_ISINF: case IN_ISFINITE: return classify(cg, id, a[0], t);
  case IN_ABS: return absval(cg, a[0], t);
  case IN_MIN: case IN_MAX: return minmax(cg, in, id == IN_MAX, a[0], a[1], t);
  case IN_SELP: {
    LLVMValueRef c = cg_truth(cg, a[0], cg_arg_type(cg, in, 0));
    if (LLVMTypeOf(a[1]) != LLVMTypeOf(a[2])) {
      cg_fail(cg, in, "selp operands of different types");
      return NULL;
    }
    return LLVMBuildSelect(cg->b, c, a[1], a[2], "");
  }
  case IN_POPC: case IN_CLZ: case IN_FFS: case IN_BREV:
    if (!cg_is_int(t)) {
      cg_fail(cg, in, "%s of a non-integer", ir_intrinsic_info[id].name);
      return NULL;
    }
    return bit_op(cg, id, a[0]);
  case IN_ROUND:
    return cg_is_float(t) ? llvm_unary(cg, "llvm.rint", a[0]) : a[0];
  case IN_ROUNDN:
    return cg_is_float(t) ? round_ndigits(cg, a[0], t, a[1], cg_arg_type(cg, in, 1)) : a[0];
  case IN_FLOOR: case IN_CEIL: case IN_TRUNC:
    if (!cg_is_float(t))
      return a[0];
    return lower_float_fn(cg, in, id, a, t);
  case IN_LDEXP: {
    char name[32];
    snprintf(name, sizeof name, "%sldexp%s", cg->hooks->math_prefix, is_f32ish(t) ? "f" : "");
    LLVMValueRef x = t->kind == TY_F16 ? LLVMBuildFPExt(cg->b, a[0], cg->t_f32, "") : a[0];
    LLVMValueRef e[2] = {x, cg_convert(cg, a[1], cg_arg_type(cg, in, 1), cg_scalar(TY_I32))};
    LLVMValueRef r = e[1] ? cg_call_extern(cg, name, LLVMTypeOf(x), e, 2) : NULL;
    return r && t->kind == TY_F16 ? LLVMBuildFPTrunc(cg->b, r, cg->t_f16, "") : r;
  }
  case IN_FREXP: case IN_MODF: return split_float(cg, in, id, a[0], t);
  default:
    return lower_float_fn(cg, in, id, a, t);
  }
}

LLVMValueRef cg_intrinsic_apply(Cg *cg, const Inst *in, int id, LLVMValueRef *a, const Type *t) {
  return lower_intrinsic_value(cg, in, (Intrinsic)id, a, t);
}

LLVMValueRef cg_lower_intrinsic(Cg *cg, const Inst *in) {
  if (in->ival < 0 || in->ival >= IN__COUNT || in->nargs < 1 || in->nargs > 3 ||
      in->nargs != ir_intrinsic_info[in->ival].arity) {
    cg_fail(cg, in, "malformed intrinsic call");
    return NULL;
  }
  Intrinsic id = (Intrinsic)in->ival;
  const Type *ct = cg_arg_type(cg, in, 0);
  if (id == IN_ABS && ct && (ct->kind == TY_C64 || ct->kind == TY_C128)) /* |z| = hypot */
    return cg_arg(cg, in, 0) ? cg_complex_abs(cg, cg_arg(cg, in, 0), ct) : NULL;
  LLVMValueRef a[3];
  const Type *t0 = cg_arg_type(cg, in, 0), *t = compute_type(id, t0);
  for (int i = 0; i < in->nargs; i++) {
    a[i] = cg_arg(cg, in, i);
    if (!a[i])
      return NULL;
  }
  if (!t) {
    cg_fail(cg, in, "untyped intrinsic operand");
    return NULL;
  }
  /* operands of the float functions are brought to the computation type */
  if (id != IN_SELP && id != IN_LDEXP && id != IN_ROUNDN)
    for (int i = 0; i < in->nargs; i++)
      if (cg_arg_type(cg, in, i) != t && !(a[i] = cg_convert(cg, a[i], cg_arg_type(cg, in, i), t))) {
        cg_fail(cg, in, "intrinsic operand %d has an unexpected type", i);
        return NULL;
      }
  LLVMValueRef r = lower_intrinsic_value(cg, in, id, a, t);
  const Type *rt = id == IN_ISNAN || id == IN_ISINF || id == IN_ISFINITE ? cg_scalar(TY_BOOL)
                   : id == IN_SELP ? cg_arg_type(cg, in, 1) : t;
  if (!r || !in->type || in->type->kind == TY_TUPLE || in->type == rt)
    return r;
  LLVMValueRef c = cg_convert(cg, r, rt, in->type);
  if (!c)
    cg_fail(cg, in, "intrinsic result cannot be converted to its IR type");
  return c;
}

/* ---------------------------------------------------------------- pow --- */

/* int ** int by repeated squaring; a negative exponent gives 0 unless the
 * base is 1 (1) or -1 (+-1 by parity), as Numba's int_power on CUDA. */
static LLVMValueRef int_pow(Cg *cg, LLVMValueRef base, LLVMValueRef ex, bool is_signed) {
  LLVMBuilderRef B = cg->b;
  LLVMTypeRef t = LLVMTypeOf(base);
  LLVMValueRef zero = LLVMConstNull(t), one = LLVMConstInt(t, 1, 0);
  LLVMValueRef eneg = is_signed ? LLVMBuildICmp(B, LLVMIntSLT, ex, zero, "") : LLVMConstInt(cg->t_i1, 0, 0);
  LLVMValueRef e0 = LLVMBuildSelect(B, eneg, LLVMBuildNeg(B, ex, ""), ex, "");
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "ipow");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "ipow.body");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "ipow.done");
  LLVMBuildBr(B, loop);
  LLVMPositionBuilderAtEnd(B, loop);
  LLVMValueRef r = LLVMBuildPhi(B, t, ""), b = LLVMBuildPhi(B, t, ""), e = LLVMBuildPhi(B, t, "");
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, e, zero, ""), body, done);
  LLVMPositionBuilderAtEnd(B, body);
  LLVMValueRef odd = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, e, one, ""), zero, "");
  LLVMValueRef r2 = LLVMBuildSelect(B, odd, LLVMBuildMul(B, r, b, ""), r, "");
  LLVMValueRef b2 = LLVMBuildMul(B, b, b, ""), e2 = LLVMBuildLShr(B, e, one, "");
  LLVMBuildBr(B, loop);
  LLVMValueRef rv[2] = {one, r2}, bv[2] = {base, b2}, ev[2] = {e0, e2};
  LLVMBasicBlockRef from[2] = {pre, body};
  LLVMAddIncoming(r, rv, from, 2);
  LLVMAddIncoming(b, bv, from, 2);
  LLVMAddIncoming(e, ev, from, 2);
  LLVMPositionBuilderAtEnd(B, done);
  if (!is_signed)
    return r;
  LLVMValueRef m1 = LLVMConstAllOnes(t);
  LLVMValueRef odd_e = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, ex, one, ""), zero, "");
  LLVMValueRef negres = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, base, one, ""), one,
                                        LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, base, m1, ""),
                                                        LLVMBuildSelect(B, odd_e, m1, one, ""), zero, ""), "");
  return LLVMBuildSelect(B, eneg, negres, r, "");
}

LLVMValueRef cg_lower_pow(Cg *cg, const Inst *in, LLVMValueRef a, LLVMValueRef b) {
  const Type *ta = cg_arg_type(cg, in, 0), *tb = cg_arg_type(cg, in, 1);
  if (cg_is_int(ta) && cg_is_int(tb) && LLVMTypeOf(a) == LLVMTypeOf(b))
    return int_pow(cg, a, b, cg_is_signed(ta));
  if (cg_is_float(ta) && cg_is_float(tb) && LLVMTypeOf(a) == LLVMTypeOf(b))
    return cg_math2(cg, "pow", a, b, ta);
  if (cg_is_float(ta) && (cg_is_int(tb) || tb->kind == TY_BOOL)) {
    char name[32];
    bool f32 = is_f32ish(ta);
    snprintf(name, sizeof name, "%spowi%s", cg->hooks->math_prefix, f32 ? "f" : "");
    LLVMValueRef x = ta->kind == TY_F16 ? LLVMBuildFPExt(cg->b, a, cg->t_f32, "") : a;
    LLVMValueRef args[2] = {x, cg_convert(cg, b, tb, cg_scalar(TY_I32))};
    LLVMValueRef r = cg_call_extern(cg, name, LLVMTypeOf(x), args, 2);
    return r && ta->kind == TY_F16 ? LLVMBuildFPTrunc(cg->b, r, cg->t_f16, "") : r;
  }
  if ((ta->kind == TY_C64 || ta->kind == TY_C128) && LLVMTypeOf(a) == LLVMTypeOf(b))
    return cg_complex_binary(cg, in, a, b, ta);
  cg_fail(cg, in, "pow with unexpected operand types");
  return NULL;
}
