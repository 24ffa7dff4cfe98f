/* cg_invdiv.c - integer division by a loop-invariant divisor, by a
 * reciprocal computed once before the loop (the CUDA target, after o3_late).
 *
 * A GPU has no divide unit: PTX's div.u32 becomes some 15-20 dependent
 * instructions in SASS, half of them (I2F, MUFU.RCP, F2I, IMAD) only to
 * compute an approximate reciprocal of the divisor.  ptxas computes it
 * again at every division, also in a loop whose divisor never changes,
 * and so does Numba's build; LLVM strength-reduces only constant divisors.
 * The loops of kernels written the ordinary way divide by an extent every
 * iteration (bench/gpu pattern_gridstride gs_2d_f32's `k // cols`,
 * pattern_rowhist's `keys[row, j] % nb`).
 *
 * So a udiv/urem/sdiv/srem in an innermost loop whose divisor d is defined
 * outside the loop gets, right after d, r = floor((2^32 - 1) / d) (one
 * 32-bit division, d = 0 read as 1: the division is undefined there and
 * the code before it guards it), and at the division, for 32-bit operands,
 *
 *     q = mulhi(n, r);  m = n - q * d;  if (m >= d) { q += 1; m -= d; }
 *
 * which is exact: d * r >= 2^32 - d, so n * r / 2^32 > n/d - 1 for n <
 * 2^32, and n * r / 2^32 < n/d, so q is floor(n/d) or one less before the
 * step.  An int64 division keeps its own test of the 32-bit case (the one
 * LLVM's bypass of slow divisions adds later): `(n | d) >> 32 == 0` takes
 * the reciprocal path, any other value the original division, moved to a
 * block at the end of the function.  Signed divisions take the fast path
 * only with both operands in [0, 2^32), where they equal the unsigned
 * ones; 32-bit signed divisions are left as they are. */
#include "codegen/cg_internal.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The blocks of f in an array (their order: an index), and the same
 * sorted by address, to find a block's index in log time. */
typedef struct {
  LLVMBasicBlockRef b;
  int index;
} BlockKey;

typedef struct {
  LLVMBasicBlockRef *bbs;
  BlockKey *sorted;
  int n;
} Blocks;

/* Past this many blocks a function is left as it is: the cycle tests below
 * walk the graph once per block of a division's loop. */
#define INVDIV_MAX_BLOCKS 1024

static int key_cmp(const void *x, const void *y) {
  uintptr_t a = (uintptr_t)((const BlockKey *)x)->b, b = (uintptr_t)((const BlockKey *)y)->b;
  return a < b ? -1 : a > b;
}

static int block_index(const Blocks *bl, LLVMBasicBlockRef b) {
  BlockKey k = {b, 0};
  const BlockKey *hit = bsearch(&k, bl->sorted, (size_t)bl->n, sizeof k, key_cmp);
  return hit ? hit->index : -1;
}

/* Marks in seen[] every block reachable from block `from` (not itself
 * unless on a cycle). */
static void reach(const Blocks *bl, int from, bool *seen, int *stack) {
  int top = 0;
  stack[top++] = from;
  while (top > 0) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bl->bbs[stack[--top]]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < ns; s++) {
      int k = block_index(bl, LLVMGetSuccessor(t, s));
      if (k >= 0 && !seen[k]) {
        seen[k] = true;
        stack[top++] = k;
      }
    }
  }
}

/* Whether block c lies on a cycle that does not pass through block a:
 * a path from c back to c avoiding a. */
static bool cycle_skips(const Blocks *bl, int c, int a, int *stack) {
  bool *seen = calloc((size_t)bl->n, sizeof *seen);
  if (!seen)
    return true;
  int top = 0;
  bool found = false;
  seen[a] = true; /* never enter a */
  stack[top++] = c;
  while (top > 0 && !found) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bl->bbs[stack[--top]]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < ns; s++) {
      int k = block_index(bl, LLVMGetSuccessor(t, s));
      if (k == c)
        found = true;
      if (k >= 0 && !seen[k]) {
        seen[k] = true;
        stack[top++] = k;
      }
    }
  }
  free(seen);
  return found;
}

/* Whether the division's block a is in an innermost loop: no block of
 * its cycles (cyc: the blocks reachable from a; those that reach a back
 * are on its cycles) lies on a cycle that avoids a.  A division in an outer
 * loop (the trip count of an inner grid-stride loop, computed once per
 * outer step) runs too seldom to pay for the registers of the reciprocal
 * and of two division paths (bench/gpu pattern_volume: 48 -> 54
 * registers).  Conservative: a division in an inner loop that its outer
 * loop may skip is left alone too. */
static bool innermost(const Blocks *bl, int a, const bool *cyc, int *stack) {
  bool *back = malloc((size_t)bl->n * sizeof *back);
  bool ok = back != NULL;
  for (int c = 0; ok && c < bl->n; c++) {
    if (!cyc[c] || c == a)
      continue;
    memset(back, 0, (size_t)bl->n * sizeof *back);
    reach(bl, c, back, stack);
    if (back[a]) /* c reaches a back: on a's cycles */
      ok = !cycle_skips(bl, c, a, stack);
  }
  free(back);
  return ok;
}

/* Whether the value d is the same on every trip around every cycle that
 * holds block `at`: an argument, or an instruction of a block that no
 * such cycle goes through (its definition dominates the division, so a
 * cycle through it would hold it).  False where `at` is on no cycle. */
static bool invariant_divisor(const Blocks *bl, LLVMBasicBlockRef at, LLVMValueRef d, bool *seen, int *stack) {
  if (LLVMIsAArgument(d))
    ;
  else if (!LLVMIsAInstruction(d))
    return false; /* constants: LLVM strength-reduces them already */
  int a = block_index(bl, at);
  if (a < 0)
    return false;
  memset(seen, 0, (size_t)bl->n * sizeof *seen);
  reach(bl, a, seen, stack);
  if (!seen[a])
    return false; /* not in a loop: one division, nothing to hoist */
  if (!innermost(bl, a, seen, stack))
    return false;
  if (LLVMIsAArgument(d))
    return true;
  int db = block_index(bl, LLVMGetInstructionParent(d));
  if (db < 0 || !seen[db])
    return db >= 0;
  /* d's block is reachable from the division: on the cycle only if it
   * reaches the division's block back */
  bool *back = calloc((size_t)bl->n, sizeof *back);
  if (!back)
    return false;
  reach(bl, db, back, stack);
  bool on_cycle = back[a];
  free(back);
  return !on_cycle;
}

/* v without the freezes around it (DivRemPairs freezes both operands of a
 * division whose remainder it decomposes, in the loop). */
static LLVMValueRef unfrozen(LLVMValueRef v) {
  while (LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMFreeze)
    v = LLVMGetOperand(v, 0);
  return v;
}

static bool is_division(LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  if (op != LLVMUDiv && op != LLVMURem && op != LLVMSDiv && op != LLVMSRem)
    return false;
  LLVMTypeRef t = LLVMTypeOf(i);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
    return false; /* vectors */
  unsigned w = LLVMGetIntTypeWidth(t);
  bool is_signed = op == LLVMSDiv || op == LLVMSRem;
  return w == 64 || (w == 32 && !is_signed);
}

/* r = floor((2^32 - 1) / max(d32, 1)), placed right after d's definition
 * (at the entry's first instruction for an argument). */
static LLVMValueRef reciprocal(Cg *cg, LLVMValueRef fn, LLVMValueRef d) {
  LLVMValueRef at;
  if (LLVMIsAArgument(d)) {
    at = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn));
    while (at && (LLVMIsAPHINode(at) || LLVMIsAAllocaInst(at)))
      at = LLVMGetNextInstruction(at);
  } else {
    at = LLVMGetNextInstruction(d);
    while (at && LLVMIsAPHINode(at))
      at = LLVMGetNextInstruction(at);
  }
  LLVMPositionBuilderBefore(cg->b, at);
  d = LLVMBuildFreeze(cg->b, d, ""); /* one value, as the division's own freeze */
  LLVMValueRef d32 = LLVMTypeOf(d) == cg->t_i32 ? d : LLVMBuildTrunc(cg->b, d, cg->t_i32, "invdiv.d");
  LLVMValueRef zero = LLVMBuildICmp(cg->b, LLVMIntEQ, d32, LLVMConstInt(cg->t_i32, 0, false), "");
  LLVMValueRef safe = LLVMBuildSelect(cg->b, zero, LLVMConstInt(cg->t_i32, 1, false), d32, "");
  return LLVMBuildUDiv(cg->b, LLVMConstInt(cg->t_i32, 0xffffffffu, false), safe, "invdiv.r");
}

/* mul.hi.u32 of a and b. */
static LLVMValueRef mulhi32(Cg *cg, LLVMValueRef a, LLVMValueRef b) {
  static const char name[] = "llvm.nvvm.mulhi.ui";
  unsigned id = LLVMLookupIntrinsicID(name, sizeof name - 1);
  if (!id) {
    LLVMValueRef wide = LLVMBuildMul(cg->b, LLVMBuildZExt(cg->b, a, cg->t_i64, ""), LLVMBuildZExt(cg->b, b, cg->t_i64, ""), "");
    return LLVMBuildTrunc(cg->b, LLVMBuildLShr(cg->b, wide, LLVMConstInt(cg->t_i64, 32, false), ""), cg->t_i32, "");
  }
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->mod, id, NULL, 0);
  LLVMTypeRef fty = LLVMIntrinsicGetType(cg->ctx, id, NULL, 0);
  LLVMValueRef args[2] = {a, b};
  return LLVMBuildCall2(cg->b, fty, fn, args, 2, "");
}

/* The 32-bit quotient (*q) and remainder (*m) of n32 by d32 through r, at
 * the builder's position. */
static void divide32(Cg *cg, LLVMValueRef n32, LLVMValueRef d32, LLVMValueRef r, LLVMValueRef *q,
                     LLVMValueRef *m) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef q0 = mulhi32(cg, n32, r);
  LLVMValueRef m0 = LLVMBuildSub(b, n32, LLVMBuildMul(b, q0, d32, ""), "");
  LLVMValueRef over = LLVMBuildICmp(b, LLVMIntUGE, m0, d32, "");
  *m = LLVMBuildSelect(b, over, LLVMBuildSub(b, m0, d32, ""), m0, "invdiv.m");
  *q = LLVMBuildAdd(b, q0, LLVMBuildZExt(b, over, LLVMTypeOf(q0), ""), "invdiv.q");
}

/* The remainder computed from quotient q as `n - q * d` (DivRemPairs
 * decomposes it so on a target without a divide instruction): the first
 * `sub n, (mul q, d)`, or NULL. */
static LLVMValueRef decomposed_rem(LLVMValueRef q, LLVMValueRef n, LLVMValueRef d) {
  for (LLVMUseRef u = LLVMGetFirstUse(q); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef mul = LLVMGetUser(u);
    if (!LLVMIsAInstruction(mul) || LLVMGetInstructionOpcode(mul) != LLVMMul)
      continue;
    LLVMValueRef other = LLVMGetOperand(mul, 0) == q ? LLVMGetOperand(mul, 1) : LLVMGetOperand(mul, 0);
    if (other != d)
      continue;
    for (LLVMUseRef v = LLVMGetFirstUse(mul); v; v = LLVMGetNextUse(v)) {
      LLVMValueRef sub = LLVMGetUser(v);
      if (LLVMIsAInstruction(sub) && LLVMGetInstructionOpcode(sub) == LLVMSub && LLVMGetOperand(sub, 0) == n &&
          LLVMGetOperand(sub, 1) == mul)
        return sub;
    }
  }
  return NULL;
}

/* Re-points the phis of `to`'s successors from block `from` to `to` (the C
 * API cannot set an incoming block: each such phi is rebuilt). */
static void repoint_phis(Cg *cg, LLVMBasicBlockRef from, LLVMBasicBlockRef to) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(to);
  unsigned ns = LLVMGetNumSuccessors(t);
  for (unsigned s = 0; s < ns; s++) {
    LLVMBasicBlockRef succ = LLVMGetSuccessor(t, s);
    bool dup = false;
    for (unsigned e = 0; e < s; e++)
      dup |= LLVMGetSuccessor(t, e) == succ;
    if (dup)
      continue;
    LLVMValueRef p = LLVMGetFirstInstruction(succ);
    while (p && LLVMIsAPHINode(p)) {
      LLVMValueRef next = LLVMGetNextInstruction(p);
      unsigned nin = LLVMCountIncoming(p);
      LLVMPositionBuilderBefore(cg->b, p);
      LLVMValueRef np = LLVMBuildPhi(cg->b, LLVMTypeOf(p), "");
      for (unsigned k = 0; k < nin; k++) {
        LLVMValueRef v = LLVMGetIncomingValue(p, k);
        LLVMBasicBlockRef ib = LLVMGetIncomingBlock(p, k);
        if (ib == from)
          ib = to;
        LLVMAddIncoming(np, &v, &ib, 1);
      }
      LLVMReplaceAllUsesWith(p, np);
      LLVMInstructionEraseFromParent(p);
      p = next;
    }
  }
}

/* Splits i's block before i: the instructions from i on (terminator
 * included) go to a new block placed right after it, which is returned. */
static LLVMBasicBlockRef split_before(Cg *cg, LLVMValueRef i) {
  LLVMBasicBlockRef b = LLVMGetInstructionParent(i);
  LLVMBasicBlockRef tail = LLVMAppendBasicBlockInContext(cg->ctx, LLVMGetBasicBlockParent(b), "invdiv.join");
  LLVMMoveBasicBlockAfter(tail, b);
  LLVMPositionBuilderAtEnd(cg->b, tail);
  for (LLVMValueRef x = i; x;) {
    LLVMValueRef next = LLVMGetNextInstruction(x);
    LLVMInstructionRemoveFromParent(x);
    LLVMInsertIntoBuilder(cg->b, x);
    x = next;
  }
  repoint_phis(cg, b, tail);
  return tail;
}

/* Rewrites division i by invariant d with reciprocal r (see the header).
 * For an int64 quotient whose remainder is also taken (`n - q * d`, as
 * DivRemPairs leaves it), the fast path gives that remainder too. */
static void rewrite(Cg *cg, LLVMValueRef fn, LLVMValueRef i, LLVMValueRef r) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  bool rem = op == LLVMURem || op == LLVMSRem;
  LLVMValueRef n = LLVMGetOperand(i, 0), d = LLVMGetOperand(i, 1), q32, m32;
  if (LLVMTypeOf(i) == cg->t_i32) { /* unsigned 32-bit: straight-line */
    LLVMPositionBuilderBefore(cg->b, i);
    divide32(cg, n, d, r, &q32, &m32);
    LLVMReplaceAllUsesWith(i, rem ? m32 : q32);
    LLVMInstructionEraseFromParent(i);
    return;
  }
  LLVMBasicBlockRef head = LLVMGetInstructionParent(i);
  LLVMBasicBlockRef join = split_before(cg, i);
  /* the split rebuilt the phis of the block's successors: in a one-block
   * loop, n itself may be one */
  n = LLVMGetOperand(i, 0);
  d = LLVMGetOperand(i, 1);
  LLVMValueRef sub = rem ? NULL : decomposed_rem(i, n, d);
  LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(cg->ctx, fn, "invdiv.fast");
  LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(cg->ctx, fn, "invdiv.slow");
  LLVMMoveBasicBlockAfter(fast, head);
  LLVMPositionBuilderAtEnd(cg->b, head);
  LLVMValueRef both = LLVMBuildOr(cg->b, n, d, "");
  LLVMValueRef high = LLVMBuildLShr(cg->b, both, LLVMConstInt(cg->t_i64, 32, false), "");
  LLVMValueRef fits = LLVMBuildICmp(cg->b, LLVMIntEQ, high, LLVMConstInt(cg->t_i64, 0, false), "");
  LLVMBuildCondBr(cg->b, fits, fast, slow);
  LLVMPositionBuilderAtEnd(cg->b, fast);
  divide32(cg, LLVMBuildTrunc(cg->b, n, cg->t_i32, ""), LLVMBuildTrunc(cg->b, d, cg->t_i32, ""), r, &q32, &m32);
  LLVMValueRef qf = LLVMBuildZExt(cg->b, rem ? m32 : q32, cg->t_i64, "");
  LLVMValueRef mf = sub ? LLVMBuildZExt(cg->b, m32, cg->t_i64, "") : NULL;
  LLVMBuildBr(cg->b, join);
  /* the original division, moved to the slow block */
  LLVMPositionBuilderBefore(cg->b, i);
  LLVMValueRef phi = LLVMBuildPhi(cg->b, cg->t_i64, "invdiv");
  LLVMValueRef mphi = sub ? LLVMBuildPhi(cg->b, cg->t_i64, "invdiv.rem") : NULL;
  LLVMReplaceAllUsesWith(i, phi);
  LLVMInstructionRemoveFromParent(i);
  LLVMPositionBuilderAtEnd(cg->b, slow);
  LLVMInsertIntoBuilder(cg->b, i);
  LLVMBasicBlockRef from[2] = {fast, slow};
  if (sub) {
    LLVMValueRef ms = LLVMBuildSub(cg->b, n, LLVMBuildMul(cg->b, i, d, ""), "");
    LLVMValueRef mv[2] = {mf, ms};
    LLVMAddIncoming(mphi, mv, from, 2);
    LLVMReplaceAllUsesWith(sub, mphi);
  }
  LLVMBuildBr(cg->b, join);
  LLVMValueRef vals[2] = {qf, i};
  LLVMAddIncoming(phi, vals, from, 2);
}

/* One function: collect the divisions first (the rewrite splits blocks),
 * then one reciprocal per divisor. */
static void invdiv_function(Cg *cg, LLVMValueRef fn) {
  Blocks bl = {0};
  bl.n = (int)LLVMCountBasicBlocks(fn);
  if (bl.n < 1 || bl.n > INVDIV_MAX_BLOCKS)
    return;
  bl.bbs = malloc((size_t)bl.n * sizeof *bl.bbs);
  bl.sorted = malloc((size_t)bl.n * sizeof *bl.sorted);
  bool *seen = malloc((size_t)bl.n * sizeof *seen);
  int *stack = malloc(((size_t)bl.n + 1) * sizeof *stack); /* a block, then each once */
  int cap = 0, ndiv = 0;
  LLVMValueRef *divs = NULL;
  if (!bl.bbs || !bl.sorted || !seen || !stack)
    goto out;
  LLVMGetBasicBlocks(fn, bl.bbs);
  for (int k = 0; k < bl.n; k++)
    bl.sorted[k] = (BlockKey){bl.bbs[k], k};
  qsort(bl.sorted, (size_t)bl.n, sizeof *bl.sorted, key_cmp);
  for (int k = 0; k < bl.n; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(bl.bbs[k]); i; i = LLVMGetNextInstruction(i)) {
      if (!is_division(i) || !invariant_divisor(&bl, bl.bbs[k], unfrozen(LLVMGetOperand(i, 1)), seen, stack))
        continue;
      if (ndiv == cap) {
        cap = cap ? 2 * cap : 8;
        LLVMValueRef *grown = realloc(divs, (size_t)cap * sizeof *divs);
        if (!grown)
          goto out;
        divs = grown;
      }
      divs[ndiv++] = i;
    }
  LLVMValueRef *rs = calloc((size_t)ndiv + 1, sizeof *rs);
  if (!rs)
    goto out;
  for (int k = 0; k < ndiv; k++) {
    LLVMValueRef d = unfrozen(LLVMGetOperand(divs[k], 1));
    for (int j = 0; j < k && !rs[k]; j++)
      if (LLVMGetOperand(divs[j], 1) == d)
        rs[k] = rs[j];
    if (!rs[k])
      rs[k] = reciprocal(cg, fn, d);
    rewrite(cg, fn, divs[k], rs[k]);
  }
  free(rs);
out:
  free(divs);
  free(stack);
  free(seen);
  free(bl.sorted);
  free(bl.bbs);
}

void cg_invariant_divisions(Cg *cg) {
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      invdiv_function(cg, f);
}
