/* cg_fp8.c - the fp8 types (one byte: cuda_fp8.h's storage bits) and the
 * cvt_* intrinsics of numba.cuda._internal.cuda_fp8 (OP_FP8).
 *
 * Every conversion is cuda_fp8.hpp's algorithm written as straight-line
 * integer code, so the CPU and the GPU give the same bits as Numba's shims:
 * rounding to e4m3/e5m2 goes through double (__nv_cvt_double_to_fp8: round
 * to nearest even, a NaN to 0x7f / 0x7e|mantissa with its sign, overflow
 * to the largest finite value under satfinite, else to NaN (e4m3) or inf
 * (e5m2)); a float is first made a canonical NaN and widened exactly.  On
 * sm_89 and newer a satfinite float32 rounding is the PTX instruction CUDA
 * uses there (cvt.rn.satfinite.e4m3x2.f32: the same result).  e8m0 goes
 * through bfloat16's bits (__nv_cvt_bfloat16raw_to_e8m0, rounding toward
 * zero or up), a double first to float with a sticky bit.  Reading a value
 * decodes it exactly to float32; the int conversions then truncate and
 * saturate as CUDA's __half2int_rz & co. do (NaN: 0, or 0x8000000000000000
 * for the 64-bit types). */
#include "codegen/cg_internal.h"
#include "ir/fp8.h"

#include <stdlib.h>
#include <string.h>

typedef struct Fmt { /* an fp8 format's constants, as cuda_fp8.hpp names them */
  unsigned bias, sig, mmask, maxnorm;
  unsigned long long mindenorm_o2, overflow, minnorm;
} Fmt;

static const Fmt e4m3 = {7, 4, 0x7, 0x7e, 0x3F50000000000000ull, 0x407D000000000000ull, 0x3F90000000000000ull};
static const Fmt e5m2 = {15, 3, 0x3, 0x7b, 0x3EE0000000000000ull, 0x40EE000000000000ull - 1,
                         0x3F10000000000000ull};

static LLVMValueRef c8(Cg *cg, unsigned v) { return LLVMConstInt(cg->t_i8, v, 0); }
static LLVMValueRef c16(Cg *cg, unsigned v) { return LLVMConstInt(cg->t_i16, v, 0); }
static LLVMValueRef c32(Cg *cg, unsigned v) { return LLVMConstInt(cg->t_i32, v, 0); }
static LLVMValueRef c64(Cg *cg, unsigned long long v) { return LLVMConstInt(cg->t_i64, v, 0); }
static LLVMValueRef cmp(Cg *cg, LLVMIntPredicate p, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildICmp(cg->b, p, a, b, "");
}
static LLVMValueRef sel(Cg *cg, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(cg->b, c, a, b, "");
}

static int sm_of(Cg *cg) {
  const char *cpu = cg->target->cpu;
  return cg->target->kind == CG_NVPTX && cpu && strncmp(cpu, "sm_", 3) == 0 ? atoi(cpu + 3) : 0;
}

/* round-to-nearest-even: one more when the dropped bits are over half, or
 * half and the kept value odd */
static LLVMValueRef round_up(Cg *cg, LLVMValueRef dropped, LLVMValueRef half, LLVMValueRef kept) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef odd = LLVMBuildTrunc(B, kept, cg->t_i1, "");
  LLVMValueRef tie = LLVMBuildAnd(B, cmp(cg, LLVMIntEQ, dropped, half), odd, "");
  LLVMValueRef up = LLVMBuildOr(B, cmp(cg, LLVMIntUGT, dropped, half), tie, "");
  return LLVMBuildAdd(B, kept, LLVMBuildZExt(B, up, LLVMTypeOf(kept), ""), "");
}

/* __nv_cvt_double_to_fp8(d, sat, e5m2 ? E5M2 : E4M3), on the double's bits. */
static LLVMValueRef double_to_fp8(Cg *cg, LLVMValueRef d, bool sat, bool is_e5m2) {
  LLVMBuilderRef B = cg->b;
  const Fmt *f = is_e5m2 ? &e5m2 : &e4m3;
  LLVMValueRef x = LLVMBuildBitCast(B, d, cg->t_i64, "");
  unsigned long long half = 1ull << (53 - f->sig - 1);
  LLVMValueRef sign = LLVMBuildShl(B, LLVMBuildTrunc(B, LLVMBuildLShr(B, x, c64(cg, 63), ""), cg->t_i8, ""), c8(cg, 7), "");
  /* the exponent field in the target format, as a signed 64-bit number */
  LLVMValueRef e = LLVMBuildAnd(B, LLVMBuildLShr(B, x, c64(cg, 52), ""), c64(cg, 0x7ff), "");
  e = LLVMBuildSub(B, e, c64(cg, 1023 - f->bias), "");
  LLVMValueRef mant = LLVMBuildAnd(B, LLVMBuildTrunc(B, LLVMBuildLShr(B, x, c64(cg, 53 - f->sig), ""), cg->t_i8, ""),
                                   c8(cg, f->mmask), "");
  LLVMValueRef absx = LLVMBuildAnd(B, x, c64(cg, 0x7FFFFFFFFFFFFFFFull), "");
  /* normal range: exponent and mantissa, rounded on the dropped bits */
  LLVMValueRef e8 = LLVMBuildTrunc(B, e, cg->t_i8, "");
  LLVMValueRef normal = LLVMBuildOr(B, LLVMBuildShl(B, e8, c8(cg, f->sig - 1), ""), mant, "");
  LLVMValueRef rnd = LLVMBuildAnd(B, x, c64(cg, (half << 1) - 1), "");
  normal = round_up(cg, rnd, c64(cg, half), LLVMBuildZExt(B, normal, cg->t_i64, ""));
  normal = LLVMBuildTrunc(B, normal, cg->t_i8, "");
  /* subnormal range: the implicit bit shifted down by 1 - exp (1..sig
   * there; clamped so that other lanes never shift past the width) */
  LLVMValueRef shift = LLVMBuildSub(B, c64(cg, 1), e, "");
  shift = sel(cg, cmp(cg, LLVMIntUGT, shift, c64(cg, 15)), c64(cg, 15), shift);
  LLVMValueRef m = LLVMBuildZExt(B, LLVMBuildOr(B, mant, c8(cg, 1u << (f->sig - 1)), ""), cg->t_i64, "");
  LLVMValueRef sub = LLVMBuildLShr(B, m, shift, "");
  LLVMValueRef keep = LLVMBuildSub(B, LLVMBuildShl(B, c64(cg, half), LLVMBuildAdd(B, shift, c64(cg, 1), ""), ""),
                                   c64(cg, 1), "");
  LLVMValueRef srnd = LLVMBuildAnd(B, LLVMBuildOr(B, x, c64(cg, 1ull << 52), ""), keep, "");
  sub = LLVMBuildTrunc(B, round_up(cg, srnd, LLVMBuildShl(B, c64(cg, half), shift, ""), sub), cg->t_i8, "");
  LLVMValueRef nan = is_e5m2 ? LLVMBuildOr(B, mant, c8(cg, 0x7e), "") : c8(cg, 0x7f);
  LLVMValueRef over = c8(cg, sat ? f->maxnorm : is_e5m2 ? 0x7c : 0x7f);
  LLVMValueRef r = sel(cg, cmp(cg, LLVMIntUGE, absx, c64(cg, f->minnorm)), normal, sub);
  r = sel(cg, cmp(cg, LLVMIntUGT, absx, c64(cg, f->overflow)), over, r);
  r = sel(cg, cmp(cg, LLVMIntUGT, absx, c64(cg, 0x7FF0000000000000ull)), nan, r);
  r = sel(cg, cmp(cg, LLVMIntULE, absx, c64(cg, f->mindenorm_o2)), c8(cg, 0), r);
  return LLVMBuildOr(B, r, sign, "");
}

/* sm_89+: the satfinite rounding of a pair, lo in the low byte, by the PTX
 * instruction CUDA uses there. */
static LLVMValueRef cvt_pair_ptx(Cg *cg, LLVMValueRef lo, LLVMValueRef hi, bool is_e5m2) {
  const char *text = is_e5m2 ? "cvt.rn.satfinite.e5m2x2.f32 $0, $2, $1;" : "cvt.rn.satfinite.e4m3x2.f32 $0, $2, $1;";
  LLVMTypeRef ps[2] = {cg->t_f32, cg->t_f32};
  LLVMTypeRef fty = LLVMFunctionType(cg->t_i16, ps, 2, 0);
  LLVMValueRef ia = LLVMGetInlineAsm(fty, (char *)text, strlen(text), "=h,f,f", 6, 0, 0, LLVMInlineAsmDialectATT, 0);
  LLVMValueRef args[2] = {lo, hi};
  return LLVMBuildCall2(cg->b, fty, ia, args, 2, "");
}

/* __nv_cvt_float_to_fp8: sm_89+ satfinite by the PTX instruction (the low
 * byte of the pair), else a canonical NaN, widened to double. */
static LLVMValueRef float_to_fp8(Cg *cg, LLVMValueRef f, bool sat, bool is_e5m2) {
  LLVMBuilderRef B = cg->b;
  if (sat && sm_of(cg) >= 89)
    return LLVMBuildTrunc(B, cvt_pair_ptx(cg, f, LLVMConstReal(cg->t_f32, 0.0), is_e5m2), cg->t_i8, "");
  LLVMValueRef x = LLVMBuildBitCast(B, f, cg->t_i32, "");
  LLVMValueRef isnan = cmp(cg, LLVMIntUGT, LLVMBuildAnd(B, x, c32(cg, 0x7fffffffu), ""), c32(cg, 0x7f800000u));
  x = sel(cg, isnan, c32(cg, 0x7fffffffu), x);
  LLVMValueRef d = LLVMBuildFPExt(B, LLVMBuildBitCast(B, x, cg->t_f32, ""), cg->t_f64, "");
  return double_to_fp8(cg, d, sat, is_e5m2);
}

static LLVMValueRef bf16bits_to_float(Cg *cg, LLVMValueRef raw) {
  LLVMValueRef w = LLVMBuildShl(cg->b, LLVMBuildZExt(cg->b, raw, cg->t_i32, ""), c32(cg, 16), "");
  return LLVMBuildBitCast(cg->b, w, cg->t_f32, "");
}

/* __nv_cvt_bfloat16raw_to_e8m0: the exponent field, one up when rounding
 * up a value with mantissa bits (not a NaN, not the smallest subnormals),
 * and 0xff (NaN) held back to 0xfe under satfinite unless the input was NaN. */
static LLVMValueRef bf16raw_to_e8m0(Cg *cg, LLVMValueRef raw, bool sat, bool up) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef r = LLVMBuildTrunc(B, LLVMBuildLShr(B, raw, c16(cg, 7), ""), cg->t_i8, "");
  LLVMValueRef mag = LLVMBuildAnd(B, raw, c16(cg, 0x7fff), "");
  if (up) {
    LLVMValueRef frac = cmp(cg, LLVMIntNE, LLVMBuildAnd(B, raw, c16(cg, 0x7f), ""), c16(cg, 0));
    LLVMValueRef inc = LLVMBuildAnd(B, frac, cmp(cg, LLVMIntUGT, mag, c16(cg, 0x40)), "");
    inc = LLVMBuildAnd(B, inc, cmp(cg, LLVMIntULT, mag, c16(cg, 0x7f80)), "");
    r = LLVMBuildAdd(B, r, LLVMBuildZExt(B, inc, cg->t_i8, ""), "");
  }
  if (sat) {
    LLVMValueRef hold = LLVMBuildAnd(B, cmp(cg, LLVMIntULE, mag, c16(cg, 0x7f80)), cmp(cg, LLVMIntEQ, r, c8(cg, 0xff)), "");
    r = sel(cg, hold, c8(cg, 0xfe), r);
  }
  return r;
}

/* __nv_cvt_float_to_e8m0: toward zero through bfloat16 truncated, up
 * through |x| rounded up to bfloat16 (a NaN: 0x7fff either way). */
static LLVMValueRef float_to_e8m0(Cg *cg, LLVMValueRef f, bool sat, bool up) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef u = LLVMBuildBitCast(B, f, cg->t_i32, "");
  LLVMValueRef a = LLVMBuildAnd(B, u, c32(cg, 0x7fffffffu), "");
  LLVMValueRef isnan = cmp(cg, LLVMIntUGT, a, c32(cg, 0x7f800000u));
  LLVMValueRef src = up ? a : u;
  LLVMValueRef hi = LLVMBuildLShr(B, src, c32(cg, 16), "");
  if (up) {
    LLVMValueRef inexact = cmp(cg, LLVMIntNE, LLVMBuildAnd(B, a, c32(cg, 0xffff), ""), c32(cg, 0));
    LLVMValueRef bump = LLVMBuildAnd(B, inexact, cmp(cg, LLVMIntULT, a, c32(cg, 0x7f800000u)), "");
    hi = LLVMBuildAdd(B, hi, LLVMBuildZExt(B, bump, cg->t_i32, ""), "");
  }
  hi = sel(cg, isnan, c32(cg, 0x7fff), hi);
  return bf16raw_to_e8m0(cg, LLVMBuildTrunc(B, hi, cg->t_i16, ""), sat, up);
}

/* __internal_double_to_float_with_sticky: rounded toward zero to float,
 * the last bit set when inexact, so one more rounding is exact-correct. */
static LLVMValueRef double_to_float_sticky(Cg *cg, LLVMValueRef d) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef f = LLVMBuildFPTrunc(B, d, cg->t_f32, "");
  LLVMValueRef back = LLVMBuildFPExt(B, f, cg->t_f64, "");
  LLVMValueRef u = LLVMBuildBitCast(B, f, cg->t_i32, "");
  LLVMValueRef notnan = cmp(cg, LLVMIntULE, LLVMBuildShl(B, u, c32(cg, 1), ""), c32(cg, 0xff000000u));
  LLVMValueRef zero = LLVMConstReal(cg->t_f64, 0.0);
  LLVMValueRef away = LLVMBuildOr(B,
      LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOGT, d, zero, ""), LLVMBuildFCmp(B, LLVMRealOGT, back, d, ""), ""),
      LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOLT, d, zero, ""), LLVMBuildFCmp(B, LLVMRealOLT, back, d, ""), ""), "");
  u = LLVMBuildSub(B, u, LLVMBuildZExt(B, away, cg->t_i32, ""), "");
  LLVMValueRef inexact = LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealUNE, back, d, ""), notnan, "");
  u = LLVMBuildOr(B, u, LLVMBuildZExt(B, inexact, cg->t_i32, ""), "");
  return LLVMBuildBitCast(B, u, cg->t_f32, "");
}

/* __internal_e8m0_to_bf16: the exponent in bfloat16's field; 0 is 2**-127
 * (a subnormal), 0xff the canonical NaN. */
static LLVMValueRef e8m0_to_bf16raw(Cg *cg, LLVMValueRef b) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef r = LLVMBuildShl(B, LLVMBuildZExt(B, b, cg->t_i16, ""), c16(cg, 7), "");
  r = sel(cg, cmp(cg, LLVMIntEQ, b, c8(cg, 0)), c16(cg, 0x40), r);
  return sel(cg, cmp(cg, LLVMIntEQ, b, c8(cg, 0xff)), c16(cg, 0x7fff), r);
}

/* An fp8 value's exact float32 (a NaN: 0x7fffffff, as CUDA's widening
 * through __half gives). */
static LLVMValueRef fp8_to_float(Cg *cg, LLVMValueRef b, TypeKind k) {
  LLVMBuilderRef B = cg->b;
  if (k == TY_FP8_E8M0)
    return bf16bits_to_float(cg, e8m0_to_bf16raw(cg, b));
  bool is_e5m2 = k == TY_FP8_E5M2;
  unsigned mbits = is_e5m2 ? 2 : 3, bias = is_e5m2 ? 15 : 7;
  LLVMValueRef w = LLVMBuildZExt(B, b, cg->t_i32, "");
  LLVMValueRef sign = LLVMBuildShl(B, LLVMBuildAnd(B, w, c32(cg, 0x80), ""), c32(cg, 24), "");
  LLVMValueRef mag = LLVMBuildAnd(B, w, c32(cg, 0x7f), "");
  LLVMValueRef e = LLVMBuildLShr(B, mag, c32(cg, mbits), "");
  LLVMValueRef m = LLVMBuildAnd(B, mag, c32(cg, (1u << mbits) - 1), "");
  LLVMValueRef isnorm = cmp(cg, LLVMIntNE, e, c32(cg, 0));
  /* value = significand * 2**(max(e, 1) - bias - mbits): exact in float */
  LLVMValueRef sig = LLVMBuildOr(B, m, LLVMBuildShl(B, LLVMBuildZExt(B, isnorm, cg->t_i32, ""), c32(cg, mbits), ""), "");
  LLVMValueRef e1 = sel(cg, isnorm, e, c32(cg, 1));
  LLVMValueRef scale = LLVMBuildShl(B, LLVMBuildAdd(B, e1, c32(cg, 127 - bias - mbits), ""), c32(cg, 23), "");
  LLVMValueRef v = LLVMBuildFMul(B, LLVMBuildUIToFP(B, sig, cg->t_f32, ""), LLVMBuildBitCast(B, scale, cg->t_f32, ""), "");
  LLVMValueRef bits = LLVMBuildOr(B, LLVMBuildBitCast(B, v, cg->t_i32, ""), sign, "");
  if (is_e5m2) {
    LLVMValueRef special = cmp(cg, LLVMIntEQ, e, c32(cg, 31));
    LLVMValueRef inf = LLVMBuildOr(B, c32(cg, 0x7f800000u), sign, "");
    bits = sel(cg, special, sel(cg, cmp(cg, LLVMIntEQ, m, c32(cg, 0)), inf, c32(cg, 0x7fffffffu)), bits);
  } else {
    bits = sel(cg, cmp(cg, LLVMIntEQ, mag, c32(cg, 0x7f)), c32(cg, 0x7fffffffu), bits);
  }
  return LLVMBuildBitCast(B, bits, cg->t_f32, "");
}

/* An int to e8m0 as cuda_fp8.hpp's constructors give it (through float,
 * double or bfloat16 with a fix-up, all exact in effect): 2**ceil(log2|v|),
 * 0 for 0 (2**-127). */
static LLVMValueRef int_to_e8m0(Cg *cg, LLVMValueRef v, const Type *from) {
  LLVMBuilderRef B = cg->b;
  bool sgn = cg_is_signed(from);
  LLVMValueRef x = cg_bits(from) < 64 ? (sgn ? LLVMBuildSExt(B, v, cg->t_i64, "") : LLVMBuildZExt(B, v, cg->t_i64, "")) : v;
  if (sgn)
    x = sel(cg, cmp(cg, LLVMIntSLT, x, c64(cg, 0)), LLVMBuildSub(B, c64(cg, 0), x, ""), x);
  LLVMTypeRef t64 = cg->t_i64;
  LLVMValueRef args[2] = {x, LLVMConstInt(cg->t_i1, 0, 0)};
  LLVMValueRef lz = cg_intrinsic(cg, "llvm.ctlz", &t64, 1, args, 2);
  LLVMValueRef e = LLVMBuildSub(B, c64(cg, 63 + 127), lz, "");
  LLVMValueRef pow2 = cmp(cg, LLVMIntEQ, LLVMBuildAnd(B, x, LLVMBuildSub(B, x, c64(cg, 1), ""), ""), c64(cg, 0));
  e = LLVMBuildAdd(B, e, LLVMBuildZExt(B, LLVMBuildNot(B, pow2, ""), t64, ""), "");
  e = sel(cg, cmp(cg, LLVMIntEQ, x, c64(cg, 0)), c64(cg, 0), e);
  return LLVMBuildTrunc(B, e, cg->t_i8, "");
}

/* The constructor: fp8 type `to` from a number `from` (typing/infer_fp8.c
 * admits ints, float16/32/64 and bfloat16), satfinite, e8m0 rounding up. */
static LLVMValueRef to_fp8(Cg *cg, LLVMValueRef v, const Type *from, TypeKind to) {
  LLVMBuilderRef B = cg->b;
  bool e8 = to == TY_FP8_E8M0, is_e5m2 = to == TY_FP8_E5M2;
  if (from->kind == TY_BF16) {
    LLVMValueRef raw = LLVMBuildBitCast(B, v, cg->t_i16, "");
    return e8 ? bf16raw_to_e8m0(cg, raw, true, true) : float_to_fp8(cg, bf16bits_to_float(cg, raw), true, is_e5m2);
  }
  if (from->kind == TY_F64)
    return e8 ? float_to_e8m0(cg, double_to_float_sticky(cg, v), true, true) : double_to_fp8(cg, v, true, is_e5m2);
  if (cg_is_int(from)) {
    if (e8)
      return int_to_e8m0(cg, v, from);
    v = cg_is_signed(from) ? LLVMBuildSIToFP(B, v, cg->t_f32, "") : LLVMBuildUIToFP(B, v, cg->t_f32, "");
  } else if (from->kind == TY_F16) {
    v = LLVMBuildFPExt(B, v, cg->t_f32, "");
  }
  return e8 ? float_to_e8m0(cg, v, true, true) : float_to_fp8(cg, v, true, is_e5m2);
}

/* float value f to an int type as CUDA's __half2int_rz & co.: truncated
 * and saturated; a NaN is 0, or 0x8000000000000000 for 64 bits. */
static LLVMValueRef float_to_int(Cg *cg, LLVMValueRef f, const Type *to) {
  LLVMTypeRef ts[2] = {cg_type(cg, to), cg->t_f32};
  LLVMValueRef r = cg_intrinsic(cg, cg_is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat", ts, 2, &f, 1);
  /* the NaN test on the bits: fastmath's no-NaNs assumption must not fold it */
  LLVMValueRef u = LLVMBuildAnd(cg->b, LLVMBuildBitCast(cg->b, f, cg->t_i32, ""), c32(cg, 0x7fffffffu), "");
  LLVMValueRef nan = cmp(cg, LLVMIntUGT, u, c32(cg, 0x7f800000u));
  return sel(cg, nan, LLVMConstInt(ts[0], cg_bits(to) < 64 ? 0 : 0x8000000000000000ull, 0), r);
}

LLVMValueRef cg_fp8_cast(Cg *cg, const Inst *in, LLVMValueRef v, const Type *from, const Type *to) {
  LLVMBuilderRef B = cg->b;
  if (from == to)
    return v;
  if (ty_is_fp8(to) && !ty_is_fp8(from))
    return to_fp8(cg, v, from, to->kind);
  if (!ty_is_fp8(from) || ty_is_fp8(to)) {
    char a[64], b[64];
    cg_fail(cg, in, "no fp8 conversion from %s to %s", ty_name(from, a, sizeof a), ty_name(to, b, sizeof b));
    return NULL;
  }
  if (to->kind == TY_BF16) { /* exact for e4m3/e5m2 (__float2bfloat16_rz); e8m0 by its bits */
    LLVMValueRef raw = from->kind == TY_FP8_E8M0
                           ? e8m0_to_bf16raw(cg, v)
                           : LLVMBuildTrunc(B, LLVMBuildLShr(B, LLVMBuildBitCast(B, fp8_to_float(cg, v, from->kind), cg->t_i32, ""),
                                                             c32(cg, 16), ""), cg->t_i16, "");
    return LLVMBuildBitCast(B, raw, LLVMBFloatTypeInContext(cg->ctx), "");
  }
  LLVMValueRef f = fp8_to_float(cg, v, from->kind);
  if (cg_is_int(to))
    return float_to_int(cg, f, to);
  LLVMValueRef r = cg_convert(cg, f, TY_F32_T, to); /* float16 (e8m0: rounded), float32, float64 */
  if (r && to->kind == TY_F16) { /* a NaN is CUDA's canonical 0x7fff (cvt.rn.f16.f32) */
    LLVMValueRef u = LLVMBuildAnd(B, LLVMBuildBitCast(B, f, cg->t_i32, ""), c32(cg, 0x7fffffffu), "");
    LLVMValueRef nan = cmp(cg, LLVMIntUGT, u, c32(cg, 0x7f800000u));
    r = sel(cg, nan, LLVMBuildBitCast(B, c16(cg, 0x7fff), cg->t_f16, ""), r);
  }
  return r;
}

/* The pair conversions (__nv_cvt_float2_to_fp8x2 & co.): x.y in the high
 * byte, x.x in the low one; a satfinite float2 on sm_89+ is one PTX cvt. */
static LLVMValueRef lower_pair(Cg *cg, int fn, LLVMValueRef v, bool sat, bool one) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef x = LLVMBuildExtractValue(B, v, 0, ""), y = LLVMBuildExtractValue(B, v, 1, "");
  if (fn == FP8_FLOAT2_TO_FP8X2 && sat && sm_of(cg) >= 89)
    return cvt_pair_ptx(cg, x, y, one);
  LLVMValueRef e[2] = {x, y};
  for (int i = 0; i < 2; i++) {
    switch (fn) {
    case FP8_FLOAT2_TO_FP8X2: e[i] = float_to_fp8(cg, e[i], sat, one); break;
    case FP8_DOUBLE2_TO_FP8X2: e[i] = double_to_fp8(cg, e[i], sat, one); break;
    case FP8_FLOAT2_TO_E8M0X2: e[i] = float_to_e8m0(cg, e[i], sat, one); break;
    default: e[i] = float_to_e8m0(cg, double_to_float_sticky(cg, e[i]), sat, one); break;
    }
    e[i] = LLVMBuildZExt(B, e[i], cg->t_i16, "");
  }
  return LLVMBuildOr(B, LLVMBuildShl(B, e[1], c16(cg, 8), ""), e[0], "");
}

LLVMValueRef cg_lower_fp8(Cg *cg, const Inst *in) {
  LLVMValueRef v = cg_arg(cg, in, 0);
  if (!v)
    return NULL;
  LLVMBuilderRef B = cg->b;
  int fn = FP8_FN(in->ival);
  bool sat = in->ival & FP8_SAT_BIT, one = in->ival & FP8_MODE_BIT;
  const Fp8Info *fi = fn < FP8__COUNT ? &ir_fp8_info[fn] : NULL;
  if (fi && fi->arg == FA_RAW)
    v = LLVMBuildExtractValue(B, v, 0, "");
  switch (fn) {
  case FP8_FLOAT_TO_FP8: return float_to_fp8(cg, v, sat, one);
  case FP8_DOUBLE_TO_FP8: return double_to_fp8(cg, v, sat, one);
  case FP8_BF16RAW_TO_FP8: return float_to_fp8(cg, bf16bits_to_float(cg, v), sat, one);
  case FP8_FLOAT_TO_E8M0: return float_to_e8m0(cg, v, sat, one);
  case FP8_DOUBLE_TO_E8M0: return float_to_e8m0(cg, double_to_float_sticky(cg, v), sat, one);
  case FP8_BF16RAW_TO_E8M0: return bf16raw_to_e8m0(cg, v, sat, one);
  case FP8_E8M0_TO_BF16RAW:
    return LLVMBuildInsertValue(B, LLVMGetUndef(cg_type(cg, in->type)), e8m0_to_bf16raw(cg, v), 0, "");
  case FP8_FLOAT2_TO_FP8X2: case FP8_DOUBLE2_TO_FP8X2: case FP8_FLOAT2_TO_E8M0X2: case FP8_DOUBLE2_TO_E8M0X2:
    return lower_pair(cg, fn, v, sat, one);
  default:
    cg_fail(cg, in, "malformed fp8 op %d", fn);
    return NULL;
  }
}
