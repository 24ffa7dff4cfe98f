/* cg_bf16.c - OP_BF16 and the conversions to and from bfloat16.
 *
 * A bfloat16 is LLVM's `bfloat` on both targets, but no bfloat arithmetic
 * is ever emitted: each operation widens its operands to float32 (exact:
 * the 16 bits are the top half of a float), computes there and rounds the
 * result once to bfloat16.  float32 holds the exact sum, difference and
 * product of two bfloat16 values, and rounding a correctly rounded float32
 * quotient or square root again is innocuous (24 >= 2*8 + 2 bits), so the
 * results are the correctly rounded ones the GPU's fma.rn.bf16 (sm_80),
 * add.rn.bf16 (sm_90) and CUDA's __hdiv give.  hfma rounds a*b + c once,
 * through round-to-odd in double then float.  The rounding itself is
 * integer code (CUDA's __float2bfloat16 recipe) on the host, where LLVM
 * would call a runtime routine, and cvt.rn.bf16.f32 on the GPU (the same
 * bits: NaN becomes 0x7fff on both).  The math functions are CUDA's
 * recipes: its approximate PTX instructions on the GPU, the accurate libm
 * function on the host.  The GPU needs sm_80 or newer. */
#include "codegen/cg_internal.h"
#include "ir/bf16.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static LLVMTypeRef t_bf16(Cg *cg) { return LLVMBFloatTypeInContext(cg->ctx); }
static LLVMValueRef i16c(Cg *cg, unsigned v) { return LLVMConstInt(cg->t_i16, v, 0); }
static LLVMValueRef i32c(Cg *cg, unsigned v) { return LLVMConstInt(cg->t_i32, v, 0); }
static LLVMValueRef f32c(Cg *cg, double v) { return LLVMConstReal(cg->t_f32, v); }

static LLVMValueRef bits_of(Cg *cg, LLVMValueRef b) { return LLVMBuildBitCast(cg->b, b, cg->t_i16, ""); }
static LLVMValueRef from_bits(Cg *cg, LLVMValueRef i) { return LLVMBuildBitCast(cg->b, i, t_bf16(cg), ""); }

/* Exact widening: the 16 bits become the top half of a float. */
static LLVMValueRef to_f32(Cg *cg, LLVMValueRef b) {
  LLVMValueRef w = LLVMBuildZExt(cg->b, bits_of(cg, b), cg->t_i32, "");
  return LLVMBuildBitCast(cg->b, LLVMBuildShl(cg->b, w, i32c(cg, 16), ""), cg->t_f32, "");
}

/* float32 -> bfloat16 in a rounding mode: the top 16 bits, plus one where
 * the dropped half says so; a NaN becomes the canonical 0x7fff. */
static LLVMValueRef round_f32(Cg *cg, LLVMValueRef f, Bf16Round mode) {
  LLVMBuilderRef B = cg->b;
  if (mode == BR_RN && cg->target->kind == CG_NVPTX)
    return LLVMBuildFPTrunc(B, f, t_bf16(cg), ""); /* cvt.rn.bf16.f32 */
  LLVMValueRef x = LLVMBuildBitCast(B, f, cg->t_i32, "");
  LLVMValueRef mag = LLVMBuildAnd(B, x, i32c(cg, 0x7fffffffu), "");
  LLVMValueRef nan = LLVMBuildICmp(B, LLVMIntUGT, mag, i32c(cg, 0x7f800000u), "");
  LLVMValueRef hi = LLVMBuildTrunc(B, LLVMBuildLShr(B, x, i32c(cg, 16), ""), cg->t_i16, "");
  LLVMValueRef rem = LLVMBuildShl(B, x, i32c(cg, 16), "");
  LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, x, i32c(cg, 0), "");
  LLVMValueRef inexact = LLVMBuildICmp(B, LLVMIntNE, rem, i32c(cg, 0), "");
  LLVMValueRef up;
  switch (mode) {
  case BR_RN: {
    LLVMValueRef half = i32c(cg, 0x80000000u);
    LLVMValueRef odd = LLVMBuildTrunc(B, hi, cg->t_i1, "");
    LLVMValueRef tie = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntEQ, rem, half, ""), odd, "");
    up = LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntUGT, rem, half, ""), tie, "");
    break;
  }
  case BR_RD: up = LLVMBuildAnd(B, inexact, neg, ""); break;
  case BR_RU: up = LLVMBuildAnd(B, inexact, LLVMBuildNot(B, neg, ""), ""); break;
  default: up = LLVMConstInt(cg->t_i1, 0, 0); break;
  }
  LLVMValueRef r = LLVMBuildAdd(B, hi, LLVMBuildZExt(B, up, cg->t_i16, ""), "");
  return from_bits(cg, LLVMBuildSelect(B, nan, i16c(cg, 0x7fff), r, ""));
}

/* A double rounded to float with round-to-odd (truncate, then set the last
 * bit when inexact), so a second rounding to fewer bits is exact-correct. */
static LLVMValueRef f64_to_f32_odd(Cg *cg, LLVMValueRef d) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef f = LLVMBuildFPTrunc(B, d, cg->t_f32, "");
  LLVMValueRef back = LLVMBuildFPExt(B, f, cg->t_f64, "");
  LLVMValueRef u = LLVMBuildBitCast(B, f, cg->t_i32, "");
  LLVMValueRef zero = LLVMConstReal(cg->t_f64, 0.0);
  LLVMValueRef over = LLVMBuildOr(B,
      LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOGT, d, zero, ""), LLVMBuildFCmp(B, LLVMRealOGT, back, d, ""), ""),
      LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOLT, d, zero, ""), LLVMBuildFCmp(B, LLVMRealOLT, back, d, ""), ""), "");
  u = LLVMBuildSub(B, u, LLVMBuildZExt(B, over, cg->t_i32, ""), "");
  LLVMValueRef inexact = LLVMBuildFCmp(B, LLVMRealONE, back, d, "");
  u = LLVMBuildOr(B, u, LLVMBuildZExt(B, inexact, cg->t_i32, ""), "");
  return LLVMBuildBitCast(B, u, cg->t_f32, "");
}

/* An integer to bfloat16 in a mode: its magnitude keeps its top 24 bits
 * with a sticky bit for the rest, which float32 holds exactly; rounding
 * that float gives the integer's own rounding. */
static LLVMValueRef int_to_bf16(Cg *cg, LLVMValueRef v, const Type *from, Bf16Round mode) {
  LLVMBuilderRef B = cg->b;
  LLVMTypeRef i64 = cg->t_i64;
  bool sgn = cg_is_signed(from);
  LLVMValueRef w = sgn ? LLVMBuildSExt(B, v, i64, "") : LLVMBuildZExt(B, v, i64, "");
  if (LLVMTypeOf(v) == i64)
    w = v;
  LLVMValueRef neg = sgn ? LLVMBuildICmp(B, LLVMIntSLT, w, LLVMConstInt(i64, 0, 0), "") : LLVMConstInt(cg->t_i1, 0, 0);
  LLVMValueRef mag = LLVMBuildSelect(B, neg, LLVMBuildNeg(B, w, ""), w, "");
  LLVMValueRef args[2] = {mag, LLVMConstInt(cg->t_i1, 0, 0)};
  LLVMValueRef lz = cg_intrinsic(cg, "llvm.ctlz", &i64, 1, args, 2);
  LLVMValueRef excess = LLVMBuildSub(B, LLVMConstInt(i64, 40, 0), lz, "");
  LLVMValueRef big = LLVMBuildICmp(B, LLVMIntSGT, excess, LLVMConstInt(i64, 0, 0), "");
  LLVMValueRef sh = LLVMBuildSelect(B, big, excess, LLVMConstInt(i64, 0, 0), "");
  LLVMValueRef low = LLVMBuildAnd(B, mag, LLVMBuildSub(B, LLVMBuildShl(B, LLVMConstInt(i64, 1, 0), sh, ""),
                                                       LLVMConstInt(i64, 1, 0), ""), "");
  LLVMValueRef t = LLVMBuildLShr(B, mag, sh, "");
  t = LLVMBuildOr(B, t, LLVMBuildZExt(B, LLVMBuildICmp(B, LLVMIntNE, low, LLVMConstInt(i64, 0, 0), ""), i64, ""), "");
  LLVMValueRef f = LLVMBuildUIToFP(B, t, cg->t_f32, "");
  LLVMValueRef e = LLVMBuildShl(B, LLVMBuildAdd(B, LLVMBuildTrunc(B, sh, cg->t_i32, ""), i32c(cg, 127), ""),
                                i32c(cg, 23), "");
  f = LLVMBuildFMul(B, f, LLVMBuildBitCast(B, e, cg->t_f32, ""), ""); /* * 2^sh, exact */
  f = LLVMBuildSelect(B, neg, LLVMBuildFNeg(B, f, ""), f, "");
  return round_f32(cg, f, mode);
}

/* bfloat16 -> integer: rounded in float32, then converted with saturation
 * (NaN gives 0), as the GPU's cvt.*i instructions do. */
static LLVMValueRef bf16_to_int(Cg *cg, LLVMValueRef b, const Type *to, Bf16Round mode) {
  static const char *const rounding[] = {[BR_RN] = "llvm.rint", [BR_RZ] = "llvm.trunc",
                                         [BR_RD] = "llvm.floor", [BR_RU] = "llvm.ceil"};
  LLVMValueRef f = to_f32(cg, b);
  LLVMTypeRef over[2] = {cg->t_f32, cg_type(cg, to)};
  f = cg_intrinsic(cg, rounding[mode], over, 1, &f, 1);
  over[0] = over[1], over[1] = cg->t_f32;
  return cg_intrinsic(cg, cg_is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat", over, 2, &f, 1);
}

static LLVMValueRef from_number(Cg *cg, LLVMValueRef v, const Type *from, Bf16Round mode) {
  switch (from->kind) {
  case TY_F16: return round_f32(cg, LLVMBuildFPExt(cg->b, v, cg->t_f32, ""), mode);
  case TY_F32: return round_f32(cg, v, mode);
  case TY_F64: return round_f32(cg, f64_to_f32_odd(cg, v), mode);
  default: return cg_is_int(from) ? int_to_bf16(cg, v, from, mode) : NULL;
  }
}

static LLVMValueRef to_number(Cg *cg, LLVMValueRef b, const Type *to, Bf16Round mode) {
  if (to->kind == TY_F32)
    return to_f32(cg, b);
  if (to->kind == TY_F64)
    return LLVMBuildFPExt(cg->b, to_f32(cg, b), cg->t_f64, "");
  return cg_is_int(to) ? bf16_to_int(cg, b, to, mode) : NULL;
}

/* The GPU's bfloat16 instructions (and numba-cuda) need sm_80. */
static bool arch_ok(Cg *cg, const Inst *in) {
  const char *cpu = cg->target->cpu;
  if (cg->target->kind != CG_NVPTX || !cpu || strncmp(cpu, "sm_", 3) != 0 || atoi(cpu + 3) >= 80)
    return true;
  diag_error(cg->diags, E_CG_UNSUPPORTED, in->loc, "compile for sm_80 or newer",
             "bfloat16 needs compute capability 8.0 or newer (compiling for %s)", cpu);
  cg->failed = true;
  return false;
}

LLVMValueRef cg_bf16_cast(Cg *cg, const Inst *in, LLVMValueRef v, const Type *from, const Type *to) {
  if (!arch_ok(cg, in))
    return NULL;
  if (from->kind == to->kind)
    return v;
  /* the constructor and implicit conversions: to nearest; to an int: the
   * C++ operators of __nv_bfloat16, which truncate */
  return from->kind == TY_BF16 ? to_number(cg, v, to, BR_RZ) : from_number(cg, v, from, BR_RN);
}

/* --------------------------------------------------------- functions -- */

static LLVMValueRef f32_fn(Cg *cg, const char *llvm, LLVMValueRef x) {
  LLVMTypeRef t = cg->t_f32;
  return cg_intrinsic(cg, llvm, &t, 1, &x, 1);
}

/* a*b + c rounded once: a*b is exact in double, the sum is rounded to odd
 * (TwoSum gives its error), then to float with round-to-odd, then to
 * bfloat16. */
static LLVMValueRef fma_f32_odd(Cg *cg, LLVMValueRef *a) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef d[3];
  for (int i = 0; i < 3; i++)
    d[i] = LLVMBuildFPExt(B, to_f32(cg, a[i]), cg->t_f64, "");
  LLVMValueRef p = LLVMBuildFMul(B, d[0], d[1], "");
  LLVMValueRef s = LLVMBuildFAdd(B, p, d[2], "");
  LLVMValueRef bv = LLVMBuildFSub(B, s, p, "");
  LLVMValueRef err = LLVMBuildFAdd(B, LLVMBuildFSub(B, p, LLVMBuildFSub(B, s, bv, ""), ""),
                                   LLVMBuildFSub(B, d[2], bv, ""), "");
  /* s rounded away from the exact value when s and err differ in sign */
  LLVMValueRef zero = LLVMConstReal(cg->t_f64, 0.0);
  LLVMValueRef away = LLVMBuildOr(B,
      LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOGT, s, zero, ""), LLVMBuildFCmp(B, LLVMRealOLT, err, zero, ""), ""),
      LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOLT, s, zero, ""), LLVMBuildFCmp(B, LLVMRealOGT, err, zero, ""), ""), "");
  LLVMValueRef u = LLVMBuildBitCast(B, s, cg->t_i64, "");
  u = LLVMBuildSub(B, u, LLVMBuildZExt(B, away, cg->t_i64, ""), "");
  LLVMValueRef inexact = LLVMBuildFCmp(B, LLVMRealONE, err, zero, "");
  u = LLVMBuildOr(B, u, LLVMBuildZExt(B, inexact, cg->t_i64, ""), "");
  return f64_to_f32_odd(cg, LLVMBuildBitCast(B, u, cg->t_f64, ""));
}

static LLVMValueRef hfma(Cg *cg, LLVMValueRef *a) {
  if (cg->target->kind == CG_NVPTX) { /* fma.rn.bf16 */
    LLVMTypeRef t = t_bf16(cg);
    return cg_intrinsic(cg, "llvm.fma", &t, 1, a, 3);
  }
  return round_f32(cg, fma_f32_odd(cg, a), BR_RN);
}

/* Clamp to [0, 1]; NaN gives +0 (the GPU's max.bf16 with 0, then min). */
static LLVMValueRef saturate(Cg *cg, LLVMValueRef b) {
  LLVMValueRef f = to_f32(cg, b), zero = f32c(cg, 0.0), one = f32c(cg, 1.0);
  LLVMValueRef r = LLVMBuildSelect(cg->b, LLVMBuildFCmp(cg->b, LLVMRealOGT, f, zero, ""), f, zero, "");
  r = LLVMBuildSelect(cg->b, LLVMBuildFCmp(cg->b, LLVMRealOGT, r, one, ""), one, r, "");
  return round_f32(cg, r, BR_RN);
}

static LLVMValueRef arith(Cg *cg, Bf16Fn fn, LLVMValueRef x, LLVMValueRef y) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef a = to_f32(cg, x), b = to_f32(cg, y), r;
  switch (fn) {
  case BF_HADD: case BF_HADD_RN: case BF_HADD_SAT: r = LLVMBuildFAdd(B, a, b, ""); break;
  case BF_HSUB: case BF_HSUB_RN: case BF_HSUB_SAT: r = LLVMBuildFSub(B, a, b, ""); break;
  case BF_HMUL: case BF_HMUL_RN: case BF_HMUL_SAT: r = LLVMBuildFMul(B, a, b, ""); break;
  case BF_HDIV: r = LLVMBuildFDiv(B, a, b, ""); break;
  default: { /* max/min: a NaN operand gives the other, or NaN (_nan) */
    LLVMValueRef ab[2] = {a, b};
    bool is_max = fn == BF_HMAX || fn == BF_HMAX_NAN;
    r = cg_intrinsic(cg, is_max ? "llvm.maxnum" : "llvm.minnum", &cg->t_f32, 1, ab, 2);
    if (fn == BF_HMAX_NAN || fn == BF_HMIN_NAN)
      r = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, a, b, ""), f32c(cg, NAN), r, "");
  }
  }
  LLVMValueRef h = round_f32(cg, r, BR_RN);
  return fn == BF_HADD_SAT || fn == BF_HSUB_SAT || fn == BF_HMUL_SAT ? saturate(cg, h) : h;
}

static int sm_of(Cg *cg) {
  const char *cpu = cg->target->cpu;
  return cg->target->kind == CG_NVPTX && cpu && strncmp(cpu, "sm_", 3) == 0 ? atoi(cpu + 3) : 0;
}

/* A PTX instruction on one 32-bit ("f") or 16-bit ("h") register. */
static LLVMValueRef ptx1(Cg *cg, const char *text, LLVMTypeRef t, const char *cons, LLVMValueRef x) {
  LLVMTypeRef fty = LLVMFunctionType(t, &t, 1, 0);
  LLVMValueRef ia = LLVMGetInlineAsm(fty, text, strlen(text), (char *)cons, strlen(cons), 0, 0,
                                     LLVMInlineAsmDialectATT, 0);
  return LLVMBuildCall2(cg->b, fty, ia, &x, 1, "");
}

/* CUDA's approximate float32 functions (cuda_bf16.hpp uses them for
 * bfloat16): the PTX instruction on the GPU, so results match numba-cuda's
 * bit for bit; the accurate function on the host. */
static LLVMValueRef approx(Cg *cg, const char *op, LLVMValueRef f) {
  static const struct { const char *op, *ptx, *lib, *llvm; } tab[] = {
      {"sqrt", "sqrt.approx.f32 $0, $1;", NULL, "llvm.sqrt"},
      {"rsqrt", "rsqrt.approx.f32 $0, $1;", NULL, NULL},
      {"rcp", "rcp.approx.f32 $0, $1;", NULL, NULL},
      {"ex2", "ex2.approx.f32 $0, $1;", "exp2", NULL},
      {"lg2", "lg2.approx.f32 $0, $1;", "log2", NULL},
      {"tanh", "tanh.approx.f32 $0, $1;", "tanh", NULL},
  };
  size_t i = 0;
  while (strcmp(tab[i].op, op) != 0)
    i++;
  if (cg->target->kind == CG_NVPTX)
    return ptx1(cg, tab[i].ptx, cg->t_f32, "=f,f", f);
  if (tab[i].lib)
    return cg_math1(cg, tab[i].lib, f, cg_scalar(TY_F32));
  if (tab[i].llvm)
    return f32_fn(cg, tab[i].llvm, f);
  LLVMValueRef d = op[0] == 'r' && op[1] == 's' ? f32_fn(cg, "llvm.sqrt", f) : f;
  return LLVMBuildFDiv(cg->b, f32c(cg, 1.0), d, "");
}

static LLVMValueRef f32_bits(Cg *cg, uint32_t u) {
  return LLVMConstBitCast(i32c(cg, u), cg->t_f32);
}

/* The exp and log family as CUDA writes them: ex2 of x * log2(e) (or
 * log2(10)), lg2 times ln(2) (or log10(2)), with the header's constants. */
static LLVMValueRef exp_log(Cg *cg, Bf16Fn fn, LLVMValueRef x) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef f = to_f32(cg, x);
  switch (fn) {
  case BF_HEXP: return round_f32(cg, approx(cg, "ex2", LLVMBuildFMul(B, f, f32_bits(cg, 0x3FB8AA3Cu), "")), BR_RN);
  case BF_HEXP2: return round_f32(cg, approx(cg, "ex2", f), BR_RN);
  case BF_HEXP10: { /* 10^x of -0x1.2ap-6 (0xBC95) is fixed up to 0x3f75 */
    LLVMValueRef r = round_f32(cg, approx(cg, "ex2", LLVMBuildFMul(B, f, f32_bits(cg, 0x40549A78u), "")), BR_RN);
    LLVMValueRef fix = LLVMBuildICmp(B, LLVMIntEQ, bits_of(cg, x), i16c(cg, 0xBC95), "");
    return LLVMBuildSelect(B, fix, from_bits(cg, i16c(cg, 0x3f75)), r, "");
  }
  case BF_HLOG2: return round_f32(cg, approx(cg, "lg2", f), BR_RN);
  case BF_HLOG: return round_f32(cg, LLVMBuildFMul(B, approx(cg, "lg2", f), f32_bits(cg, 0x3f317218u), ""), BR_RN);
  default: return round_f32(cg, LLVMBuildFMul(B, approx(cg, "lg2", f), f32_bits(cg, 0x3E9A209Bu), ""), BR_RN);
  }
}

/* One operand, computed in float32 and rounded once. */
static LLVMValueRef unary(Cg *cg, Bf16Fn fn, LLVMValueRef x) {
  static const struct { Bf16Fn fn; const char *lib, *llvm, *approx; } tab[] = {
      {BF_HTRUNC, NULL, "llvm.trunc", NULL}, {BF_HCEIL, NULL, "llvm.ceil", NULL},
      {BF_HFLOOR, NULL, "llvm.floor", NULL}, {BF_HRINT, NULL, "llvm.rint", NULL},
      {BF_HSQRT, NULL, NULL, "sqrt"},        {BF_HRSQRT, NULL, NULL, "rsqrt"},
      {BF_HRCP, NULL, NULL, "rcp"},          {BF_HCOS, "cos", NULL, NULL},
      {BF_HSIN, "sin", NULL, NULL},          {BF_HTANH, NULL, NULL, "tanh"},
  };
  LLVMBuilderRef B = cg->b;
  if (fn == BF_HNEG || fn == BF_HABS) /* the sign bit alone: exact, NaN kept */
    return from_bits(cg, fn == BF_HNEG ? LLVMBuildXor(B, bits_of(cg, x), i16c(cg, 0x8000), "")
                                       : LLVMBuildAnd(B, bits_of(cg, x), i16c(cg, 0x7fff), ""));
  if (fn >= BF_HLOG && fn <= BF_HEXP10)
    return exp_log(cg, fn, x);
  if (fn == BF_HTANH_APPROX) {
    if (sm_of(cg) >= 90) /* tanh.approx.bf16 */
      return from_bits(cg, ptx1(cg, "tanh.approx.bf16 $0, $1;", cg->t_i16, "=h,h", bits_of(cg, x)));
    fn = BF_HTANH;
  }
  LLVMValueRef f = to_f32(cg, x), r = NULL;
  for (size_t i = 0; !r && i < sizeof tab / sizeof *tab; i++)
    if (tab[i].fn == fn)
      r = tab[i].lib      ? cg_math1(cg, tab[i].lib, f, cg_scalar(TY_F32))
          : tab[i].approx ? approx(cg, tab[i].approx, f)
                          : f32_fn(cg, tab[i].llvm, f);
  return r ? round_f32(cg, r, BR_RN) : NULL;
}

static LLVMValueRef compare(Cg *cg, Bf16Fn fn, LLVMValueRef x, LLVMValueRef y) {
  static const LLVMRealPredicate p[] = {
      [BF_HEQ] = LLVMRealOEQ,  [BF_HNE] = LLVMRealONE,  [BF_HGE] = LLVMRealOGE,  [BF_HGT] = LLVMRealOGT,
      [BF_HLE] = LLVMRealOLE,  [BF_HLT] = LLVMRealOLT,  [BF_HEQU] = LLVMRealUEQ, [BF_HNEU] = LLVMRealUNE,
      [BF_HGEU] = LLVMRealUGE, [BF_HGTU] = LLVMRealUGT, [BF_HLEU] = LLVMRealULE, [BF_HLTU] = LLVMRealULT};
  return LLVMBuildFCmp(cg->b, p[fn], to_f32(cg, x), to_f32(cg, y), "");
}

/* hisnan -> bool; hisinf -> -1, 0 or 1 (int32), from the bits. */
static LLVMValueRef test(Cg *cg, Bf16Fn fn, LLVMValueRef x) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef f = to_f32(cg, x);
  if (fn == BF_HISNAN)
    return LLVMBuildFCmp(B, LLVMRealUNO, f, f, "");
  LLVMValueRef bits = bits_of(cg, x);
  LLVMValueRef pos = LLVMBuildICmp(B, LLVMIntEQ, bits, i16c(cg, 0x7f80), "");
  LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntEQ, bits, i16c(cg, 0xff80), "");
  return LLVMBuildSelect(B, pos, cg_const_i32(cg, 1),
                         LLVMBuildSelect(B, neg, cg_const_i32(cg, -1), cg_const_i32(cg, 0), ""), "");
}

static LLVMValueRef three(Cg *cg, Bf16Fn fn, LLVMValueRef *a) {
  LLVMValueRef r = hfma(cg, a);
  if (fn == BF_HFMA_SAT)
    return saturate(cg, r);
  if (fn == BF_HFMA_RELU) { /* negative results become +0; NaN stays */
    LLVMValueRef neg = LLVMBuildFCmp(cg->b, LLVMRealOLT, to_f32(cg, r), f32c(cg, 0.0), "");
    return LLVMBuildSelect(cg->b, neg, from_bits(cg, i16c(cg, 0)), r, "");
  }
  return r;
}

LLVMValueRef cg_lower_bf16(Cg *cg, const Inst *in) {
  if (in->ival < 0 || in->ival >= BF__COUNT || in->nargs != ir_bf16_arity((int)in->ival)) {
    cg_fail(cg, in, "malformed bf16 op");
    return NULL;
  }
  if (!arch_ok(cg, in))
    return NULL;
  LLVMValueRef a[3];
  for (int i = 0; i < in->nargs; i++)
    if (!(a[i] = cg_arg(cg, in, i)))
      return NULL;
  Bf16Fn fn = (Bf16Fn)in->ival;
  const Bf16Info *bi = &ir_bf16_info[fn];
  const Type *other = cg_scalar((TypeKind)bi->other);
  LLVMValueRef r = NULL;
  switch (bi->kind) {
  case BK_U: r = unary(cg, fn, a[0]); break;
  case BK_B: r = arith(cg, fn, a[0], a[1]); break;
  case BK_T: r = three(cg, fn, a); break;
  case BK_CMP: r = compare(cg, fn, a[0], a[1]); break;
  case BK_TEST: r = test(cg, fn, a[0]); break;
  case BK_TO: r = bi->mode == BR_BITS ? bits_of(cg, a[0]) : to_number(cg, a[0], other, bi->mode); break;
  case BK_FROM: r = bi->mode == BR_BITS ? from_bits(cg, a[0]) : from_number(cg, a[0], other, bi->mode); break;
  }
  if (!r)
    cg_fail(cg, in, "%s on an operand of unexpected type", bi->name);
  return r;
}
