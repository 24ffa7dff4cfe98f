/* cg_half.c - OP_NUMFN dispatch and the cuda.fp16 functions.
 *
 * hadd/hsub/hmul/hdiv are half-precision LLVM operations: the NVPTX backend
 * emits native f16 instructions (sm_53+), the host computes in float and
 * rounds once to half, which gives the same IEEE result (float holds the
 * exact sum, difference and product of two halves, and rounding a float
 * quotient to half is innocuous).  hfma is fused: native on the GPU, in
 * double on the host.  The transcendental functions (hsqrt, hexp...) are
 * computed in float32 and rounded once to half; rounding, comparison,
 * max/min in float32 are exact. */
#include "codegen/cg_internal.h"
#include "ir/numfn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

LLVMValueRef cg_lower_complex_fn(Cg *cg, const Inst *in, LLVMValueRef *a); /* cg_complex.c */

static LLVMValueRef to_f32(Cg *cg, LLVMValueRef h) { return LLVMBuildFPExt(cg->b, h, cg->t_f32, ""); }
static LLVMValueRef to_f16(Cg *cg, LLVMValueRef f) { return LLVMBuildFPTrunc(cg->b, f, cg->t_f16, ""); }

static LLVMValueRef f32_intrinsic(Cg *cg, const char *name, LLVMValueRef *x, int n) {
  LLVMTypeRef t = cg->t_f32;
  return cg_intrinsic(cg, name, &t, 1, x, n);
}

/* Sign-bit operations on the 16 bits (exact, and no f16 arithmetic). */
static LLVMValueRef sign_op(Cg *cg, LLVMValueRef h, bool negate) {
  LLVMValueRef bits = LLVMBuildBitCast(cg->b, h, cg->t_i16, "");
  bits = negate ? LLVMBuildXor(cg->b, bits, LLVMConstInt(cg->t_i16, 0x8000, 0), "")
                : LLVMBuildAnd(cg->b, bits, LLVMConstInt(cg->t_i16, 0x7fff, 0), "");
  return LLVMBuildBitCast(cg->b, bits, cg->t_f16, "");
}

/* add/sub/mul.rn.f16 on the GPU: the explicit rounding keeps the backend
 * and ptxas from fusing an hmul into a later hadd, which the host (two
 * roundings) would not do. */
static LLVMValueRef ptx_rn(Cg *cg, const char *op, LLVMValueRef a, LLVMValueRef b) {
  char text[48];
  snprintf(text, sizeof text, "%s.rn.f16 $0, $1, $2;", op);
  LLVMTypeRef ps[2] = {cg->t_i16, cg->t_i16};
  LLVMTypeRef fty = LLVMFunctionType(cg->t_i16, ps, 2, 0);
  const char *cons = "=h,h,h";
  LLVMValueRef asm_ = LLVMGetInlineAsm(fty, text, strlen(text), (char *)cons, strlen(cons), 0, 0,
                                       LLVMInlineAsmDialectATT, 0);
  LLVMValueRef args[2] = {LLVMBuildBitCast(cg->b, a, cg->t_i16, ""), LLVMBuildBitCast(cg->b, b, cg->t_i16, "")};
  return LLVMBuildBitCast(cg->b, LLVMBuildCall2(cg->b, fty, asm_, args, 2, ""), cg->t_f16, "");
}

static LLVMValueRef half_arith(Cg *cg, NumFn fn, LLVMValueRef a, LLVMValueRef b) {
  static const char *const ptx[] = {"add", "sub", "mul"};
  if (cg->target->kind == CG_NVPTX && fn != NF_HDIV)
    return ptx_rn(cg, ptx[fn - NF_HADD], a, b);
  switch (fn) {
  case NF_HADD: return LLVMBuildFAdd(cg->b, a, b, "");
  case NF_HSUB: return LLVMBuildFSub(cg->b, a, b, "");
  case NF_HMUL: return LLVMBuildFMul(cg->b, a, b, "");
  default: return LLVMBuildFDiv(cg->b, a, b, ""); /* never fused */
  }
}

static LLVMValueRef hfma(Cg *cg, LLVMValueRef *a) {
  LLVMTypeRef t = cg->t_f16;
  if (cg->target->kind == CG_NVPTX)
    return cg_intrinsic(cg, "llvm.fma", &t, 1, a, 3);
  LLVMValueRef d[3];
  for (int i = 0; i < 3; i++)
    d[i] = LLVMBuildFPExt(cg->b, a[i], cg->t_f64, "");
  t = cg->t_f64;
  return LLVMBuildFPTrunc(cg->b, cg_intrinsic(cg, "llvm.fma", &t, 1, d, 3), cg->t_f16, "");
}

/* One-operand functions in float32, rounded once to half. */
static LLVMValueRef half_unary_f32(Cg *cg, NumFn fn, LLVMValueRef x) {
  static const struct { NumFn fn; const char *lib, *llvm; } tab[] = {
      {NF_HSQRT, NULL, "llvm.sqrt"}, {NF_HEXP, "exp", NULL}, {NF_HEXP2, "exp2", NULL},
      {NF_HEXP10, "exp10", NULL}, {NF_HLOG, "log", NULL}, {NF_HLOG2, "log2", NULL},
      {NF_HLOG10, "log10", NULL}, {NF_HSIN, "sin", NULL}, {NF_HCOS, "cos", NULL},
      {NF_HCEIL, NULL, "llvm.ceil"}, {NF_HFLOOR, NULL, "llvm.floor"},
      {NF_HTRUNC, NULL, "llvm.trunc"}, {NF_HRINT, NULL, "llvm.rint"},
  };
  LLVMValueRef f = to_f32(cg, x), one = LLVMConstReal(cg->t_f32, 1.0), r = NULL;
  if (fn == NF_HRCP)
    r = cg_fp(cg, LLVMBuildFDiv(cg->b, one, f, ""));
  else if (fn == NF_HRSQRT)
    r = cg_fp(cg, LLVMBuildFDiv(cg->b, one, f32_intrinsic(cg, "llvm.sqrt", &f, 1), ""));
  for (size_t i = 0; !r && i < sizeof tab / sizeof *tab; i++)
    if (tab[i].fn == fn)
      r = tab[i].lib ? cg_math1(cg, tab[i].lib, f, cg_scalar(TY_F32)) : f32_intrinsic(cg, tab[i].llvm, &f, 1);
  return r ? to_f16(cg, r) : NULL;
}

static LLVMValueRef half_compare(Cg *cg, NumFn fn, LLVMValueRef a, LLVMValueRef b) {
  static const LLVMRealPredicate p[] = {LLVMRealOEQ, LLVMRealONE, LLVMRealOGT,
                                        LLVMRealOGE, LLVMRealOLT, LLVMRealOLE};
  return LLVMBuildFCmp(cg->b, p[fn - NF_HEQ], a, b, "");
}

/* __h*_sat: the result clamped to [0, 1], NaN flushed to +0 (exact in f32). */
static LLVMValueRef saturate(Cg *cg, LLVMValueRef h) {
  LLVMValueRef f = to_f32(cg, h), zero = LLVMConstReal(cg->t_f32, 0.0), one = LLVMConstReal(cg->t_f32, 1.0);
  LLVMValueRef r = LLVMBuildSelect(cg->b, LLVMBuildFCmp(cg->b, LLVMRealOGT, f, zero, ""), f, zero, "");
  r = LLVMBuildSelect(cg->b, LLVMBuildFCmp(cg->b, LLVMRealOGT, f, one, ""), one, r, "");
  return to_f16(cg, r);
}

/* __hmax_nan/__hmin_nan: a NaN operand gives NaN. */
static LLVMValueRef minmax_nan(Cg *cg, bool is_max, LLVMValueRef *a) {
  LLVMValueRef f[2] = {to_f32(cg, a[0]), to_f32(cg, a[1])};
  LLVMValueRef m = f32_intrinsic(cg, is_max ? "llvm.maxnum" : "llvm.minnum", f, 2);
  LLVMValueRef any_nan = LLVMBuildFCmp(cg->b, LLVMRealUNO, f[0], f[1], "");
  return to_f16(cg, LLVMBuildSelect(cg->b, any_nan, LLVMConstReal(cg->t_f32, NAN), m, ""));
}

/* NK_HCONV: tests, conversions and bit casts of one operand. */
static LLVMValueRef half_conv(Cg *cg, NumFn fn, LLVMValueRef x) {
  LLVMBuilderRef B = cg->b;
  switch (fn) {
  case NF_HISNAN: return LLVMBuildFCmp(B, LLVMRealUNO, x, x, "");
  case NF_HISINF: {
    LLVMValueRef f = to_f32(cg, x);
    LLVMValueRef pos = LLVMBuildFCmp(B, LLVMRealOEQ, f, LLVMConstReal(cg->t_f32, INFINITY), "");
    LLVMValueRef neg = LLVMBuildFCmp(B, LLVMRealOEQ, f, LLVMConstReal(cg->t_f32, -INFINITY), "");
    return LLVMBuildSelect(B, pos, cg_const_i32(cg, 1), LLVMBuildSelect(B, neg, cg_const_i32(cg, -1), cg_const_i32(cg, 0), ""), "");
  }
  case NF_HALF2FLOAT: return to_f32(cg, x);
  case NF_FLOAT2HALF: case NF_FLOAT2HALF_RN: case NF_DOUBLE2HALF: return to_f16(cg, x);
  case NF_HALF_AS_SHORT: case NF_HALF_AS_USHORT: return LLVMBuildBitCast(B, x, cg->t_i16, "");
  default: return LLVMBuildBitCast(B, x, cg->t_f16, ""); /* __short_as_half, __ushort_as_half */
  }
}

static LLVMValueRef lower_half_fn(Cg *cg, NumFn fn, LLVMValueRef *a) {
  if (ir_numfn_info[fn].kind == NK_HCONV)
    return half_conv(cg, fn, a[0]);
  switch (fn) {
  case NF_HADD_RN: case NF_HSUB_RN: case NF_HMUL_RN:
    return half_arith(cg, (NumFn)(NF_HADD + (fn - NF_HADD_RN)), a[0], a[1]);
  case NF_HADD_SAT: case NF_HSUB_SAT: case NF_HMUL_SAT:
    return saturate(cg, half_arith(cg, (NumFn)(NF_HADD + (fn - NF_HADD_SAT)), a[0], a[1]));
  case NF_HFMA_SAT: return saturate(cg, hfma(cg, a));
  case NF_HFMA_RELU: { /* negative results become +0; NaN stays */
    LLVMValueRef r = hfma(cg, a), f = to_f32(cg, r);
    LLVMValueRef neg = LLVMBuildFCmp(cg->b, LLVMRealOLT, f, LLVMConstReal(cg->t_f32, 0.0), "");
    return LLVMBuildSelect(cg->b, neg, LLVMConstReal(cg->t_f16, 0.0), r, "");
  }
  case NF_HMAX_NAN: case NF_HMIN_NAN: return minmax_nan(cg, fn == NF_HMAX_NAN, a);
  case NF_HTANH: case NF_HTANH_APPROX:
    return to_f16(cg, cg_math1(cg, "tanh", to_f32(cg, a[0]), cg_scalar(TY_F32)));
  case NF_HEQU: case NF_HNEU: case NF_HGTU: case NF_HGEU: case NF_HLTU: case NF_HLEU: {
    static const LLVMRealPredicate p[] = {LLVMRealUEQ, LLVMRealUNE, LLVMRealUGT,
                                          LLVMRealUGE, LLVMRealULT, LLVMRealULE};
    return LLVMBuildFCmp(cg->b, p[fn - NF_HEQU], a[0], a[1], "");
  }
  case NF_HADD: case NF_HSUB: case NF_HMUL: case NF_HDIV: return half_arith(cg, fn, a[0], a[1]);
  case NF_HMAX: case NF_HMIN: { /* a NaN operand gives the other (maxnum) */
    LLVMValueRef f[2] = {to_f32(cg, a[0]), to_f32(cg, a[1])};
    return to_f16(cg, f32_intrinsic(cg, fn == NF_HMAX ? "llvm.maxnum" : "llvm.minnum", f, 2));
  }
  case NF_HFMA: return hfma(cg, a);
  case NF_HNEG: return sign_op(cg, a[0], true);
  case NF_HABS: return sign_op(cg, a[0], false);
  case NF_HEQ: case NF_HNE: case NF_HGT: case NF_HGE: case NF_HLT: case NF_HLE:
    return half_compare(cg, fn, a[0], a[1]);
  default: return half_unary_f32(cg, fn, a[0]);
  }
}

LLVMValueRef cg_lower_numfn(Cg *cg, const Inst *in) {
  if (in->ival < 0 || in->ival >= NF__COUNT || in->nargs != ir_numfn_info[in->ival].arity ||
      in->nargs > 3) {
    cg_fail(cg, in, "malformed numfn");
    return NULL;
  }
  LLVMValueRef a[3];
  for (int i = 0; i < in->nargs; i++)
    if (!(a[i] = cg_arg(cg, in, i)))
      return NULL;
  NumFn fn = (NumFn)in->ival;
  LLVMValueRef r = ir_numfn_info[fn].kind >= NK_H1 ? lower_half_fn(cg, fn, a)
                                                   : cg_lower_complex_fn(cg, in, a);
  if (!r)
    cg_fail(cg, in, "%s on an operand of unexpected type", ir_numfn_info[fn].name);
  return r;
}
