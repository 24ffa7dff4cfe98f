/* cg_localsel.c - small local arrays indexed at run time, kept in registers.
 *
 * A per-thread histogram in a cuda.local.array,
 *
 *     bins = cuda.local.array(8, int32)
 *     for k in range(a.shape[1]):
 *         bins[a[i, k] % 8] += 1
 *
 * indexes the array with a value known only at run time, which SROA cannot
 * split, so the array reaches PTX as a .local depot.  Whether ptxas then
 * keeps it in registers is its own heuristic: it does for Numba's PTX of
 * this kernel and not for kjit's (loop-carried pointer induction variables
 * and the shape of the loop decide it, measured on bench/gpu guard_lang's
 * local_bins8_i32: 32 bytes of stack, 3.5x Numba's time).
 *
 * This pass does what ptxas does when it chooses to, before LLVM's last
 * SROA: an array of at most LOCALSEL_MAX_ELEMS scalars whose every use is a
 * load or store of an element (at a constant or a run-time index), a
 * memset of zero or a lifetime marker becomes one scalar alloca per
 * element, and each access at a run-time index j a chain over them:
 *
 *     load  a[j]      ->  select(j == N-1, a_N-1, ... select(j == 1, a_1, a_0))
 *     store a[j] = v  ->  a_k = select(j == k, v, a_k)      for each k
 *
 * which reads and writes the same elements for every j in range (an index
 * out of range is undefined in Numba too: it has no bounds check by
 * default, and kjit's debug check runs before).  An SROA run right after
 * makes the scalars SSA values, so the unroll hints see the loop as it will
 * be (the runtime unrolling that keeps several loads in flight).  Volatile accesses, any other use of the array
 * (a call, a pointer stored or compared, a view) leave it as it is. */
#include "codegen/cg_internal.h"

#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <stdbool.h>
#include <string.h>

#define LOCALSEL_MAX_ELEMS 8
/* elements x run-time accesses: past this, the chains cost more than the
 * local memory they avoid (a fully unrolled loop of many accesses) */
#define LOCALSEL_MAX_WORK 256

/* The array a cuda.local.array's alloca holds: element type and count,
 * or false.  Only the kernel's own arrays: libdevice's (the 7 words of
 * sin/cos's slow argument reduction) are on a path that almost never runs,
 * where the chains would only add code and registers. */
static bool small_array(LLVMValueRef a, LLVMTypeRef *et, unsigned *n) {
  LLVMTypeRef t = LLVMGetAllocatedType(a);
  size_t len = 0;
  const char *name = LLVMGetValueName2(a, &len);
  if (LLVMGetTypeKind(t) != LLVMArrayTypeKind || strncmp(name, CG_LOCAL_ARRAY_NAME, strlen(CG_LOCAL_ARRAY_NAME)) != 0)
    return false;
  *et = LLVMGetElementType(t);
  *n = (unsigned)LLVMGetArrayLength2(t);
  LLVMTypeKind k = LLVMGetTypeKind(*et);
  bool scalar = k == LLVMHalfTypeKind || k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind ||
                (k == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(*et) % 8 == 0);
  return scalar && *n >= 2 && *n <= LOCALSEL_MAX_ELEMS;
}

static unsigned scalar_bytes(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind: return 2;
  case LLVMFloatTypeKind: return 4;
  case LLVMDoubleTypeKind: return 8;
  default: return LLVMGetIntTypeWidth(t) / 8;
  }
}

static const char *callee_name(LLVMValueRef call) {
  LLVMValueRef f = LLVMGetCalledValue(call);
  size_t len = 0;
  return f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len) : "";
}

/* An element address in the array: `gep T, a, j`, `gep [N x T], a, 0, j`,
 * or (constant only) `gep i8, a, bytes`.  Sets *idx (NULL when constant)
 * and *k (the constant element); false for any other form. */
static bool element_gep(LLVMValueRef g, LLVMValueRef a, LLVMTypeRef et, unsigned n, LLVMValueRef *idx,
                        long long *k) {
  if (!LLVMIsAGetElementPtrInst(g) || LLVMGetOperand(g, 0) != a)
    return false;
  LLVMTypeRef st = LLVMGetGEPSourceElementType(g);
  unsigned nops = (unsigned)LLVMGetNumOperands(g);
  LLVMValueRef j;
  long long scale = 1;
  if (st == et && nops == 2) {
    j = LLVMGetOperand(g, 1);
  } else if (LLVMGetTypeKind(st) == LLVMArrayTypeKind && nops == 3 && LLVMIsAConstantInt(LLVMGetOperand(g, 1)) &&
             LLVMConstIntGetSExtValue(LLVMGetOperand(g, 1)) == 0 && LLVMGetElementType(st) == et) {
    j = LLVMGetOperand(g, 2);
  } else if (LLVMGetTypeKind(st) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(st) == 8 && nops == 2 &&
             LLVMIsAConstantInt(LLVMGetOperand(g, 1))) {
    j = LLVMGetOperand(g, 1);
    scale = scalar_bytes(et);
  } else {
    return false;
  }
  *idx = NULL;
  if (!LLVMIsAConstantInt(j)) {
    *idx = j;
    return true;
  }
  long long off = LLVMConstIntGetSExtValue(j);
  if (off < 0 || off % scale != 0 || off / scale >= n)
    return false;
  *k = off / scale;
  return true;
}

/* u loads or stores (not stores the address) an element at p: a scalar of
 * type et, or (at a constant element k) a vector of them that fits. */
static bool element_access(LLVMValueRef u, LLVMValueRef p, LLVMTypeRef et, unsigned n, bool dynamic, long long k) {
  LLVMTypeRef vt;
  if (LLVMIsALoadInst(u))
    vt = LLVMTypeOf(u);
  else if (LLVMIsAStoreInst(u) && LLVMGetOperand(u, 1) == p && LLVMGetOperand(u, 0) != p)
    vt = LLVMTypeOf(LLVMGetOperand(u, 0));
  else
    return false;
  if (LLVMGetVolatile(u) || LLVMGetOrdering(u) != LLVMAtomicOrderingNotAtomic)
    return false;
  if (vt == et)
    return true;
  return !dynamic && LLVMGetTypeKind(vt) == LLVMVectorTypeKind && LLVMGetElementType(vt) == et &&
         k + LLVMGetVectorSize(vt) <= n;
}

/* Every use of alloca a is one this pass rewrites; *work counts the
 * chains' length (0: no run-time index, SROA needs no help). */
static bool rewritable(LLVMValueRef a, LLVMTypeRef et, unsigned n, unsigned *work) {
  *work = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u), idx;
    long long k = 0;
    if (LLVMIsACallInst(user)) {
      const char *name = callee_name(user);
      if (strncmp(name, "llvm.lifetime.", 14) == 0)
        continue;
      if (strncmp(name, "llvm.memset.", 12) == 0 && LLVMGetOperand(user, 0) == a &&
          LLVMIsAConstantInt(LLVMGetOperand(user, 1)) && LLVMConstIntGetZExtValue(LLVMGetOperand(user, 1)) == 0 &&
          LLVMIsAConstantInt(LLVMGetOperand(user, 2)) &&
          LLVMConstIntGetZExtValue(LLVMGetOperand(user, 2)) == (unsigned long long)n * scalar_bytes(et) &&
          LLVMIsAConstantInt(LLVMGetOperand(user, 3)) && LLVMConstIntGetZExtValue(LLVMGetOperand(user, 3)) == 0)
        continue;
      return false;
    }
    if (element_access(user, a, et, n, false, 0))
      continue;
    if (!element_gep(user, a, et, n, &idx, &k))
      return false;
    for (LLVMUseRef w = LLVMGetFirstUse(user); w; w = LLVMGetNextUse(w)) {
      if (!element_access(LLVMGetUser(w), user, et, n, idx != NULL, k))
        return false;
      if (idx)
        *work += n;
    }
  }
  return *work > 0 && *work <= LOCALSEL_MAX_WORK;
}

typedef struct LocalSel {
  Cg *cg;
  LLVMTypeRef et;
  unsigned n;
  LLVMValueRef elem[LOCALSEL_MAX_ELEMS]; /* one scalar alloca per element */
} LocalSel;

static LLVMValueRef load_elem(LocalSel *s, unsigned k) {
  return LLVMBuildLoad2(s->cg->b, s->et, s->elem[k], "");
}

static LLVMValueRef is_index(LocalSel *s, LLVMValueRef idx, unsigned k) {
  return LLVMBuildICmp(s->cg->b, LLVMIntEQ, idx, LLVMConstInt(LLVMTypeOf(idx), k, 0), "");
}

/* Replaces access u (at element k, or at run-time index idx) and erases it. */
static void rewrite_access(LocalSel *s, LLVMValueRef u, LLVMValueRef idx, long long k) {
  LLVMBuilderRef B = s->cg->b;
  LLVMPositionBuilderBefore(B, u);
  bool load = LLVMIsALoadInst(u) != NULL;
  LLVMValueRef v = load ? NULL : LLVMGetOperand(u, 0);
  LLVMTypeRef vt = load ? LLVMTypeOf(u) : LLVMTypeOf(v);
  if (idx && load) {
    LLVMValueRef r = load_elem(s, 0);
    for (unsigned j = 1; j < s->n; j++)
      r = LLVMBuildSelect(B, is_index(s, idx, j), load_elem(s, j), r, "");
    LLVMReplaceAllUsesWith(u, r);
  } else if (idx) {
    for (unsigned j = 0; j < s->n; j++)
      LLVMBuildStore(B, LLVMBuildSelect(B, is_index(s, idx, j), v, load_elem(s, j), ""), s->elem[j]);
  } else if (LLVMGetTypeKind(vt) == LLVMVectorTypeKind) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(s->cg->ctx);
    LLVMValueRef r = LLVMGetUndef(vt);
    for (unsigned j = 0; j < LLVMGetVectorSize(vt); j++) {
      LLVMValueRef lane = LLVMConstInt(i32, j, 0);
      if (load)
        r = LLVMBuildInsertElement(B, r, load_elem(s, (unsigned)k + j), lane, "");
      else
        LLVMBuildStore(B, LLVMBuildExtractElement(B, v, lane, ""), s->elem[k + j]);
    }
    if (load)
      LLVMReplaceAllUsesWith(u, r);
  } else if (load) {
    LLVMReplaceAllUsesWith(u, load_elem(s, (unsigned)k));
  } else {
    LLVMBuildStore(B, v, s->elem[k]);
  }
  LLVMInstructionEraseFromParent(u);
}

/* Rewrites every use of alloca a (rewritable() said yes) and erases it. */
static void split_array(Cg *cg, LLVMValueRef a, LLVMTypeRef et, unsigned n) {
  LocalSel s = {.cg = cg, .et = et, .n = n};
  LLVMPositionBuilderBefore(cg->b, a);
  for (unsigned k = 0; k < n; k++)
    s.elem[k] = LLVMBuildAlloca(cg->b, et, "local.elem");
  LLVMUseRef u;
  while ((u = LLVMGetFirstUse(a)) != NULL) {
    LLVMValueRef user = LLVMGetUser(u), idx = NULL;
    long long k = 0;
    if (LLVMIsACallInst(user)) {
      if (strncmp(callee_name(user), "llvm.memset.", 12) == 0) {
        LLVMPositionBuilderBefore(cg->b, user);
        for (unsigned j = 0; j < n; j++)
          LLVMBuildStore(cg->b, LLVMConstNull(et), s.elem[j]);
      }
      LLVMInstructionEraseFromParent(user); /* memset or lifetime marker */
      continue;
    }
    if (!LLVMIsAGetElementPtrInst(user)) {
      rewrite_access(&s, user, NULL, 0);
      continue;
    }
    element_gep(user, a, et, n, &idx, &k);
    LLVMUseRef w;
    while ((w = LLVMGetFirstUse(user)) != NULL)
      rewrite_access(&s, LLVMGetUser(w), idx, k);
    LLVMInstructionEraseFromParent(user);
  }
  LLVMInstructionEraseFromParent(a);
}

/* SROA over the module, once scalars replaced arrays: the unroll hints that
 * follow then see the loop as it will be (select chains, no memory). */
static void promote(Cg *cg) {
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(cg->mod, "function(sroa<preserve-cfg>)", cg->tm, po);
  LLVMDisposePassBuilderOptions(po);
  if (e) /* not an error of the program: o3_late's SROA promotes them */
    LLVMConsumeError(e);
}

void cg_select_local_arrays(Cg *cg) {
  bool changed = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMCountBasicBlocks(f) == 0)
      continue;
    /* the candidates first: a rewrite erases GEPs that may sit among them */
    LLVMValueRef cand[32];
    unsigned ncand = 0;
    for (LLVMValueRef in = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f)); in && ncand < 32;
         in = LLVMGetNextInstruction(in))
      if (LLVMIsAAllocaInst(in))
        cand[ncand++] = in;
    for (unsigned i = 0; i < ncand; i++) {
      LLVMTypeRef et;
      unsigned n, work;
      if (small_array(cand[i], &et, &n) && rewritable(cand[i], et, n, &work)) {
        split_array(cg, cand[i], et, n);
        changed = true;
      }
    }
  }
  if (changed)
    promote(cg);
}
