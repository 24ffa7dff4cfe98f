/* cg_expr.c - lowering of one typed kjit IR instruction to LLVM IR.
 *
 * Typed IR guarantees each operand already has the type its op needs (ops.h);
 * the lowering still checks the LLVM types it combines and reports E599
 * instead of handing LLVM mismatched operands.  Python semantics live here:
 * floor division and modulo (int x//0 == 0), truthiness, comparisons with
 * NaN (!= is unordered), and numeric conversions as Numba emits them. */
#include "codegen/cg_internal.h"

#include <math.h>
#include <stdlib.h>

/* ------------------------------------------------------------ operands -- */

const Type *cg_arg_type(Cg *cg, const Inst *in, int k) {
  if (k >= in->nargs)
    return NULL;
  return cg->f->insts.data[in->args[k]].type;
}

LLVMValueRef cg_arg(Cg *cg, const Inst *in, int k) {
  if (k >= in->nargs || in->args[k] < 0 || in->args[k] >= cg->f->insts.len) {
    cg_fail(cg, in, "%s: operand %d missing", ir_op_info[in->op].name, k);
    return NULL;
  }
  LLVMValueRef v = cg->vals[in->args[k]];
  if (!v)
    cg_fail(cg, in, "%s: operand %d has no value", ir_op_info[in->op].name, k);
  return v;
}

static bool same_types(Cg *cg, const Inst *in, LLVMValueRef a, LLVMValueRef b) {
  if (a && b && LLVMTypeOf(a) == LLVMTypeOf(b))
    return true;
  if (a && b)
    cg_fail(cg, in, "%s: operand types differ", ir_op_info[in->op].name);
  return false;
}

/* ---------------------------------------------------------- conversions -- */

LLVMValueRef cg_truth(Cg *cg, LLVMValueRef v, const Type *t) {
  if (t->kind == TY_BOOL)
    return v;
  if (cg_is_float(t))
    return LLVMBuildFCmp(cg->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
  if (cg_is_int(t))
    return LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
  if (t->kind == TY_C64 || t->kind == TY_C128) {
    LLVMValueRef re = LLVMBuildExtractValue(cg->b, v, 0, ""), im = LLVMBuildExtractValue(cg->b, v, 1, "");
    LLVMValueRef z = LLVMConstNull(LLVMTypeOf(re));
    return LLVMBuildOr(cg->b, LLVMBuildFCmp(cg->b, LLVMRealUNE, re, z, ""),
                       LLVMBuildFCmp(cg->b, LLVMRealUNE, im, z, ""), "");
  }
  if (t->kind == TY_NONE)
    return LLVMConstInt(cg->t_i1, 0, 0);
  return LLVMConstInt(cg->t_i1, 1, 0); /* arrays, tuples, strings */
}

/* float -> int as Numba on x86 produces it: narrow targets go through a
 * 32-bit (u32 through a 64-bit) signed conversion and truncate, so
 * uint8(300.7) == 44 as in Numba, not saturated. */
static LLVMValueRef float_to_int(Cg *cg, LLVMValueRef v, const Type *to) {
  if (cg->hooks->float_to_int) /* targets whose fptosi is not saturating */
    return cg->hooks->float_to_int(cg, v, to);
  LLVMTypeRef dt = cg_type(cg, to);
  int bits = cg_bits(to);
  if (bits < 32)
    return LLVMBuildTrunc(cg->b, LLVMBuildFPToSI(cg->b, v, cg->t_i32, ""), dt, "");
  if (to->kind == TY_U32)
    return LLVMBuildTrunc(cg->b, LLVMBuildFPToSI(cg->b, v, cg->t_i64, ""), dt, "");
  return cg_is_signed(to) ? LLVMBuildFPToSI(cg->b, v, dt, "") : LLVMBuildFPToUI(cg->b, v, dt, "");
}

static LLVMValueRef to_complex(Cg *cg, LLVMValueRef v, const Type *from, const Type *to) {
  const Type *et = to->kind == TY_C64 ? cg_scalar(TY_F32) : cg_scalar(TY_F64);
  LLVMTypeRef ct = cg_type(cg, to);
  if (from->kind == TY_C64 || from->kind == TY_C128) {
    LLVMValueRef re = LLVMBuildExtractValue(cg->b, v, 0, ""), im = LLVMBuildExtractValue(cg->b, v, 1, "");
    const Type *ft = from->kind == TY_C64 ? cg_scalar(TY_F32) : cg_scalar(TY_F64);
    re = cg_convert(cg, re, ft, et);
    im = cg_convert(cg, im, ft, et);
    return LLVMBuildInsertValue(cg->b, LLVMBuildInsertValue(cg->b, LLVMGetPoison(ct), re, 0, ""), im, 1, "");
  }
  LLVMValueRef re = cg_convert(cg, v, from, et);
  LLVMValueRef im = LLVMConstNull(cg_type(cg, et));
  if (!re)
    return NULL;
  return LLVMBuildInsertValue(cg->b, LLVMBuildInsertValue(cg->b, LLVMGetPoison(ct), re, 0, ""), im, 1, "");
}

/* Every numeric conversion; NULL (no diagnostic) when there is none. */
LLVMValueRef cg_convert(Cg *cg, LLVMValueRef v, const Type *from, const Type *to) {
  if (!v || !from || !to)
    return NULL;
  if (from == to || from->kind == to->kind)
    return v;
  LLVMTypeRef dt = cg_type(cg, to);
  if (to->kind == TY_BOOL)
    return cg_truth(cg, v, from);
  if (to->kind == TY_C64 || to->kind == TY_C128)
    return to_complex(cg, v, from, to);
  bool fint = cg_is_int(from) || from->kind == TY_BOOL, tint = cg_is_int(to);
  bool fsigned = cg_is_signed(from);
  if (fint && tint) {
    int fb = cg_bits(from), tb = cg_bits(to);
    if (fb == tb)
      return v;
    if (fb > tb)
      return LLVMBuildTrunc(cg->b, v, dt, "");
    return fsigned ? LLVMBuildSExt(cg->b, v, dt, "") : LLVMBuildZExt(cg->b, v, dt, "");
  }
  if (fint && cg_is_float(to))
    return fsigned ? LLVMBuildSIToFP(cg->b, v, dt, "") : LLVMBuildUIToFP(cg->b, v, dt, "");
  if (cg_is_float(from) && tint)
    return float_to_int(cg, v, to);
  if (cg_is_float(from) && cg_is_float(to))
    return cg_bits(from) < cg_bits(to) ? LLVMBuildFPExt(cg->b, v, dt, "")
                                       : LLVMBuildFPTrunc(cg->b, v, dt, "");
  if ((from->kind == TY_C64 || from->kind == TY_C128) && cg_is_float(to)) {
    LLVMValueRef re = LLVMBuildExtractValue(cg->b, v, 0, "");
    return cg_convert(cg, re, from->kind == TY_C64 ? cg_scalar(TY_F32) : cg_scalar(TY_F64), to);
  }
  return NULL;
}

static LLVMValueRef lower_cast(Cg *cg, const Inst *in) {
  LLVMValueRef v = cg_arg(cg, in, 0);
  const Type *to = in->type ? in->type : in->tyimm; /* int(int8) keeps int8 */
  const Type *from = cg_arg_type(cg, in, 0);
  if (v && from && to && (ty_is_fp8(from) || ty_is_fp8(to))) /* first: bfloat16(v) of an fp8 */
    return cg_fp8_cast(cg, in, v, from, to);
  if (v && from && to && (from->kind == TY_BF16 || to->kind == TY_BF16))
    return cg_bf16_cast(cg, in, v, from, to);
  LLVMValueRef r = cg_convert(cg, v, cg_arg_type(cg, in, 0), to);
  if (v && !r)
    cg_fail(cg, in, "no conversion from type kind %d to %d",
            cg_arg_type(cg, in, 0) ? (int)cg_arg_type(cg, in, 0)->kind : -1, to ? (int)to->kind : -1);
  return r;
}

/* ------------------------------------------------------------ integers -- */

/* Python floor division / modulo on signed ints; b == 0 gives 0. */
static LLVMValueRef int_floordiv_mod(Cg *cg, LLVMValueRef a, LLVMValueRef b, bool is_signed, bool want_mod) {
  LLVMTypeRef t = LLVMTypeOf(a);
  LLVMValueRef zero = LLVMConstNull(t), one = LLVMConstInt(t, 1, 0);
  LLVMValueRef bz = LLVMBuildICmp(cg->b, LLVMIntEQ, b, zero, "");
  LLVMValueRef safe = LLVMBuildSelect(cg->b, bz, one, b, "");
  LLVMValueRef r;
  if (!is_signed) {
    r = want_mod ? LLVMBuildURem(cg->b, a, safe, "") : LLVMBuildUDiv(cg->b, a, safe, "");
    return LLVMBuildSelect(cg->b, bz, zero, r, "");
  }
  LLVMValueRef q = LLVMBuildSDiv(cg->b, a, safe, "");
  LLVMValueRef m = LLVMBuildSRem(cg->b, a, safe, "");
  /* adjust when the remainder is nonzero and its sign differs from b's */
  LLVMValueRef mnz = LLVMBuildICmp(cg->b, LLVMIntNE, m, zero, "");
  LLVMValueRef sdiff = LLVMBuildICmp(cg->b, LLVMIntSLT, LLVMBuildXor(cg->b, m, safe, ""), zero, "");
  LLVMValueRef adj = LLVMBuildAnd(cg->b, mnz, sdiff, "");
  if (want_mod)
    r = LLVMBuildSelect(cg->b, adj, LLVMBuildAdd(cg->b, m, safe, ""), m, "");
  else
    r = LLVMBuildSelect(cg->b, adj, LLVMBuildSub(cg->b, q, one, ""), q, "");
  return LLVMBuildSelect(cg->b, bz, zero, r, "");
}

/* Python floor division / modulo on floats, as CPython's float_divmod
 * (Numba's): mod takes the divisor's sign; x//0.0 = x/0.0 (inf or nan).
 * The remainder is LLVM's frem, as Numba's real_divmod emits it: libm's
 * fmod on the CPU, and on the GPU NVPTX's x - trunc(x / y) * y (x where y
 * is infinite), what NVVM gives Numba, instead of libdevice's exact fmod,
 * a bit-by-bit loop (bench/gpu pattern_pysem pysem_f64: 3.0x Numba). */
static LLVMValueRef float_floordiv_mod(Cg *cg, LLVMValueRef a, LLVMValueRef b, const Type *t, bool want_mod) {
  LLVMBuilderRef B = cg->b;
  LLVMTypeRef ft = LLVMTypeOf(a);
  LLVMValueRef zero = LLVMConstNull(ft), one = LLVMConstReal(ft, 1.0), half = LLVMConstReal(ft, 0.5);
  (void)t;
  LLVMValueRef mod = cg_fp(cg, LLVMBuildFRem(B, a, b, ""));
  LLVMValueRef div = cg_fp(cg, LLVMBuildFDiv(B, cg_fp(cg, LLVMBuildFSub(B, a, mod, "")), b, ""));
  LLVMValueRef mnz = LLVMBuildFCmp(B, LLVMRealUNE, mod, zero, "");
  LLVMValueRef bneg = LLVMBuildFCmp(B, LLVMRealOLT, b, zero, "");
  LLVMValueRef mneg = LLVMBuildFCmp(B, LLVMRealOLT, mod, zero, "");
  LLVMValueRef adj = LLVMBuildAnd(B, mnz, LLVMBuildXor(B, bneg, mneg, ""), "");
  LLVMTypeRef over[1] = {ft};
  if (want_mod) {
    LLVMValueRef m1 = LLVMBuildSelect(B, adj, cg_fp(cg, LLVMBuildFAdd(B, mod, b, "")), mod, "");
    LLVMValueRef cs[2] = {zero, b};
    LLVMValueRef signed0 = cg_intrinsic(cg, "llvm.copysign", over, 1, cs, 2);
    return LLVMBuildSelect(B, mnz, m1, signed0, "");
  }
  div = LLVMBuildSelect(B, adj, cg_fp(cg, LLVMBuildFSub(B, div, one, "")), div, "");
  LLVMValueRef fl = cg_intrinsic(cg, "llvm.floor", over, 1, &div, 1);
  LLVMValueRef up = LLVMBuildFCmp(B, LLVMRealOGT, cg_fp(cg, LLVMBuildFSub(B, div, fl, "")), half, "");
  fl = LLVMBuildSelect(B, up, cg_fp(cg, LLVMBuildFAdd(B, fl, one, "")), fl, "");
  LLVMValueRef q = cg_fp(cg, LLVMBuildFDiv(B, a, b, ""));
  LLVMValueRef cs[2] = {zero, q};
  LLVMValueRef signed0 = cg_intrinsic(cg, "llvm.copysign", over, 1, cs, 2);
  LLVMValueRef dnz = LLVMBuildFCmp(B, LLVMRealUNE, div, zero, "");
  LLVMValueRef r = LLVMBuildSelect(B, dnz, fl, signed0, "");
  LLVMValueRef bz = LLVMBuildFCmp(B, LLVMRealOEQ, b, zero, "");
  return LLVMBuildSelect(B, bz, q, r, "");
}

/* Shift counts past the width give 0 (or -1 for negative >>), as Numba. */
static LLVMValueRef lower_shift(Cg *cg, const Inst *in, LLVMValueRef a, LLVMValueRef b, const Type *t) {
  (void)in;
  if (in->op == OP_LSHIFT)
    return LLVMBuildShl(cg->b, a, b, "");
  return cg_is_signed(t) ? LLVMBuildAShr(cg->b, a, b, "") : LLVMBuildLShr(cg->b, a, b, "");
}

static LLVMValueRef lower_int_binary(Cg *cg, const Inst *in, LLVMValueRef a, LLVMValueRef b, const Type *t) {
  bool sg = cg_is_signed(t);
  switch (in->op) {
  case OP_ADD: /* ival 1: a range counter, which lets LLVM prove indices >= 0 */
    return in->ival == 1 ? LLVMBuildNSWAdd(cg->b, a, b, "") : LLVMBuildAdd(cg->b, a, b, "");
  case OP_SUB: return LLVMBuildSub(cg->b, a, b, "");
  case OP_MUL: return LLVMBuildMul(cg->b, a, b, "");
  case OP_FLOORDIV: return int_floordiv_mod(cg, a, b, sg, false);
  case OP_MOD: return int_floordiv_mod(cg, a, b, sg, true);
  case OP_LSHIFT: case OP_RSHIFT: return lower_shift(cg, in, a, b, t);
  case OP_BITAND: return LLVMBuildAnd(cg->b, a, b, "");
  case OP_BITOR: return LLVMBuildOr(cg->b, a, b, "");
  case OP_BITXOR: return LLVMBuildXor(cg->b, a, b, "");
  case OP_TRUEDIV: /* typing casts int/int to f64; unsigned/signed fallback */
    cg_fail(cg, in, "truediv on integers");
    return NULL;
  default: return NULL;
  }
}

static LLVMValueRef lower_float_binary(Cg *cg, const Inst *in, LLVMValueRef a, LLVMValueRef b, const Type *t) {
  switch (in->op) {
  case OP_ADD: return cg_fp(cg, LLVMBuildFAdd(cg->b, a, b, ""));
  case OP_SUB: return cg_fp(cg, LLVMBuildFSub(cg->b, a, b, ""));
  case OP_MUL: return cg_fp(cg, LLVMBuildFMul(cg->b, a, b, ""));
  case OP_TRUEDIV: return cg_fp(cg, LLVMBuildFDiv(cg->b, a, b, ""));
  case OP_FLOORDIV: return float_floordiv_mod(cg, a, b, t, false);
  case OP_MOD: return float_floordiv_mod(cg, a, b, t, true);
  default:
    cg_fail(cg, in, "%s on floats", ir_op_info[in->op].name);
    return NULL;
  }
}

static uint8_t narrow_mark(const Cg *cg, const Inst *in) {
  return cg->narrow_inst ? cg->narrow_inst[in - cg->f->insts.data] : 0;
}

/* cuda.grid()'s x, tid + ctaid * ntid, under the launch fact grid32
 * (ir_narrow_insts): its value is below nctaid * ntid <= 2^31 - 1, so the
 * i32 sum cannot wrap (nuw nsw) and its zero extension is the int64 result;
 * LLVM then knows the index's range, as CUDA C's int arithmetic tells nvcc
 * (the product's truncation folds into an i32 multiply). */
static LLVMValueRef lower_grid32(Cg *cg, LLVMValueRef a, LLVMValueRef b) {
  a = LLVMBuildTrunc(cg->b, a, cg->t_i32, "");
  b = LLVMBuildTrunc(cg->b, b, cg->t_i32, "");
  LLVMValueRef r = LLVMBuildNUWAdd(cg->b, a, b, "");
  if (LLVMIsAInstruction(r)) /* not a folded constant */
    LLVMSetNSW(r, 1);
  return LLVMBuildZExt(cg->b, r, cg->t_i64, "");
}

static LLVMValueRef lower_binary(Cg *cg, const Inst *in) {
  LLVMValueRef a = cg_arg(cg, in, 0), b = cg_arg(cg, in, 1);
  const Type *t = cg_arg_type(cg, in, 0);
  if (!a || !b || !t)
    return NULL;
  if (narrow_mark(cg, in) == IR_NARROW_GRID && LLVMTypeOf(a) == cg->t_i64 && LLVMTypeOf(b) == cg->t_i64)
    return lower_grid32(cg, a, b);
  if (in->op == OP_POW)
    return cg_lower_pow(cg, in, a, b);
  if (!same_types(cg, in, a, b))
    return NULL;
  if (cg_is_int(t) || (t->kind == TY_BOOL && in->op >= OP_BITAND && in->op <= OP_BITXOR))
    return lower_int_binary(cg, in, a, b, t);
  if (cg_is_float(t))
    return lower_float_binary(cg, in, a, b, t);
  if (t->kind == TY_C64 || t->kind == TY_C128)
    return cg_complex_binary(cg, in, a, b, t);
  cg_fail(cg, in, "%s on a non-numeric operand", ir_op_info[in->op].name);
  return NULL;
}

static LLVMValueRef lower_unary(Cg *cg, const Inst *in) {
  LLVMValueRef a = cg_arg(cg, in, 0);
  const Type *t = cg_arg_type(cg, in, 0);
  if (!a || !t)
    return NULL;
  switch (in->op) {
  case OP_POS: return a;
  case OP_NEG:
    if (cg_is_float(t))
      return cg_fp(cg, LLVMBuildFNeg(cg->b, a, ""));
    if (cg_is_int(t))
      return LLVMBuildNeg(cg->b, a, "");
    if (t->kind == TY_C64 || t->kind == TY_C128)
      return cg_complex_neg(cg, a, t);
    break;
  case OP_INVERT: /* a narrow unsigned operand: its own bits inverted, then widened */
    if (cg_is_int(t) && in->type && cg_is_int(in->type) && ty_bits(in->type) > ty_bits(t))
      return LLVMBuildZExt(cg->b, LLVMBuildNot(cg->b, a, ""), cg_type(cg, in->type), "");
    if (cg_is_int(t) || t->kind == TY_BOOL)
      return LLVMBuildNot(cg->b, a, "");
    break;
  case OP_NOT: return LLVMBuildNot(cg->b, cg_truth(cg, a, t), "");
  default: break;
  }
  cg_fail(cg, in, "%s on this operand type", ir_op_info[in->op].name);
  return NULL;
}

static LLVMValueRef lower_compare(Cg *cg, const Inst *in) {
  static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                         LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
  static const LLVMIntPredicate sp[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  static const LLVMIntPredicate up[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
  LLVMValueRef a = cg_arg(cg, in, 0), b = cg_arg(cg, in, 1);
  const Type *t = cg_arg_type(cg, in, 0);
  if (!same_types(cg, in, a, b) || !t)
    return NULL;
  int k = (int)(in->op - OP_EQ);
  if (narrow_mark(cg, in) == IR_NARROW_CMP && LLVMTypeOf(a) == cg->t_i64) { /* both in int32 */
    a = LLVMBuildTrunc(cg->b, a, cg->t_i32, "");
    b = LLVMBuildTrunc(cg->b, b, cg->t_i32, "");
  }
  if (cg_is_float(t))
    return cg_fp(cg, LLVMBuildFCmp(cg->b, fp[k], a, b, ""));
  if (cg_is_int(t) || t->kind == TY_BOOL)
    return LLVMBuildICmp(cg->b, cg_is_signed(t) ? sp[k] : up[k], a, b, "");
  if ((t->kind == TY_C64 || t->kind == TY_C128) && k <= 1) {
    LLVMValueRef re = LLVMBuildFCmp(cg->b, fp[k], LLVMBuildExtractValue(cg->b, a, 0, ""),
                                    LLVMBuildExtractValue(cg->b, b, 0, ""), "");
    LLVMValueRef im = LLVMBuildFCmp(cg->b, fp[k], LLVMBuildExtractValue(cg->b, a, 1, ""),
                                    LLVMBuildExtractValue(cg->b, b, 1, ""), "");
    return k == 0 ? LLVMBuildAnd(cg->b, re, im, "") : LLVMBuildOr(cg->b, re, im, "");
  }
  if (t->kind == TY_NONE)
    return LLVMConstInt(cg->t_i1, k == 0, 0);
  cg_fail(cg, in, "comparison of non-numeric operands");
  return NULL;
}

/* -------------------------------------------------------------- misc ---- */

static LLVMValueRef lower_const(Cg *cg, const Inst *in) {
  LLVMTypeRef t = cg_type(cg, in->type);
  switch (in->op) {
  case OP_CONST_INT:
  case OP_CONST_BOOL:
    if (cg_is_float(in->type))
      return LLVMConstReal(t, (double)in->ival);
    if (!t || LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
      break;
    return LLVMConstInt(t, (unsigned long long)in->ival, cg_is_signed(in->type));
  case OP_CONST_FLOAT:
    if (in->type && (in->type->kind == TY_C64 || in->type->kind == TY_C128)) {
      LLVMTypeRef ft = in->type->kind == TY_C64 ? cg->t_f32 : cg->t_f64;
      LLVMValueRef parts[2] = {LLVMConstReal(ft, in->fval), LLVMConstReal(ft, in->fimag)};
      return LLVMConstStructInContext(cg->ctx, parts, 2, 0);
    }
    if (!cg_is_float(in->type))
      break;
    return LLVMConstReal(t, in->fval);
  case OP_CONST_NONE: return LLVMConstStructInContext(cg->ctx, NULL, 0, 0);
  case OP_CONST_STR: return cg_cstring(cg, in->str ? in->str : "", ".str");
  default: break;
  }
  cg_fail(cg, in, "constant of unexpected type");
  return NULL;
}

static LLVMValueRef lower_tuple(Cg *cg, const Inst *in) {
  LLVMTypeRef t = cg_type(cg, in->type);
  if (!t || LLVMGetTypeKind(t) != LLVMStructTypeKind || (int)LLVMCountStructElementTypes(t) != in->nargs) {
    cg_fail(cg, in, "tuple of unexpected type");
    return NULL;
  }
  LLVMValueRef v = LLVMGetPoison(t);
  for (int i = 0; i < in->nargs; i++) {
    LLVMValueRef e = cg_arg(cg, in, i);
    if (!e || LLVMTypeOf(e) != LLVMStructGetTypeAtIndex(t, (unsigned)i)) {
      if (e)
        cg_fail(cg, in, "tuple element %d has the wrong type", i);
      return NULL;
    }
    v = LLVMBuildInsertValue(cg->b, v, e, (unsigned)i, "");
  }
  return v;
}

static LLVMValueRef lower_tuple_get(Cg *cg, const Inst *in) {
  LLVMValueRef t = cg_arg(cg, in, 0);
  if (!t)
    return NULL;
  LLVMTypeRef ty = LLVMTypeOf(t);
  if (LLVMGetTypeKind(ty) != LLVMStructTypeKind || in->ival < 0 ||
      in->ival >= (int64_t)LLVMCountStructElementTypes(ty)) {
    cg_fail(cg, in, "tuple index %lld out of range", (long long)in->ival);
    return NULL;
  }
  return LLVMBuildExtractValue(cg->b, t, (unsigned)in->ival, "");
}

static LLVMValueRef lower_select(Cg *cg, const Inst *in) {
  LLVMValueRef c = cg_arg(cg, in, 0), a = cg_arg(cg, in, 1), b = cg_arg(cg, in, 2);
  if (!c || !same_types(cg, in, a, b))
    return NULL;
  if (LLVMTypeOf(c) != cg->t_i1)
    c = cg_truth(cg, c, cg_arg_type(cg, in, 0));
  return LLVMBuildSelect(cg->b, c, a, b, "");
}

static LLVMValueRef lower_call(Cg *cg, const Inst *in) {
  const IrFunc *g = in->callee;
  const char *sym = g ? (g->symbol ? g->symbol : g->name) : NULL;
  LLVMValueRef fn = sym ? LLVMGetNamedFunction(cg->mod, sym) : NULL;
  if (!fn) {
    cg_fail(cg, in, "call to a function that was not specialized (%s)", sym ? sym : "?");
    return NULL;
  }
  LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
  unsigned n = LLVMCountParamTypes(fty), nh = (unsigned)cg_nhidden(cg);
  LLVMValueRef args[CG_MAX_ARGS];
  LLVMTypeRef ptys[CG_MAX_ARGS];
  if ((int)n != in->nargs + (int)nh || n > CG_MAX_ARGS) {
    cg_fail(cg, in, "call to %s with %d arguments, expected %u", sym, in->nargs, n - nh);
    return NULL;
  }
  LLVMGetParamTypes(fty, ptys);
  for (unsigned i = 0; i < nh; i++) /* hidden parameters pass through */
    args[i] = LLVMGetParam(cg->fn, i);
  for (unsigned i = nh; i < n; i++) {
    args[i] = cg_arg(cg, in, (int)(i - nh));
    const Type *at = args[i] ? cg_arg_type(cg, in, (int)(i - nh)) : NULL;
    if (at && (at->kind == TY_NONE || ty_is_ctvalue(at)))
      args[i] = LLVMConstInt(cg->t_i8, 0, 0); /* a parameter with no data: a byte (cg.c) */
    if (!args[i] || LLVMTypeOf(args[i]) != ptys[i]) {
      if (args[i])
        cg_fail(cg, in, "argument %u of %s has the wrong type", i - nh + 1, sym);
      return NULL;
    }
  }
  LLVMValueRef r = LLVMBuildCall2(cg->b, fty, fn, args, n, "");
  cg_after_call(cg, g); /* a raise in g ends this thread too (cg_raise.c) */
  return LLVMGetReturnType(fty) == cg->t_void ? NULL : r;
}

/* ------------------------------------------------------- locals / flow -- */

static LLVMValueRef lower_load(Cg *cg, const Inst *in) {
  if (in->local < 0 || in->local >= cg->f->locals.len || !cg->slots[in->local]) {
    cg_fail(cg, in, "load of untyped local %d", in->local);
    return NULL;
  }
  if (cg->narrow && cg->narrow[in->local]) /* an int64 whose values all fit int32 */
    return LLVMBuildSExt(cg->b, LLVMBuildLoad2(cg->b, cg->t_i32, cg->slots[in->local], ""), cg->t_i64, "");
  return LLVMBuildLoad2(cg->b, cg_type(cg, cg->f->locals.data[in->local].type), cg->slots[in->local], "");
}

/* v for an i32 slot.  A start or a stop is frozen: instcombine would
 * otherwise fold sext(trunc(x)) of an int64 argument into shifts by 32 and
 * carry the counter in the upper half of a 64-bit register.  The counter's
 * own increment is not, so that loop analyses still see the recurrence. */
static LLVMValueRef narrow_value(Cg *cg, const Inst *in, LLVMValueRef v) {
  const Inst *src = in->args[0] >= 0 && in->args[0] < cg->f->insts.len ? &cg->f->insts.data[in->args[0]] : NULL;
  if (src && src->op == OP_ADD && src->ival == 1) { /* the step, again in 32 bits: nsw holds */
    LLVMValueRef a = LLVMBuildTrunc(cg->b, cg_arg(cg, src, 0), cg->t_i32, "");
    LLVMValueRef b = LLVMBuildTrunc(cg->b, cg_arg(cg, src, 1), cg->t_i32, "");
    return LLVMBuildNSWAdd(cg->b, a, b, "");
  }
  return LLVMBuildFreeze(cg->b, LLVMBuildTrunc(cg->b, v, cg->t_i32, ""), "");
}

static bool lower_store(Cg *cg, const Inst *in) {
  LLVMValueRef v = cg_arg(cg, in, 0);
  if (!v)
    return false;
  if (in->local < 0 || in->local >= cg->f->locals.len || !cg->slots[in->local]) {
    /* a store to a void/None-typed local has nothing to keep */
    if (in->local >= 0 && in->local < cg->f->locals.len)
      return true;
    cg_fail(cg, in, "store to invalid local %d", in->local);
    return false;
  }
  LLVMTypeRef lt = cg_type(cg, cg->f->locals.data[in->local].type);
  if (LLVMTypeOf(v) != lt) {
    cg_fail(cg, in, "store to local '%s' of a value of another type", cg->f->locals.data[in->local].name);
    return false;
  }
  if (cg->narrow && cg->narrow[in->local]) /* ir/narrow.c proved v fits */
    v = narrow_value(cg, in, v);
  LLVMBuildStore(cg->b, v, cg->slots[in->local]);
  return true;
}

static bool valid_block(Cg *cg, const Inst *in, int b) {
  if (b >= 0 && b < cg->f->blocks.len)
    return true;
  cg_fail(cg, in, "branch to invalid block %d", b);
  return false;
}

static bool lower_term(Cg *cg, const Inst *in) {
  switch (in->op) {
  case OP_BR:
    if (!valid_block(cg, in, in->target))
      return false;
    LLVMBuildBr(cg->b, cg->bbs[in->target]);
    return true;
  case OP_CBR: {
    LLVMValueRef c = cg_arg(cg, in, 0);
    if (!c || !valid_block(cg, in, in->target) || !valid_block(cg, in, in->target2))
      return false;
    if (cg->f->insts.data[in->args[0]].op == OP_ASSERT_ON) { /* folded (live_blocks, cg.c) */
      LLVMBuildBr(cg->b, cg->bbs[cg->f->opts.debug ? in->target : in->target2]);
      return true;
    }
    if (LLVMTypeOf(c) != cg->t_i1)
      c = cg_truth(cg, c, cg_arg_type(cg, in, 0));
    LLVMBuildCondBr(cg->b, c, cg->bbs[in->target], cg->bbs[in->target2]);
    return true;
  }
  case OP_RET: {
    LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(cg->fn));
    if (rt == cg->t_void) {
      LLVMBuildRetVoid(cg->b);
      return true;
    }
    LLVMValueRef v = in->nargs > 0 ? cg_arg(cg, in, 0) : LLVMGetUndef(rt);
    if (!v || LLVMTypeOf(v) != rt) {
      if (v)
        cg_fail(cg, in, "return value of the wrong type in %s", cg->f->name);
      return false;
    }
    LLVMBuildRet(cg->b, v);
    return true;
  }
  default:
    LLVMBuildUnreachable(cg->b);
    return true;
  }
}

/* --------------------------------------------------------- dispatcher --- */

static LLVMValueRef lower_value(Cg *cg, const Inst *in) {
  switch (in->op) {
  case OP_CONST_INT: case OP_CONST_FLOAT: case OP_CONST_BOOL: case OP_CONST_NONE: case OP_CONST_STR:
    return lower_const(cg, in);
  case OP_LOAD: return lower_load(cg, in);
  case OP_ADD: case OP_SUB: case OP_MUL: case OP_TRUEDIV: case OP_FLOORDIV: case OP_MOD:
  case OP_POW: case OP_LSHIFT: case OP_RSHIFT: case OP_BITAND: case OP_BITOR: case OP_BITXOR:
    return lower_binary(cg, in);
  case OP_NEG: case OP_POS: case OP_INVERT: case OP_NOT: return lower_unary(cg, in);
  case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: return lower_compare(cg, in);
  case OP_CAST: return lower_cast(cg, in);
  case OP_TRUTH: {
    LLVMValueRef a = cg_arg(cg, in, 0);
    return a ? cg_truth(cg, a, cg_arg_type(cg, in, 0)) : NULL;
  }
  case OP_SELECT: return lower_select(cg, in);
  case OP_ASSERT_ON: return LLVMConstInt(cg->t_i1, cg->f->opts.debug ? 1 : 0, 0);
  case OP_TUPLE: return lower_tuple(cg, in);
  case OP_TUPLE_GET: return lower_tuple_get(cg, in);
  case OP_ARRAY_LOAD: return cg_lower_array_load(cg, in);
  case OP_VALUE: case OP_ARRAY_DTYPE: /* compile-time values: no data */
    return LLVMConstStructInContext(cg->ctx, NULL, 0, 0);
  case OP_ARRAY_VIEW: return cg_lower_array_view(cg, in);
  case OP_ARRAY_T: return cg_lower_array_t(cg, in);
  case OP_ARRAY_RESHAPE: return cg_lower_array_reshape(cg, in);
  case OP_GRID_GROUP: return cg_lower_grid_group(cg, in);
  case OP_GRID_SYNC: return cg_lower_grid_sync(cg, in);
  case OP_TUPLE_INDEX: return cg_lower_tuple_index(cg, in);
  case OP_REC_GET: return cg_lower_rec_get(cg, in);
  case OP_ARRAY_SHAPE: case OP_ARRAY_STRIDE: case OP_ARRAY_SIZE: case OP_ARRAY_NDIM:
    return cg_lower_array_attr(cg, in);
  case OP_SHARED_ARRAY: case OP_LOCAL_ARRAY: return cg_lower_array_alloc(cg, in);
  case OP_CONST_ARRAY: return cg_lower_const_array(cg, in);
  case OP_HOST_GLOBAL: return cg_lower_host_global(cg, in);
  case OP_ARRAY_REDUCE: return cg_lower_array_reduce(cg, in);
  case OP_THREAD_IDX: case OP_BLOCK_IDX: case OP_BLOCK_DIM: case OP_GRID_DIM: case OP_LANEID:
  case OP_WARPSIZE: case OP_ACTIVEMASK: case OP_LANEMASK_LT:
    return cg->hooks->special_reg(cg, in->op, (int)in->ival);
  case OP_SHFL: case OP_VOTE: case OP_MATCH: return cg_lower_warp(cg, in);
  case OP_SYNCTHREADS_COUNT: case OP_SYNCTHREADS_AND: case OP_SYNCTHREADS_OR: {
    LLVMValueRef p = cg_arg(cg, in, 0);
    if (p && LLVMTypeOf(p) != cg->t_i32)
      p = cg_convert(cg, p, cg_arg_type(cg, in, 0), cg_scalar(TY_I32));
    return p ? cg->hooks->barrier(cg, in->op, p) : NULL;
  }
  case OP_ATOMIC: return cg_lower_atomic(cg, in);
  case OP_INTRINSIC: return cg_lower_intrinsic(cg, in);
  case OP_NUMFN: return cg_lower_numfn(cg, in);
  case OP_BF16: return cg_lower_bf16(cg, in);
  case OP_FP8: return cg_lower_fp8(cg, in);
  case OP_NPUFUNC: return cg_lower_npufunc(cg, in);
  case OP_LIBDEVICE: return cg_lower_libdevice(cg, in);
  case OP_VECTOR: return cg_lower_vector(cg, in);
  case OP_CALL: return lower_call(cg, in);
  case OP_CALL_FOREIGN: return cg_lower_foreign_call(cg, in);
  default:
    cg_fail(cg, in, "unexpected op %s", in->op < OP__COUNT ? ir_op_info[in->op].name : "?");
    return NULL;
  }
}

/* Lower f->insts[idx]; false (after a diagnostic) stops the function. */
bool cg_lower_inst(Cg *cg, int idx) {
  const Inst *in = &cg->f->insts.data[idx];
  for (int k = 0; k < in->nargs; k++)
    if (in->args[k] < 0 || in->args[k] >= cg->f->insts.len) {
      cg_fail(cg, in, "operand index out of range");
      return false;
    }
  switch (in->op) {
  case OP_STORE: return lower_store(cg, in);
  case OP_ARRAY_STORE: return cg_lower_array_store(cg, in);
  case OP_REC_SET: return cg_lower_rec_set(cg, in);
  case OP_RANDOM: return cg_lower_random(cg, idx);
  case OP_SYNCTHREADS: cg->hooks->barrier(cg, in->op, NULL); return true;
  case OP_SYNCWARP: {
    LLVMValueRef m = cg_arg(cg, in, 0);
    if (m && LLVMTypeOf(m) != cg->t_i32)
      m = cg_convert(cg, m, cg_arg_type(cg, in, 0), cg_scalar(TY_U32));
    if (!m)
      return false;
    cg->hooks->syncwarp(cg, m);
    return true;
  }
  case OP_FENCE: cg->hooks->fence(cg, (int)in->ival); return true;
  case OP_PRINT: return cg_lower_print(cg, in);
  case OP_ASSERT_FAIL:
    if (cg->f->opts.debug)
      cg->hooks->assert_fail(cg, in);
    return true;
  case OP_RAISE: cg_lower_raise(cg, in); return true;
  case OP_ARRAY_FILL: return cg_lower_array_fill(cg, in);
  case OP_ARRAY_UFUNC: return cg_lower_array_ufunc(cg, in);
  case OP_BR: case OP_CBR: case OP_RET: case OP_UNREACHABLE: return lower_term(cg, in);
  default: break;
  }
  LLVMValueRef v = lower_value(cg, in);
  if (cg->failed)
    return false;
  cg->vals[idx] = v;
  if (!v && in->op != OP_CALL && in->op != OP_CALL_FOREIGN && in->op != OP_ATOMIC) {
    cg_fail(cg, in, "%s produced no value", ir_op_info[in->op].name);
    return false;
  }
  /* the result must have the LLVM type of in->type (void calls excepted) */
  if (v && in->type && in->type->kind != TY_VOID && LLVMTypeOf(v) != cg_type(cg, in->type)) {
    cg_fail(cg, in, "%s: result type differs from the IR type", ir_op_info[in->op].name);
    return false;
  }
  return true;
}
