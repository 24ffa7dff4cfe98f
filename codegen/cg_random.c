/* cg_random.c - numba.cuda.random's xoroshiro128+ generators (OP_RANDOM),
 * the same LLVM IR for every target.
 *
 * Generator i is row i of a uint64 (n, 2) array: (s0, s1).  One call loads
 * the row once, advances it (twice for a normal value), stores it once and
 * converts the output, all in straight-line integer code; only jump loops
 * (128 steps, branch-free inside).  The arithmetic is Numba's, step for
 * step, so streams are bit-identical: next = s0 + s1 with
 * s1 ^= s0, s0 = rotl(s0, 55) ^ s1 ^ (s1 << 14), s1 = rotl(s1, 36);
 * uniform_float64 = (next >> 11) * 2^-53, uniform_float32 its rounding to
 * float32; normal = sqrt(-2 log u1) * cos(2 pi u2) (see normal()), through
 * the target's math library (libdevice on the GPU, as Numba; libm on the
 * host, see docs/language.md). */
#include "codegen/cg_internal.h"

#include <math.h>

/* Jump polynomial of xoroshiro128+: 2^64 steps (Blackman and Vigna). */
static const uint64_t jump_words[2] = {0xbeac0467eba5facbull, 0xd86b048b86aa9922ull};

static LLVMValueRef u64c(Cg *cg, uint64_t v) { return LLVMConstInt(cg->t_i64, v, 0); }

static LLVMValueRef rotl(Cg *cg, LLVMValueRef x, unsigned k) {
  LLVMValueRef hi = LLVMBuildShl(cg->b, x, u64c(cg, k), "");
  return LLVMBuildOr(cg->b, hi, LLVMBuildLShr(cg->b, x, u64c(cg, 64 - k), ""), "");
}

/* One xoroshiro128+ step on s[0], s[1]; returns the output s0 + s1. */
static LLVMValueRef step(Cg *cg, LLVMValueRef s[2]) {
  LLVMValueRef out = LLVMBuildAdd(cg->b, s[0], s[1], "rnd.out");
  LLVMValueRef t = LLVMBuildXor(cg->b, s[1], s[0], "");
  LLVMValueRef a = LLVMBuildXor(cg->b, rotl(cg, s[0], 55), t, "");
  s[0] = LLVMBuildXor(cg->b, a, LLVMBuildShl(cg->b, t, u64c(cg, 14), ""), "rnd.s0");
  s[1] = rotl(cg, t, 36);
  return out;
}

/* (x >> 11) * 2^-53, exact in float64; float32 is its rounding.  Numba
 * computes the float32 one through float64 (convert, scale, round), but
 * rounding the 53-bit integer n to float32 first and then scaling gives
 * the same bits: scaling by a power of two is exact and commutes with
 * rounding while the result stays a normal number, and n * 2^-53 is 0 or
 * at least 2^-53.  So float32 takes one conversion and a float32 multiply
 * (cvt.rn.f32.u64 + mul) where float64 takes two conversions and a double
 * multiply (bench/gpu monte_carlo draws four per path). */
static LLVMValueRef unit_float(Cg *cg, LLVMValueRef x, bool f32) {
  LLVMTypeRef ft = f32 ? cg->t_f32 : cg->t_f64;
  LLVMValueRef top = LLVMBuildUIToFP(cg->b, LLVMBuildLShr(cg->b, x, u64c(cg, 11), ""), ft, "");
  return LLVMBuildFMul(cg->b, top, LLVMConstReal(ft, 0x1.0p-53), "");
}

/* Box-Muller, first value of the pair, as Numba computes it:
 * sqrt(-2 * log(u1)) * cos(TWO_PI * u2).  Both uniforms are float32 even
 * for normal_float64, so log(u1) is the float32 log there too (then
 * widened); the rest is in the result type, TWO_PI = 2 pi rounded to it.
 * (Checked bit for bit against Numba on a GPU: tests/numba.) */
static LLVMValueRef normal(Cg *cg, LLVMValueRef s[2], bool f32) {
  const Type *t = cg_scalar(f32 ? TY_F32 : TY_F64);
  LLVMTypeRef ft = f32 ? cg->t_f32 : cg->t_f64;
  LLVMValueRef u1 = unit_float(cg, step(cg, s), true);
  LLVMValueRef u2 = unit_float(cg, step(cg, s), true);
  LLVMValueRef lg = cg_math1(cg, "log", u1, cg_scalar(TY_F32));
  if (!f32) {
    lg = LLVMBuildFPExt(cg->b, lg, ft, "");
    u2 = LLVMBuildFPExt(cg->b, u2, ft, "");
  }
  LLVMValueRef r2 = cg_fp(cg, LLVMBuildFMul(cg->b, LLVMConstReal(ft, -2.0), lg, ""));
  LLVMValueRef r = cg_intrinsic(cg, "llvm.sqrt", &ft, 1, &r2, 1);
  double two_pi = f32 ? (double)(float)(2 * M_PI) : 2 * M_PI;
  LLVMValueRef ang = cg_fp(cg, LLVMBuildFMul(cg->b, LLVMConstReal(ft, two_pi), u2, ""));
  LLVMValueRef c = cg_math1(cg, "cos", ang, t);
  return cg_fp(cg, LLVMBuildFMul(cg->b, r, c, ""));
}

/* jump: s' = XOR of the states at the set bits of the jump polynomial,
 * as a 128-iteration loop whose body selects with a mask, not a branch. */
static void jump(Cg *cg, LLVMValueRef s[2]) {
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b);
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "rnd.jump");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "rnd.jump.done");
  LLVMBuildBr(cg->b, loop);
  LLVMPositionBuilderAtEnd(cg->b, loop);
  LLVMValueRef bit = LLVMBuildPhi(cg->b, cg->t_i64, "bit");
  LLVMValueRef phi[4]; /* s0, s1, acc0, acc1 */
  for (int k = 0; k < 4; k++)
    phi[k] = LLVMBuildPhi(cg->b, cg->t_i64, "");
  LLVMValueRef hi = LLVMBuildICmp(cg->b, LLVMIntUGE, bit, u64c(cg, 64), "");
  LLVMValueRef word = LLVMBuildSelect(cg->b, hi, u64c(cg, jump_words[1]), u64c(cg, jump_words[0]), "");
  LLVMValueRef sh = LLVMBuildAnd(cg->b, bit, u64c(cg, 63), "");
  LLVMValueRef set = LLVMBuildAnd(cg->b, LLVMBuildLShr(cg->b, word, sh, ""), u64c(cg, 1), "");
  LLVMValueRef mask = LLVMBuildNeg(cg->b, set, "");
  LLVMValueRef next[4] = {phi[0], phi[1]};
  next[2] = LLVMBuildXor(cg->b, phi[2], LLVMBuildAnd(cg->b, phi[0], mask, ""), "");
  next[3] = LLVMBuildXor(cg->b, phi[3], LLVMBuildAnd(cg->b, phi[1], mask, ""), "");
  step(cg, next);
  LLVMValueRef bit1 = LLVMBuildAdd(cg->b, bit, u64c(cg, 1), "");
  LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntULT, bit1, u64c(cg, 128), ""), loop, done);
  LLVMValueRef zero = u64c(cg, 0), init[4] = {s[0], s[1], zero, zero};
  for (int k = 0; k < 4; k++) {
    LLVMValueRef v[2] = {init[k], next[k]};
    LLVMBasicBlockRef from[2] = {pre, loop};
    LLVMAddIncoming(phi[k], v, from, 2);
  }
  LLVMValueRef bv[2] = {zero, bit1};
  LLVMBasicBlockRef bfrom[2] = {pre, loop};
  LLVMAddIncoming(bit, bv, bfrom, 2);
  LLVMPositionBuilderAtEnd(cg->b, done);
  s[0] = next[2];
  s[1] = next[3];
}

/* The addresses of s0 and s1 of row `index`, with Numba's wraparound of a
 * negative index and, under debug/boundscheck, the bounds checks. */
static bool state_ptrs(Cg *cg, const Inst *in, LLVMValueRef p[2]) {
  LLVMValueRef arr = cg_arg(cg, in, 0), index = cg_arg(cg, in, 1);
  const Type *at = cg_arg_type(cg, in, 0);
  if (!arr || !index)
    return false;
  if (!at || at->kind != TY_ARRAY || at->ndim != 2 || LLVMTypeOf(index) != cg->t_i64) {
    cg_fail(cg, in, "random: states must be a 2-d array and the index an int64");
    return false;
  }
  for (int k = 0; k < 2 && p; k++) {
    LLVMValueRef idx[2] = {index, cg_const_i64(cg, k)};
    p[k] = cg_array_elem_ptr(cg, in, arr, at, idx, 2);
    if (!p[k])
      return false;
  }
  return true;
}

static LLVMValueRef load_u64(Cg *cg, LLVMValueRef p) {
  LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->t_i64, p, "");
  LLVMSetAlignment(v, 8);
  return v;
}

bool cg_lower_random(Cg *cg, int idx) {
  const Inst *in = &cg->f->insts.data[idx];
  LLVMValueRef p[2];
  if (!state_ptrs(cg, in, p))
    return false;
  LLVMValueRef s[2] = {load_u64(cg, p[0]), load_u64(cg, p[1])}, r = NULL;
  switch ((RandomKind)in->ival) {
  case RK_NEXT: r = step(cg, s); break;
  case RK_UNIFORM32: case RK_UNIFORM64: r = unit_float(cg, step(cg, s), in->ival == RK_UNIFORM32); break;
  case RK_NORMAL32: case RK_NORMAL64: r = normal(cg, s, in->ival == RK_NORMAL32); break;
  case RK_JUMP: jump(cg, s); break;
  default: cg_fail(cg, in, "random: unknown kind %lld", (long long)in->ival); return false;
  }
  for (int k = 0; k < 2; k++)
    LLVMSetAlignment(LLVMBuildStore(cg->b, s[k], p[k]), 8);
  if (cg->failed || (in->ival != RK_JUMP && !r))
    return false;
  cg->vals[idx] = r;
  return true;
}
