/* cg_regions.c - splits a host kernel at its syncthreads barriers (the
 * "region" execution of CPU compilers of GPU kernels), so the executor runs
 * a block as loops over its threads instead of one fiber per thread.
 *
 * The kernel body (SSA after cg_regions_prepare) becomes one function that
 * runs a thread from a resume point to its next barrier and returns that
 * barrier's number (cg_regions.h).  Each barrier ends a block whose edge to
 * the code after it is cut; a switch on the resume point enters there.  A
 * value live across a barrier (used on some path from its definition that
 * passes a barrier) is stored to the thread's slot in the frame after its
 * definition and loaded again before each such use, unless it is a pure
 * expression of arguments and invariant loads, recomputed instead; allocas
 * whose memory lives across a barrier move to the frame.  syncthreads_count/
 * and/or leave the predicate in the frame and read the block's count back.
 * Nothing else changes, so a thread executes exactly what it executed on
 * its fiber. */
#include "codegen/cg_regions_internal.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  NEXTRA = 4,                 /* frame, t, ntpad, resume */
  MAX_BLOCKS = 4096,          /* analysis cost: values x blocks */
  MAX_WORK = 1 << 24,
};

/* The forms of a block barrier (kjit_host_syncthreads[_count|_and|_or]). */
typedef enum RegionSync { SYNC_PLAIN, SYNC_COUNT, SYNC_AND, SYNC_OR } RegionSync;

typedef struct BlockKey {
  uintptr_t bb;
  int idx;
} BlockKey;

typedef struct Split {
  Cg *cg;
  LLVMValueRef fn;
  LLVMBasicBlockRef start;    /* the kernel's original entry block */
  LLVMBasicBlockRef head[CG_REGION_MAX_BARRIERS + 1], cont[CG_REGION_MAX_BARRIERS + 1];
  int k;                      /* barriers split so far */
  RegionSync kind[CG_REGION_MAX_BARRIERS + 1]; /* barrier k's form */
  bool reduces;               /* some barrier is a count/and/or */
  LLVMValueRef pred, red;     /* reduces: thread t's predicate slot, the
                                 block's {count, live} (cg_regions.h) */
  LLVMBasicBlockRef *bbs;     /* every block but the dispatch block */
  BlockKey *keys;             /* bbs sorted by address, for index_of */
  int nbb;
  int *succ_at, *succ;        /* successors of block i: succ[succ_at[i]..succ_at[i+1]) */
  bool *barrier_end;          /* block i ends at a barrier (its edge crosses) */
  int *seen, *queue, stamp;   /* BFS state: seen[2 * i + crossed] == stamp */
  LLVMValueRef *cross;        /* values with a use across a barrier */
  int ncross;
  /* rewrite */
  LLVMBuilderRef b;
  LLVMValueRef frame, t64, ntpad64;
  uint64_t bytes;             /* per-thread frame bytes so far */
  LLVMValueRef scope, noalias; /* !alias.scope of slot accesses, !noalias of the rest */
  unsigned k_scope, k_noalias, k_invariant;
} Split;

/* ---------------------------------------------------------------- checks -- */

static const char *callee_name(LLVMValueRef in, LLVMValueRef *callee) {
  *callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
  if (!*callee || !LLVMIsAFunction(*callee))
    return NULL;
  size_t n;
  return LLVMGetValueName2(*callee, &n);
}

/* Which block barrier a callee is: 0 none, else 1 + RegionSync. */
static int sync_kind(const char *name) {
  static const char *const names[] = {"kjit_host_syncthreads", "kjit_host_syncthreads_count",
                                      "kjit_host_syncthreads_and", "kjit_host_syncthreads_or"};
  for (int i = 0; name && i < 4; i++)
    if (strcmp(name, names[i]) == 0)
      return 1 + i;
  return 0;
}

static bool is_sync(const char *name) { return sync_kind(name) != 0; }

static bool is_lifetime(const char *name) { return name && strncmp(name, "llvm.lifetime.", 14) == 0; }

/* Can the body be split?  Counts its syncthreads calls into *nsync. */
static bool splittable(LLVMValueRef body, int *nsync) {
  int nbb = 0;
  size_t ninst = 0;
  *nsync = 0;
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(body);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(body); bb; bb = LLVMGetNextBasicBlock(bb), nbb++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in), ninst++) {
      if (LLVMIsAAllocaInst(in) && bb != entry)
        return false; /* a dynamic alloca: its memory cannot move to the frame */
      LLVMValueRef callee;
      const char *name = callee_name(in, &callee);
      if (LLVMIsACallInst(in) && !name)
        return false;
      if (!name)
        continue;
      if (is_sync(name))
        ++*nsync;
      else if (strncmp(name, "kjit_host_sync", 14) == 0 || strncmp(name, "kjit_host_warp", 14) == 0)
        return false; /* syncwarp, warp collectives, grid sync: lockstep */
      else if (!LLVMIsDeclaration(callee) && cg_host_uses_barriers(callee))
        return false; /* a barrier in a function left out of line */
    }
  /* the liveness walk costs up to one CFG walk per instruction */
  size_t nblocks = (size_t)nbb + (size_t)*nsync;
  return *nsync > 0 && *nsync <= CG_REGION_MAX_BARRIERS && nblocks < MAX_BLOCKS && ninst * nblocks < MAX_WORK;
}

/* ---------------------------------------------------------- the function -- */

/* Moves the body's blocks into a new function with the region signature. */
static LLVMValueRef move_body(Cg *cg, LLVMValueRef body, const char *name) {
  LLVMTypeRef fty = LLVMGlobalGetValueType(body), pt[CG_MAX_ARGS + NEXTRA];
  unsigned n = LLVMCountParamTypes(fty);
  LLVMGetParamTypes(fty, pt);
  pt[n] = cg->t_ptr;
  pt[n + 1] = pt[n + 2] = pt[n + 3] = cg->t_i32;
  char fname[256];
  snprintf(fname, sizeof fname, "%.200s.regions", name);
  LLVMValueRef fn = LLVMAddFunction(cg->mod, fname, LLVMFunctionType(cg->t_i32, pt, n + NEXTRA, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, nounwind, 0));
  cg_set_fastmath_attrs(cg, fn);
  LLVMMetadataRef sp = LLVMGetSubprogram(body);
  if (sp)
    LLVMSetSubprogram(fn, sp);
  LLVMAppendBasicBlockInContext(cg->ctx, fn, "regions");
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(body), next; bb; bb = next) {
    next = LLVMGetNextBasicBlock(bb);
    LLVMRemoveBasicBlockFromParent(bb);
    LLVMAppendExistingBasicBlock(fn, bb);
  }
  for (unsigned i = 0; i < n; i++)
    LLVMReplaceAllUsesWith(LLVMGetParam(body, i), LLVMGetParam(fn, i));
  LLVMDeleteFunction(body);
  return fn;
}

/* Moves the instructions of c's block up to and including c into a new
 * block before it, which branches to the rest: the rest is where a thread
 * resumes after barrier c. */
static void split_at(Split *s, LLVMValueRef c) {
  Cg *cg = s->cg;
  LLVMBasicBlockRef x = LLVMGetInstructionParent(c);
  LLVMBasicBlockRef a = LLVMInsertBasicBlockInContext(cg->ctx, x, "sync");
  LLVMPositionBuilderAtEnd(s->b, a);
  for (LLVMValueRef in = LLVMGetFirstInstruction(x), next; in; in = next) {
    next = LLVMGetNextInstruction(in);
    LLVMInstructionRemoveFromParent(in);
    LLVMInsertIntoBuilder(s->b, in);
    if (in == c)
      break;
  }
  for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(s->fn); p; p = LLVMGetNextBasicBlock(p)) {
    LLVMValueRef term = p == a ? NULL : LLVMGetBasicBlockTerminator(p);
    for (unsigned i = 0, n = term ? LLVMGetNumSuccessors(term) : 0; i < n; i++)
      if (LLVMGetSuccessor(term, i) == x)
        LLVMSetSuccessor(term, i, a);
  }
  LLVMBuildBr(s->b, x);
  if (x == s->start)
    s->start = a;
  for (int j = 1; j <= s->k; j++) /* x's code now starts in a */
    if (s->cont[j] == x)
      s->cont[j] = a;
  s->k++;
  LLVMValueRef callee;
  s->kind[s->k] = (RegionSync)(sync_kind(callee_name(c, &callee)) - 1);
  s->reduces |= s->kind[s->k] != SYNC_PLAIN;
  s->head[s->k] = a;
  s->cont[s->k] = x;
}

static void split_all(Split *s) {
  LLVMValueRef calls[CG_REGION_MAX_BARRIERS];
  int n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      LLVMValueRef callee;
      if (is_sync(callee_name(in, &callee)) && n < CG_REGION_MAX_BARRIERS)
        calls[n++] = in;
    }
  for (int i = 0; i < n; i++)
    split_at(s, calls[i]);
}

/* ------------------------------------------------------------------- CFG -- */

static int cmp_key(const void *a, const void *b) {
  uintptr_t x = ((const BlockKey *)a)->bb, y = ((const BlockKey *)b)->bb;
  return (x > y) - (x < y);
}

static int index_of(const Split *s, LLVMBasicBlockRef bb) {
  BlockKey k = {(uintptr_t)bb, 0};
  const BlockKey *r = bsearch(&k, s->keys, (size_t)s->nbb, sizeof k, cmp_key);
  return r ? r->idx : -1;
}

static bool build_cfg(Split *s) {
  LLVMBasicBlockRef dispatch = LLVMGetEntryBasicBlock(s->fn);
  s->nbb = (int)LLVMCountBasicBlocks(s->fn) - 1;
  size_t nb = (size_t)s->nbb;
  s->bbs = malloc(sizeof *s->bbs * nb);
  s->keys = malloc(sizeof *s->keys * nb);
  s->succ_at = malloc(sizeof *s->succ_at * (nb + 1));
  s->barrier_end = calloc(nb, sizeof *s->barrier_end);
  s->seen = calloc(2 * nb, sizeof *s->seen);
  s->queue = malloc(sizeof *s->queue * 2 * nb);
  if (!s->bbs || !s->keys || !s->succ_at || !s->barrier_end || !s->seen || !s->queue)
    return false;
  int i = 0, nsucc = 0;
  for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(dispatch); bb; bb = LLVMGetNextBasicBlock(bb), i++) {
    s->bbs[i] = bb;
    s->keys[i] = (BlockKey){(uintptr_t)bb, i};
    nsucc += (int)LLVMGetNumSuccessors(LLVMGetBasicBlockTerminator(bb));
  }
  qsort(s->keys, nb, sizeof *s->keys, cmp_key);
  s->succ = malloc(sizeof *s->succ * (size_t)(nsucc + 1));
  if (!s->succ)
    return false;
  nsucc = 0;
  for (i = 0; i < s->nbb; i++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(s->bbs[i]);
    s->succ_at[i] = nsucc;
    for (unsigned j = 0; j < LLVMGetNumSuccessors(term); j++)
      s->succ[nsucc++] = index_of(s, LLVMGetSuccessor(term, j));
  }
  s->succ_at[s->nbb] = nsucc;
  for (int k = 1; k <= s->k; k++)
    s->barrier_end[index_of(s, s->head[k])] = true;
  return true;
}

/* ------------------------------------------------------------- liveness -- */

/* Marks the blocks reachable from the end of def's block without passing
 * def's block again: seen[2*i + 1] == stamp where a barrier was crossed on
 * the way (a use there reads a value from before that barrier). */
static void reach_from(Split *s, int from) {
  int head = 0, tail = 0;
  s->stamp++;
  int start[2] = {from, s->barrier_end[from]};
  for (int j = s->succ_at[from]; j < s->succ_at[from + 1]; j++) {
    int v = 2 * s->succ[j] + start[1];
    if (s->succ[j] != from && s->seen[v] != s->stamp)
      s->seen[v] = s->stamp, s->queue[tail++] = v;
  }
  while (head < tail) {
    int u = s->queue[head++], bi = u / 2, crossed = (u & 1) | s->barrier_end[bi];
    for (int j = s->succ_at[bi]; j < s->succ_at[bi + 1]; j++) {
      int v = 2 * s->succ[j] + crossed;
      if (s->succ[j] != from && s->seen[v] != s->stamp)
        s->seen[v] = s->stamp, s->queue[tail++] = v;
    }
  }
}

static bool crossed_at(const Split *s, LLVMBasicBlockRef bb) {
  int i = index_of(s, bb);
  return i >= 0 && s->seen[2 * i + 1] == s->stamp;
}

/* Is operand `op` of user u (a use of the value whose reach_from is
 * current) reached across a barrier?  A phi uses it at its incoming
 * block's end. */
static bool use_crosses(const Split *s, LLVMValueRef u, unsigned op) {
  LLVMBasicBlockRef at = LLVMIsAPHINode(u) ? LLVMGetIncomingBlock(u, op) : LLVMGetInstructionParent(u);
  return crossed_at(s, at);
}

/* A use in another block than the definition's (else it cannot cross). */
static bool used_elsewhere(LLVMValueRef d, LLVMBasicBlockRef home) {
  for (LLVMUseRef u = LLVMGetFirstUse(d); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAPHINode(user) || LLVMGetInstructionParent(user) != home)
      return true;
  }
  return false;
}

static bool crosses(Split *s, LLVMValueRef d, int home) {
  reach_from(s, home);
  for (LLVMUseRef u = LLVMGetFirstUse(d); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(user); i < n; i++)
      if (LLVMGetOperand(user, i) == d && use_crosses(s, user, LLVMIsAPHINode(user) ? i : 0))
        return true;
  }
  return false;
}

static bool find_crossing(Split *s) {
  size_t cap = 64;
  s->cross = malloc(sizeof *s->cross * cap);
  for (int i = 0; s->cross && i < s->nbb; i++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(s->bbs[i]); in; in = LLVMGetNextInstruction(in)) {
      if (LLVMTypeOf(in) == s->cg->t_void || !used_elsewhere(in, s->bbs[i]))
        continue;
      if (!crosses(s, in, i))
        continue;
      if ((size_t)s->ncross == cap) {
        LLVMValueRef *g = realloc(s->cross, sizeof *g * (cap *= 2));
        if (!g)
          return false;
        s->cross = g;
      }
      s->cross[s->ncross++] = in;
    }
  return s->cross != NULL;
}

static bool is_crossing(const Split *s, LLVMValueRef v) {
  for (int i = 0; i < s->ncross; i++)
    if (s->cross[i] == v)
      return true;
  return false;
}

/* Does the memory of alloca a live across a barrier: is the alloca, or a
 * value computed from its address (through GEPs, selects, phis, the array
 * structs that carry it...), used across one?  Loaded values are memory
 * contents, not addresses; a closure too large to walk counts as yes. */
static bool alloca_crosses(const Split *s, LLVMValueRef a) {
  enum { MAX_DERIVED = 4096 };
  LLVMValueRef *seen = malloc(sizeof *seen * MAX_DERIVED);
  int n = 0, done = 0;
  bool r = seen == NULL;
  if (seen)
    seen[n++] = a;
  while (!r && done < n) {
    LLVMValueRef v = seen[done++];
    if (is_crossing(s, v))
      r = true;
    for (LLVMUseRef u = LLVMGetFirstUse(v); !r && u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMTypeOf(user) == s->cg->t_void || LLVMIsALoadInst(user))
        continue;
      bool known = false;
      for (int i = 0; i < n && !known; i++)
        known = seen[i] == user;
      if (!known && n == MAX_DERIVED)
        r = true;
      else if (!known)
        seen[n++] = user;
    }
  }
  free(seen);
  return r;
}

/* -------------------------------------------------------------- rewrite -- */

/* The address of thread t's element of a new slot of `size` bytes. */
static LLVMValueRef new_slot(Split *s, uint64_t size, uint64_t align) {
  Cg *cg = s->cg;
  if (align < 1)
    align = 1;
  size = (size + align - 1) / align * align;
  s->bytes = (s->bytes + align - 1) / align * align;
  LLVMBasicBlockRef dispatch = LLVMGetEntryBasicBlock(s->fn);
  LLVMPositionBuilderAtEnd(s->b, dispatch);
  LLVMValueRef off = LLVMBuildAdd(s->b, LLVMBuildMul(s->b, cg_const_i64(cg, (int64_t)s->bytes), s->ntpad64, ""),
                                  LLVMBuildMul(s->b, s->t64, cg_const_i64(cg, (int64_t)size), ""), "");
  s->bytes += size;
  return LLVMBuildGEP2(s->b, cg->t_i8, s->frame, &off, 1, "slot");
}

static void tag(Split *s, LLVMValueRef mem) { LLVMSetMetadata(mem, s->k_scope, s->scope); }

static LLVMValueRef first_after(LLVMValueRef d) {
  LLVMValueRef in = LLVMGetNextInstruction(d);
  while (in && LLVMIsAPHINode(in))
    in = LLVMGetNextInstruction(in);
  return in;
}

/* The expression a value is recomputed from: its instructions, once each. */
typedef struct Remat {
  LLVMValueRef from[64], to[64];
  int n;
} Remat;

static int remat_find(const Remat *m, LLVMValueRef v) {
  for (int i = 0; i < m->n; i++)
    if (m->from[i] == v)
      return i;
  return -1;
}

/* Can v be recomputed at the function's entry: a pure, non-trapping
 * expression of arguments, constants and invariant loads (HostCtx fields,
 * kernel arguments)?  Such values (a thread's global index, an array's
 * shape, a shared array's address) need no slot.  Collects the
 * expression's instructions in m (at most 64). */
static bool remat_ok(const Split *s, LLVMValueRef v, Remat *m) {
  if (LLVMIsAConstant(v) || LLVMIsAArgument(v) || remat_find(m, v) >= 0)
    return true;
  if (!LLVMIsAInstruction(v) || m->n == 64)
    return false;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
  case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFNeg:
  case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMSIToFP: case LLVMUIToFP: case LLVMFPExt:
  case LLVMFPTrunc: case LLVMBitCast: case LLVMPtrToInt: case LLVMIntToPtr: case LLVMGetElementPtr:
  case LLVMExtractValue: case LLVMInsertValue: case LLVMICmp: case LLVMFCmp: case LLVMSelect:
    break;
  case LLVMLoad:
    if (!LLVMGetMetadata(v, s->k_invariant))
      return false;
    break;
  default:
    return false;
  }
  m->from[m->n] = v;
  m->to[m->n++] = NULL;
  for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++)
    if (!remat_ok(s, LLVMGetOperand(v, i), m))
      return false;
  return true;
}

/* A copy of v's expression (collected by remat_ok) at the end of the
 * dispatch block, which every region passes. */
static LLVMValueRef remat(Split *s, LLVMValueRef v, Remat *m) {
  int at = remat_find(m, v);
  if (at < 0)
    return v;
  if (m->to[at])
    return m->to[at];
  LLVMValueRef c = LLVMInstructionClone(v);
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
    LLVMSetOperand(c, i, remat(s, LLVMGetOperand(v, i), m));
  LLVMPositionBuilderAtEnd(s->b, LLVMGetEntryBasicBlock(s->fn));
  LLVMInsertIntoBuilder(s->b, c);
  return m->to[at] = c;
}

/* Stores d to its slot after its definition and loads it back before each
 * use reached across a barrier. */
static bool demote(Split *s, LLVMValueRef d) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(s->cg->mod);
  LLVMTypeRef t = LLVMTypeOf(d);
  Remat m = {.n = 0};
  LLVMValueRef again = remat_ok(s, d, &m) ? remat(s, d, &m) : NULL;
  LLVMValueRef slot = again ? NULL : new_slot(s, LLVMABISizeOfType(td, t), LLVMABIAlignmentOfType(td, t));
  reach_from(s, index_of(s, LLVMGetInstructionParent(d)));
  int n = 0, cap = 16;
  LLVMValueRef *users = malloc(sizeof *users * (size_t)cap);
  for (LLVMUseRef u = LLVMGetFirstUse(d); users && u; u = LLVMGetNextUse(u)) {
    if (n == cap) {
      LLVMValueRef *g = realloc(users, sizeof *g * (size_t)(cap *= 2));
      if (!g)
        break;
      users = g;
    }
    users[n++] = LLVMGetUser(u);
  }
  if (!users || (LLVMGetFirstUse(d) && n == 0)) {
    free(users);
    return false;
  }
  for (int k = 0; k < n; k++) {
    LLVMValueRef u = users[k];
    bool phi = LLVMIsAPHINode(u);
    for (unsigned i = 0, nops = (unsigned)LLVMGetNumOperands(u); i < nops; i++) {
      if (LLVMGetOperand(u, i) != d || !use_crosses(s, u, phi ? i : 0))
        continue;
      if (again) {
        LLVMSetOperand(u, i, again);
        continue;
      }
      LLVMPositionBuilderBefore(s->b, phi ? LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(u, i)) : u);
      LLVMValueRef v = LLVMBuildLoad2(s->b, t, slot, "");
      tag(s, v);
      LLVMSetOperand(u, i, v);
    }
  }
  free(users);
  if (slot) {
    LLVMPositionBuilderBefore(s->b, first_after(d));
    tag(s, LLVMBuildStore(s->b, d, slot));
  }
  return true;
}

/* Allocas: those whose memory lives across a barrier get a frame slot,
 * the others move to the dispatch block (they must dominate every entry). */
static void place_allocas(Split *s) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(s->cg->mod);
  LLVMValueRef in = LLVMGetFirstInstruction(s->start), next;
  LLVMBasicBlockRef dispatch = LLVMGetEntryBasicBlock(s->fn);
  for (; in; in = next) {
    next = LLVMGetNextInstruction(in);
    if (!LLVMIsAAllocaInst(in))
      continue;
    if (alloca_crosses(s, in)) {
      LLVMValueRef count = LLVMGetOperand(in, 0);
      uint64_t n = LLVMIsAConstantInt(count) ? LLVMConstIntGetZExtValue(count) : 1;
      LLVMTypeRef t = LLVMGetAllocatedType(in);
      uint64_t align = LLVMGetAlignment(in) > LLVMABIAlignmentOfType(td, t) ? LLVMGetAlignment(in)
                                                                         : LLVMABIAlignmentOfType(td, t);
      LLVMReplaceAllUsesWith(in, new_slot(s, LLVMABISizeOfType(td, t) * n, align));
      LLVMInstructionEraseFromParent(in);
    } else {
      LLVMInstructionRemoveFromParent(in);
      LLVMPositionBuilderAtEnd(s->b, dispatch);
      LLVMInsertIntoBuilder(s->b, in);
    }
  }
}

/* Barrier k's block returns k; `ret void` returns CG_REGION_EXIT; lifetime
 * markers go (a frame slot's memory must outlive the region). */
static void rewrite_exits(Split *s) {
  Cg *cg = s->cg;
  for (int k = 1; k <= s->k; k++) {
    LLVMValueRef br = LLVMGetBasicBlockTerminator(s->head[k]), call = LLVMGetPreviousInstruction(br);
    LLVMPositionBuilderBefore(s->b, call);
    if (s->reduces) /* a plain barrier's threads count as predicate 0 */
      tag(s, LLVMBuildStore(s->b, s->kind[k] == SYNC_PLAIN ? cg_const_i32(cg, 0) : LLVMGetOperand(call, 1), s->pred));
    LLVMInstructionEraseFromParent(br);
    LLVMInstructionEraseFromParent(call);
    LLVMPositionBuilderAtEnd(s->b, s->head[k]);
    LLVMBuildRet(s->b, cg_const_i32(cg, k));
  }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
      next = LLVMGetNextInstruction(in);
      LLVMValueRef callee;
      if (is_lifetime(callee_name(in, &callee)))
        LLVMInstructionEraseFromParent(in);
    }
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    if (term && LLVMGetInstructionOpcode(term) == LLVMRet && LLVMGetNumOperands(term) == 0) {
      LLVMPositionBuilderBefore(s->b, term);
      LLVMBuildRet(s->b, cg_const_i32(cg, CG_REGION_EXIT));
      LLVMInstructionEraseFromParent(term);
    }
  }
}

/* Memory the kernel touches is never a slot: !noalias on every other
 * access lets LLVM keep slot values in registers around stores to arrays. */
static void tag_others(Split *s) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      bool mem = LLVMIsALoadInst(in) || LLVMIsAStoreInst(in) || LLVMIsAAtomicRMWInst(in) ||
                 LLVMIsAAtomicCmpXchgInst(in) || LLVMIsAMemIntrinsic(in);
      if (mem && !LLVMGetMetadata(in, s->k_scope))
        LLVMSetMetadata(in, s->k_noalias, s->noalias);
    }
}

static void make_scopes(Split *s) {
  Cg *cg = s->cg;
  LLVMMetadataRef dom_ops[1] = {LLVMMDStringInContext2(cg->ctx, "kjit.regions", 12)};
  LLVMMetadataRef dom = LLVMMDNodeInContext2(cg->ctx, dom_ops, 1);
  LLVMMetadataRef scope_ops[2] = {LLVMMDStringInContext2(cg->ctx, "kjit.regions.slots", 18), dom};
  LLVMMetadataRef scope = LLVMMDNodeInContext2(cg->ctx, scope_ops, 2);
  LLVMMetadataRef list = LLVMMDNodeInContext2(cg->ctx, &scope, 1);
  s->scope = s->noalias = LLVMMetadataAsValue(cg->ctx, list);
  s->k_scope = LLVMGetMDKindIDInContext(cg->ctx, "alias.scope", 11);
  s->k_noalias = LLVMGetMDKindIDInContext(cg->ctx, "noalias", 7);
  s->k_invariant = LLVMGetMDKindIDInContext(cg->ctx, "invariant.load", 14);
}

static void build_dispatch(Split *s) {
  Cg *cg = s->cg;
  unsigned n = LLVMCountParams(s->fn);
  LLVMPositionBuilderAtEnd(s->b, LLVMGetEntryBasicBlock(s->fn));
  LLVMValueRef sw = LLVMBuildSwitch(s->b, LLVMGetParam(s->fn, n - 1), s->start, (unsigned)s->k);
  for (int k = 1; k <= s->k; k++)
    LLVMAddCase(sw, cg_const_i32(cg, k), s->cont[k]);
}

/* The frame's parameters; with count/and/or barriers its first two slots:
 * each thread's predicate, and the block's {count, live} that the executor
 * writes between rounds (4 * ntpad bytes hold both). */
static void frame_setup(Split *s) {
  Cg *cg = s->cg;
  unsigned n = LLVMCountParams(s->fn);
  LLVMPositionBuilderAtEnd(s->b, LLVMGetEntryBasicBlock(s->fn));
  s->frame = LLVMGetParam(s->fn, n - NEXTRA);
  s->t64 = LLVMBuildZExt(s->b, LLVMGetParam(s->fn, n - NEXTRA + 1), cg->t_i64, "t");
  s->ntpad64 = LLVMBuildZExt(s->b, LLVMGetParam(s->fn, n - NEXTRA + 2), cg->t_i64, "ntpad");
  make_scopes(s);
  if (!s->reduces)
    return;
  s->pred = new_slot(s, 4, 4);
  LLVMPositionBuilderAtEnd(s->b, LLVMGetEntryBasicBlock(s->fn));
  LLVMValueRef off = LLVMBuildMul(s->b, cg_const_i64(cg, (int64_t)s->bytes), s->ntpad64, "");
  s->red = LLVMBuildGEP2(s->b, cg->t_i8, s->frame, &off, 1, "red");
  s->bytes += 4;
}

/* After a count/and/or barrier its result comes from the block's
 * {count, live}: count, count == live, count != 0. */
static void reduce_results(Split *s) {
  Cg *cg = s->cg;
  for (int k = 1; k <= s->k; k++) {
    if (s->kind[k] == SYNC_PLAIN)
      continue;
    LLVMValueRef call = LLVMGetPreviousInstruction(LLVMGetBasicBlockTerminator(s->head[k]));
    LLVMPositionBuilderBefore(s->b, LLVMGetFirstInstruction(s->cont[k]));
    LLVMValueRef one = cg_const_i64(cg, 1), live_at = LLVMBuildGEP2(s->b, cg->t_i32, s->red, &one, 1, "");
    LLVMValueRef count = LLVMBuildLoad2(s->b, cg->t_i32, s->red, "count");
    LLVMValueRef live = LLVMBuildLoad2(s->b, cg->t_i32, live_at, "live");
    tag(s, count);
    tag(s, live);
    LLVMValueRef r = s->kind[k] == SYNC_COUNT ? count
                     : s->kind[k] == SYNC_AND ? LLVMBuildICmp(s->b, LLVMIntEQ, count, live, "")
                                              : LLVMBuildICmp(s->b, LLVMIntNE, count, cg_const_i32(cg, 0), "");
    if (s->kind[k] != SYNC_COUNT)
      r = LLVMBuildZExt(s->b, r, cg->t_i32, "");
    LLVMReplaceAllUsesWith(call, r);
  }
}

static bool rewrite(Split *s) {
  for (int i = 0; i < s->ncross; i++)
    if (!LLVMIsAAllocaInst(s->cross[i]) && !demote(s, s->cross[i]))
      return false;
  place_allocas(s);
  rewrite_exits(s);
  tag_others(s);
  build_dispatch(s);
  return true;
}

static void split_free(Split *s) {
  free(s->bbs);
  free(s->keys);
  free(s->succ_at);
  free(s->succ);
  free(s->barrier_end);
  free(s->seen);
  free(s->queue);
  free(s->cross);
  if (s->b)
    LLVMDisposeBuilder(s->b);
}

bool cg_regions_split(Cg *cg, LLVMValueRef body, const char *name, CgRegions *out) {
  int nsync;
  if (!splittable(body, &nsync))
    return false;
  Split s = {.cg = cg, .start = LLVMGetEntryBasicBlock(body), .b = LLVMCreateBuilderInContext(cg->ctx)};
  s.fn = move_body(cg, body, name);
  split_all(&s);
  frame_setup(&s);
  reduce_results(&s); /* before the liveness walk: the results are defined after the barrier */
  /* past this point the body is gone: a failure is an internal error */
  if (!build_cfg(&s) || !find_crossing(&s) || !rewrite(&s))
    cg_fail(cg, NULL, "out of memory splitting %s at its barriers", name);
  else if (LLVMVerifyFunction(s.fn, LLVMReturnStatusAction))
    cg_fail(cg, NULL, "the barrier split of %s produced invalid IR", name);
  *out = (CgRegions){.fn = s.fn, .nbarriers = s.k, .slot_bytes = s.bytes, .reduces = s.reduces};
  split_free(&s);
  return !cg->failed;
}

/* ------------------------------------------------------------- prepare -- */

bool cg_regions_prepare(Cg *cg, LLVMValueRef *bodies, int n) {
  for (int i = 0; i < n; i++) /* always-inline deletes unused internal functions */
    LLVMSetLinkage(bodies[i], LLVMExternalLinkage);
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(cg->mod, "always-inline,function(sroa)", cg->tm, po);
  LLVMDisposePassBuilderOptions(po);
  for (int i = 0; i < n; i++)
    LLVMSetLinkage(bodies[i], LLVMInternalLinkage);
  if (e) {
    char *m = LLVMGetErrorMessage(e);
    cg_fail(cg, NULL, "LLVM passes failed: %s", m);
    LLVMDisposeErrorMessage(m);
    return false;
  }
  return true;
}
