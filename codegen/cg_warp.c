/* cg_warp.c - warp collectives (shfl, vote, match) for every target.
 *
 * The targets' hooks work on 32-bit lanes (and 64-bit integers for match);
 * this file maps kjit's value types onto them: floats travel as their bits,
 * and a 64-bit shfl is two 32-bit shuffles of its halves, as in Numba.
 * Typing guarantees the operand types (ir/ops.h: mask u32, lane i32). */
#include "codegen/cg_internal.h"

/* The integer of v's width holding its bits (floats bitcast). */
static LLVMValueRef as_int(Cg *cg, LLVMValueRef v, bool wide) {
  return LLVMBuildBitCast(cg->b, v, wide ? cg->t_i64 : cg->t_i32, "");
}

/* shfl of a 64-bit value: the low and high words shuffled separately. */
static LLVMValueRef shfl_wide(Cg *cg, int mode, LLVMValueRef mask, LLVMValueRef x, LLVMValueRef lane) {
  LLVMValueRef lo = LLVMBuildTrunc(cg->b, x, cg->t_i32, "");
  LLVMValueRef hi = LLVMBuildTrunc(cg->b, LLVMBuildLShr(cg->b, x, cg_const_i64(cg, 32), ""), cg->t_i32, "");
  lo = LLVMBuildZExt(cg->b, cg->hooks->shfl(cg, mode, mask, lo, lane), cg->t_i64, "");
  hi = LLVMBuildZExt(cg->b, cg->hooks->shfl(cg, mode, mask, hi, lane), cg->t_i64, "");
  return LLVMBuildOr(cg->b, lo, LLVMBuildShl(cg->b, hi, cg_const_i64(cg, 32), ""), "");
}

static LLVMValueRef lower_shfl(Cg *cg, const Inst *in) {
  LLVMValueRef mask = cg_arg(cg, in, 0), v = cg_arg(cg, in, 1), lane = cg_arg(cg, in, 2);
  if (!mask || !v || !lane)
    return NULL;
  bool wide = cg_bits(cg_arg_type(cg, in, 1)) == 64;
  LLVMValueRef x = as_int(cg, v, wide);
  LLVMValueRef r = wide ? shfl_wide(cg, (int)in->ival, mask, x, lane)
                        : cg->hooks->shfl(cg, (int)in->ival, mask, x, lane);
  return LLVMBuildBitCast(cg->b, r, LLVMTypeOf(v), "");
}

static LLVMValueRef lower_vote(Cg *cg, const Inst *in) {
  LLVMValueRef mask = cg_arg(cg, in, 0), pred = cg_arg(cg, in, 1);
  return mask && pred ? cg->hooks->vote(cg, (int)in->ival, mask, pred) : NULL;
}

/* match_any -> mask; match_all -> (mask, pred) as the tuple type. */
static LLVMValueRef lower_match(Cg *cg, const Inst *in) {
  LLVMValueRef mask = cg_arg(cg, in, 0), v = cg_arg(cg, in, 1), pred = NULL;
  if (!mask || !v)
    return NULL;
  bool all = in->ival != 0;
  LLVMValueRef x = as_int(cg, v, cg_bits(cg_arg_type(cg, in, 1)) == 64);
  LLVMValueRef r = cg->hooks->match(cg, all, mask, x, &pred);
  if (!all || !r)
    return r;
  LLVMValueRef t = LLVMBuildInsertValue(cg->b, LLVMGetPoison(cg_type(cg, in->type)), r, 0, "");
  return LLVMBuildInsertValue(cg->b, t, pred, 1, "");
}

LLVMValueRef cg_lower_warp(Cg *cg, const Inst *in) {
  switch (in->op) {
  case OP_SHFL: return lower_shfl(cg, in);
  case OP_VOTE: return lower_vote(cg, in);
  case OP_MATCH: return lower_match(cg, in);
  default:
    cg_fail(cg, in, "not a warp operation");
    return NULL;
  }
}
