/* cg_grid.c - cooperative groups: GRID_GROUP and GRID_SYNC (lower/lower_builtins.c).
 *
 * The ops go through the target's hooks (CgTargetHooks.grid_group /
 * grid_sync).  The NVPTX hooks, here, need neither cudadevrt nor the CUDA
 * runtime: a cooperative launch (cuLaunchCooperativeKernel) gives the
 * kernel a grid workspace whose address the driver puts in %envreg1 (high
 * half) and %envreg2 (low half), the same ABI CUDA's cooperative_groups
 * headers read.  Its second word is the barrier counter; the grid barrier
 * is CUDA's arrive-and-flip algorithm on it:
 *   bar.sync 0; thread (0,0,0) of each block adds 1 (block (0,0,0) adds
 *   0x80000000 - (nblocks - 1)), so bit 31 flips once every block arrived;
 *   it spins until the bit differs from what its add returned; bar.sync 0.
 * The group value is the workspace address (an i64), read with a volatile
 * asm so a kernel that only calls this_grid() still reads %envreg and is
 * launched cooperatively (the runtime looks for %envreg in the PTX), as
 * Numba marks such a kernel cooperative. */
#include <stdio.h>

#include "codegen/cg_internal.h"

LLVMValueRef cg_lower_grid_group(Cg *cg, const Inst *in) {
  if (!cg->hooks->grid_group) {
    cg_unsupported(cg, in, "cuda.cg.this_grid() on this target");
    return NULL;
  }
  return cg->hooks->grid_group(cg);
}

LLVMValueRef cg_lower_grid_sync(Cg *cg, const Inst *in) {
  LLVMValueRef g = cg_arg(cg, in, 0);
  if (!g)
    return NULL;
  if (!cg->hooks->grid_sync) {
    cg_unsupported(cg, in, "GridGroup.sync() on this target");
    return NULL;
  }
  cg->hooks->grid_sync(cg, g);
  return cg_const_i32(cg, 0);
}

/* ------------------------------------------------------------- NVPTX --- */

/* mov.u32 $0, %envregN, kept even when unused (see the file header). */
static LLVMValueRef envreg(Cg *cg, int n) {
  LLVMTypeRef fty = LLVMFunctionType(cg->t_i32, NULL, 0, 0);
  char text[32];
  int len = snprintf(text, sizeof text, "mov.u32 $0, %%envreg%d;", n);
  LLVMValueRef ia = LLVMGetInlineAsm(fty, text, (size_t)len, "=r", 2, 1, 0, LLVMInlineAsmDialectATT, 0);
  return LLVMBuildCall2(cg->b, fty, ia, NULL, 0, "");
}

LLVMValueRef cg_nvptx_grid_group(Cg *cg) {
  LLVMValueRef hi = LLVMBuildZExt(cg->b, envreg(cg, 1), cg->t_i64, "");
  LLVMValueRef lo = LLVMBuildZExt(cg->b, envreg(cg, 2), cg->t_i64, "");
  return LLVMBuildOr(cg->b, LLVMBuildShl(cg->b, hi, cg_const_i64(cg, 32), ""), lo, "grid.ws");
}

static LLVMValueRef sum3(Cg *cg, IrOp op) {
  LLVMValueRef s = cg->hooks->special_reg(cg, op, 0);
  for (int d = 1; d < 3; d++)
    s = LLVMBuildAdd(cg->b, s, cg->hooks->special_reg(cg, op, d), "");
  return s;
}

/* Thread (0,0,0)'s part: arrive, then spin until bit 31 flips. */
static void master_arrive_wait(Cg *cg, LLVMValueRef ws) {
  LLVMValueRef nblocks = cg->hooks->special_reg(cg, OP_GRID_DIM, 0);
  for (int d = 1; d < 3; d++)
    nblocks = LLVMBuildMul(cg->b, nblocks, cg->hooks->special_reg(cg, OP_GRID_DIM, d), "");
  LLVMValueRef first = LLVMBuildICmp(cg->b, LLVMIntEQ, sum3(cg, OP_BLOCK_IDX), cg_const_i32(cg, 0), "");
  LLVMValueRef lead = LLVMBuildSub(cg->b, cg_const_i32(cg, (int32_t)0x80000000u),
                                   LLVMBuildSub(cg->b, nblocks, cg_const_i32(cg, 1), ""), "");
  LLVMValueRef add = LLVMBuildSelect(cg->b, first, lead, cg_const_i32(cg, 1), "");
  LLVMValueRef off = cg_const_i64(cg, 4); /* grid_workspace { u32 size; u32 barrier; } */
  LLVMValueRef p = LLVMBuildIntToPtr(cg->b, LLVMBuildAdd(cg->b, ws, off, ""), cg->t_ptr, "grid.bar");
  cg->hooks->fence(cg, 1);
  LLVMValueRef old = LLVMBuildAtomicRMW(cg->b, LLVMAtomicRMWBinOpAdd, p, add,
                                        LLVMAtomicOrderingSequentiallyConsistent, 0);
  LLVMBasicBlockRef spin = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "grid.spin");
  LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "grid.arrived");
  LLVMBuildBr(cg->b, spin);
  LLVMPositionBuilderAtEnd(cg->b, spin);
  LLVMValueRef cur = LLVMBuildLoad2(cg->b, cg->t_i32, p, "");
  LLVMSetVolatile(cur, 1);
  LLVMValueRef flip = LLVMBuildAnd(cg->b, LLVMBuildXor(cg->b, old, cur, ""),
                                   cg_const_i32(cg, (int32_t)0x80000000u), "");
  LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, flip, cg_const_i32(cg, 0), ""), out, spin);
  LLVMPositionBuilderAtEnd(cg->b, out);
  cg->hooks->fence(cg, 1);
}

void cg_nvptx_grid_sync(Cg *cg, LLVMValueRef ws) {
  cg->hooks->barrier(cg, OP_SYNCTHREADS, NULL);
  LLVMValueRef master = LLVMBuildICmp(cg->b, LLVMIntEQ, sum3(cg, OP_THREAD_IDX), cg_const_i32(cg, 0), "");
  LLVMBasicBlockRef arrive = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "grid.master");
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "grid.join");
  LLVMBuildCondBr(cg->b, master, arrive, join);
  LLVMPositionBuilderAtEnd(cg->b, arrive);
  master_arrive_wait(cg, ws);
  LLVMBuildBr(cg->b, join);
  LLVMPositionBuilderAtEnd(cg->b, join);
  cg->hooks->barrier(cg, OP_SYNCTHREADS, NULL);
}
