/* cg_phistore.c - stores through a phi of local scalars, made promotable.
 *
 * A per-thread insertion sort in a cuda.local.array,
 *
 *     while j >= 0 and v[j] > x:
 *         v[j + 1] = v[j]
 *         j -= 1
 *     v[j + 1] = x
 *
 * is fully unrolled by the middle end and SROA splits v into one scalar
 * alloca per element, but the store after each inner loop writes through a
 * phi of those allocas (which element depends on the exit taken).  SROA
 * promotes loads through such a phi, never a store, so the whole array
 * stays in local memory: generic ld/st of the stack frame for every move
 * of the sort (bench/gpu/kernels/pattern_sort.py).
 *
 * This rewrites `store V, phi(a_0 .. a_n)`, the a_k distinct scalar allocas
 * of V's type, as one store per alloca of a value chosen by which edge the
 * phi took:
 *
 *     sel = phi i32 [k, pred]...             (next to the pointer phi)
 *     a_k = select(sel == k, V, load a_k)    for each k
 *
 * which is the same memory after the store for every path.  Only where the
 * store was the last thing keeping those allocas in memory: every other use
 * of each a_k is a plain load or store of it, or a phi/select of pointers
 * that only loads go through (which SROA speculates), so the next SROA
 * (o3_late) promotes them and instcombine folds each select of a phi of
 * constants into a phi.  Volatile and atomic stores are left alone. */
#include "codegen/cg_internal.h"

#include <stdbool.h>
#include <string.h>

#define MAX_LEAVES 32

/* The alloca of the entry block that v is, or addresses at a constant
 * offset (a GEP of constant indices), or NULL. */
static LLVMValueRef local_root(LLVMValueRef v) {
  while (v && LLVMIsAGetElementPtrInst(v)) {
    for (unsigned i = 1; i < (unsigned)LLVMGetNumOperands(v); i++)
      if (!LLVMIsAConstantInt(LLVMGetOperand(v, i)))
        return NULL;
    v = LLVMGetOperand(v, 0);
  }
  if (!v || !LLVMIsAAllocaInst(v))
    return NULL;
  LLVMBasicBlockRef b = LLVMGetInstructionParent(v);
  return b == LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(b)) ? v : NULL;
}

static bool is_lifetime(LLVMValueRef u) {
  if (!LLVMIsACallInst(u))
    return false;
  LLVMValueRef f = LLVMGetCalledValue(u);
  size_t len = 0;
  const char *name = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len) : "";
  return strncmp(name, "llvm.lifetime.", 14) == 0;
}

/* The one index of GEP g that is not a constant, when it is a phi of
 * constant integers and every other index is a constant; else NULL. */
static LLVMValueRef phi_index(LLVMValueRef g) {
  LLVMValueRef idx = NULL;
  for (unsigned i = 1; i < (unsigned)LLVMGetNumOperands(g); i++) {
    LLVMValueRef x = LLVMGetOperand(g, i);
    if (LLVMIsAConstantInt(x))
      continue;
    if (idx || !LLVMIsAPHINode(x) || LLVMCountIncoming(x) > MAX_LEAVES)
      return NULL;
    for (unsigned k = 0; k < LLVMCountIncoming(x); k++)
      if (!LLVMIsAConstantInt(LLVMGetIncomingValue(x, k)))
        return NULL;
    idx = x;
  }
  return idx;
}

/* u is a load of p or a store to p (not of p). */
static bool plain_access(LLVMValueRef u, LLVMValueRef p) {
  return LLVMIsALoadInst(u) || (LLVMIsAStoreInst(u) && LLVMGetOperand(u, 0) != p);
}

/* v (an alloca, or an address in it) used only as the address of loads
 * and stores: directly, through GEPs of constant indices, through one
 * level of phis or selects of pointers (loads through those SROA
 * speculates, stores this pass rewrites) or through a GEP whose index is
 * a phi of constants (which this pass rewrites). */
static bool address_only(LLVMValueRef v, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (plain_access(user, v) || is_lifetime(user))
      continue;
    if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == v) {
      if (local_root(user) && address_only(user, depth))
        continue;
      if (phi_index(user)) {
        bool ok = true;
        for (LLVMUseRef w = LLVMGetFirstUse(user); w && ok; w = LLVMGetNextUse(w))
          ok = plain_access(LLVMGetUser(w), user);
        if (ok)
          continue;
      }
    }
    if ((LLVMIsAPHINode(user) || LLVMIsASelectInst(user)) && depth == 0 &&
        address_only(user, depth + 1))
      continue;
    return false;
  }
  return true;
}

/* The addresses an access through p may reach (leaf[k], each a constant
 * address in a local array, built before `at` where needed) and, for
 * each, the condition that p is it (cond[k]); their count, or 0 when p is
 * not of the kinds this pass rewrites.  phis: p is a phi of such
 * addresses (sel: a new phi of which one, beside p); loads through those
 * SROA speculates, so only stores take them. */
static unsigned leaves(Cg *cg, LLVMValueRef p, LLVMValueRef at, bool phis, LLVMValueRef *leaf,
                       LLVMValueRef *cond) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(cg->ctx);
  unsigned nleaf = 0;
  if (phis && LLVMIsAPHINode(p)) {
    unsigned n = LLVMCountIncoming(p), which[MAX_LEAVES * 2];
    if (n > MAX_LEAVES * 2)
      return 0;
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInstructionParent(p)));
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef a = LLVMGetIncomingValue(p, i);
      /* each address is used at the access: it must be defined where it
       * dominates that (in the entry block, as SROA's and EarlyCSE's
       * constant GEPs are) */
      if (!local_root(a) || LLVMGetInstructionParent(a) != entry)
        return 0;
      unsigned k = 0;
      while (k < nleaf && leaf[k] != a)
        k++;
      if (k == nleaf) {
        if (nleaf == MAX_LEAVES)
          return 0;
        leaf[nleaf++] = a;
      }
      which[i] = k;
    }
    if (nleaf < 2)
      return 0;
    for (unsigned k = 0; k < nleaf; k++)
      if (!address_only(local_root(leaf[k]), 0))
        return 0;
    LLVMPositionBuilderBefore(cg->b, p);
    LLVMValueRef sel = LLVMBuildPhi(cg->b, i32, "phistore.sel");
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef c = LLVMConstInt(i32, which[i], false);
      LLVMBasicBlockRef from = LLVMGetIncomingBlock(p, i);
      LLVMAddIncoming(sel, &c, &from, 1);
    }
    LLVMPositionBuilderBefore(cg->b, at);
    for (unsigned k = 0; k < nleaf; k++)
      cond[k] = LLVMBuildICmp(cg->b, LLVMIntEQ, sel, LLVMConstInt(i32, k, false), "");
    return nleaf;
  }
  if (!LLVMIsAGetElementPtrInst(p) || !local_root(LLVMGetOperand(p, 0)))
    return 0;
  LLVMValueRef idx = phi_index(p);
  if (!idx || !address_only(local_root(LLVMGetOperand(p, 0)), 0))
    return 0;
  unsigned nops = (unsigned)LLVMGetNumOperands(p);
  LLVMValueRef ops[8];
  if (nops - 1 > 8)
    return 0;
  LLVMPositionBuilderBefore(cg->b, at);
  for (unsigned i = 0; i < LLVMCountIncoming(idx); i++) {
    LLVMValueRef c = LLVMGetIncomingValue(idx, i);
    bool seen = false;
    for (unsigned k = 0; k < i && !seen; k++)
      seen = LLVMGetIncomingValue(idx, k) == c;
    if (seen)
      continue;
    for (unsigned j = 1; j < nops; j++) {
      LLVMValueRef x = LLVMGetOperand(p, j);
      ops[j - 1] = x == idx ? c : x;
    }
    leaf[nleaf] = LLVMBuildGEP2(cg->b, LLVMGetGEPSourceElementType(p), LLVMGetOperand(p, 0), ops,
                                nops - 1, "phistore.at");
    cond[nleaf++] = LLVMBuildICmp(cg->b, LLVMIntEQ, idx, c, "");
  }
  return nleaf;
}

/* Rewrites the load or store `i` if it qualifies. */
static void split_access(Cg *cg, LLVMValueRef i) {
  bool store = LLVMIsAStoreInst(i) != NULL;
  LLVMValueRef p = LLVMGetOperand(i, store ? 1 : 0);
  if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
    return;
  LLVMValueRef leaf[MAX_LEAVES], cond[MAX_LEAVES];
  unsigned n = leaves(cg, p, i, store, leaf, cond);
  if (n == 0)
    return;
  unsigned align = LLVMGetAlignment(i);
  LLVMTypeRef t = store ? LLVMTypeOf(LLVMGetOperand(i, 0)) : LLVMTypeOf(i);
  LLVMPositionBuilderBefore(cg->b, i);
  LLVMValueRef r = NULL;
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef old = LLVMBuildLoad2(cg->b, t, leaf[k], "phistore.old");
    LLVMSetAlignment(old, align);
    if (store) {
      LLVMValueRef st =
          LLVMBuildStore(cg->b, LLVMBuildSelect(cg->b, cond[k], LLVMGetOperand(i, 0), old, ""), leaf[k]);
      LLVMSetAlignment(st, align);
    } else {
      r = r ? LLVMBuildSelect(cg->b, cond[k], old, r, "") : old;
    }
  }
  if (!store)
    LLVMReplaceAllUsesWith(i, r);
  LLVMInstructionEraseFromParent(i);
  if ((LLVMIsAPHINode(p) || LLVMIsAGetElementPtrInst(p)) && !LLVMGetFirstUse(p))
    LLVMInstructionEraseFromParent(p);
}

void cg_split_phi_stores(Cg *cg) {
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f)) {
    LLVMBasicBlockRef entry = LLVMCountBasicBlocks(f) ? LLVMGetEntryBasicBlock(f) : NULL;
    /* nothing to do without an alloca (most kernels): one look at the
     * entry block */
    bool any = false;
    for (LLVMValueRef i = entry ? LLVMGetFirstInstruction(entry) : NULL; i && !any;
         i = LLVMGetNextInstruction(i))
      any = LLVMIsAAllocaInst(i) != NULL;
    if (!any)
      continue;
    for (LLVMBasicBlockRef b = entry; b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        if (LLVMIsAStoreInst(i) || LLVMIsALoadInst(i))
          split_access(cg, i);
        i = next;
      }
  }
}
