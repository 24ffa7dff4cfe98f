/* cg_host.c - the host CPU target hooks: CUDA's execution model on the CPU
 * running the code (ABI: host/host_exec.h, argument struct: codegen.h).
 *
 * Every function takes (HostCtx *ctx, i32 tid.x, tid.y, tid.z, i32 ctaid.x,
 * ctaid.y, ctaid.z) as hidden leading parameters, so threadIdx and blockIdx
 * are SSA values and blockDim etc. are invariant loads from ctx.  The kernel itself becomes an internal,
 * always-inlined "thread body"; finish_module renames it <symbol>.thread and
 * builds the real entry <symbol>(ctx, args): for a kernel that never reaches
 * a barrier, a loop over a run of blocks (HOST_FN_BLOCK_RUN) around a loop
 * over z, y, x calling the body (HOST_FN_PER_BLOCK;
 * after inlining LLVM can vectorize the x loop and a `return` ends only one
 * thread); for one whose barriers cg_regions.c can split, rounds of such
 * loops between barriers (HOST_FN_REGIONS); otherwise a per-thread entry
 * reading ctx->tid that runs on a fiber and meets the others in
 * kjit_host_sync* (HOST_USES_BARRIERS).  The entry
 * records its flags and static shared size as string attributes
 * ("kjit-flags", "kjit-static-shared") for the JIT to report. */
#include "codegen/cg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/cg_regions_internal.h"
#include "common/host_abi.h"
#include "common/xalloc.h"

enum { NHIDDEN = 7, MAX_KERNELS = 256, MAX_VISIT = 512 };

#define SHARED_TOTAL "__kjit_static_shared" /* module-wide static shared bytes */

/* ------------------------------------------------------------ helpers --- */

static void add_attr(Cg *cg, LLVMValueRef fn, unsigned idx, const char *name, uint64_t v) {
  unsigned k = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(cg->ctx, k, v));
}

static void add_str_attr(Cg *cg, LLVMValueRef fn, const char *key, const char *val) {
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(cg->ctx, key, (unsigned)strlen(key), val,
                                                    (unsigned)strlen(val)));
}

/* A load that never changes during the launch (HostCtx fields, arguments):
 * !invariant.load lets LICM hoist it out of the thread loop. */
static LLVMValueRef load_invariant(Cg *cg, LLVMValueRef base, size_t offset, LLVMTypeRef ty,
                                   unsigned align) {
  LLVMValueRef off = cg_const_i64(cg, (int64_t)offset);
  LLVMValueRef p = offset ? LLVMBuildGEP2(cg->b, cg->t_i8, base, &off, 1, "") : base;
  LLVMValueRef v = LLVMBuildLoad2(cg->b, ty, p, "");
  LLVMSetAlignment(v, align);
  unsigned kind = LLVMGetMDKindIDInContext(cg->ctx, "invariant.load", 14);
  LLVMSetMetadata(v, kind, LLVMMetadataAsValue(cg->ctx, LLVMMDNodeInContext2(cg->ctx, NULL, 0)));
  return v;
}

static LLVMValueRef ctx_param(Cg *cg) { return LLVMGetParam(cg->fn, 0); }

/* The values a HostCtx field can hold (CUDA's limits, as the executor
 * enforces them): with !range, index arithmetic is known non-negative, so
 * Numba's negative-index wraparound folds away and accesses stay affine. */
static void range_of(size_t offset, uint64_t *lo, uint64_t *hi) {
  if (offset < offsetof(HostCtx, ntid) || (offset >= offsetof(HostCtx, ctaid) && offset < offsetof(HostCtx, nctaid)))
    *lo = 0, *hi = offset < offsetof(HostCtx, ntid) ? RT_HOST_MAX_THREADS : 0x7fffffffu;
  else if (offset < offsetof(HostCtx, ctaid))
    *lo = 1, *hi = RT_HOST_MAX_THREADS + 1;
  else
    *lo = 1, *hi = 0x80000000u;
}

static LLVMValueRef ctx_u32(Cg *cg, size_t offset) {
  LLVMValueRef v = load_invariant(cg, ctx_param(cg), offset, cg->t_i32, 4);
  uint64_t lo, hi;
  range_of(offset, &lo, &hi);
  LLVMMetadataRef r[2] = {LLVMValueAsMetadata(LLVMConstInt(cg->t_i32, lo, 0)),
                          LLVMValueAsMetadata(LLVMConstInt(cg->t_i32, hi, 0))};
  LLVMSetMetadata(v, LLVMGetMDKindIDInContext(cg->ctx, "range", 5),
                  LLVMMetadataAsValue(cg->ctx, LLVMMDNodeInContext2(cg->ctx, r, 2)));
  return v;
}

/* The module-wide static shared-memory total: a private constant whose
 * initializer grows as shared arrays are met (folded by the optimizer). */
static LLVMValueRef shared_total_global(Cg *cg) {
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, SHARED_TOTAL);
  if (!g) {
    g = LLVMAddGlobal(cg->mod, cg->t_i64, SHARED_TOTAL);
    LLVMSetInitializer(g, cg_const_i64(cg, 0));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
  }
  return g;
}

static uint64_t shared_total(Cg *cg) {
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, SHARED_TOTAL);
  return g ? LLVMConstIntGetZExtValue(LLVMGetInitializer(g)) : 0;
}

/* ------------------------------------------------------ hidden params --- */

/* (HostCtx *ctx, i32 tid.x, tid.y, tid.z, i32 ctaid.x, ctaid.y, ctaid.z):
 * thread and block indices are values, so a per-block entry can loop over
 * a run of blocks and threads and LLVM sees one loop nest. */
static int host_hidden_params(Cg *cg, LLVMTypeRef *types) {
  types[0] = cg->t_ptr;
  for (int i = 1; i < NHIDDEN; i++)
    types[i] = cg->t_i32;
  return NHIDDEN;
}

/* ---------------------------------------------------- special registers -- */

static LLVMValueRef linear_tid(Cg *cg) {
  LLVMValueRef tx = LLVMGetParam(cg->fn, 1), ty = LLVMGetParam(cg->fn, 2), tz = LLVMGetParam(cg->fn, 3);
  LLVMValueRef nx = ctx_u32(cg, offsetof(HostCtx, ntid)), ny = ctx_u32(cg, offsetof(HostCtx, ntid) + 4);
  LLVMValueRef yz = LLVMBuildAdd(cg->b, ty, LLVMBuildMul(cg->b, ny, tz, ""), "");
  return LLVMBuildAdd(cg->b, tx, LLVMBuildMul(cg->b, nx, yz, ""), "");
}

static LLVMValueRef host_special_reg(Cg *cg, IrOp op, int dim) {
  if (op == OP_WARPSIZE)
    return cg_const_i32(cg, 32);
  if (op == OP_LANEID || op == OP_LANEMASK_LT) {
    LLVMValueRef lane = LLVMBuildAnd(cg->b, linear_tid(cg), cg_const_i32(cg, 31), "");
    if (op == OP_LANEID)
      return lane;
    LLVMValueRef bit = LLVMBuildShl(cg->b, cg_const_i32(cg, 1), lane, "");
    return LLVMBuildSub(cg->b, bit, cg_const_i32(cg, 1), "");
  }
  if (op == OP_ACTIVEMASK) {
    LLVMValueRef c = ctx_param(cg);
    return cg_call_extern(cg, "kjit_host_warp_activemask", cg->t_i32, &c, 1);
  }
  if (dim < 0 || dim > 2) {
    cg_fail(cg, NULL, "special register %d.%d", (int)op, dim);
    return NULL;
  }
  switch (op) {
  case OP_THREAD_IDX: return LLVMGetParam(cg->fn, 1 + (unsigned)dim);
  case OP_BLOCK_DIM: return ctx_u32(cg, offsetof(HostCtx, ntid) + 4 * (size_t)dim);
  case OP_BLOCK_IDX: return LLVMGetParam(cg->fn, 4 + (unsigned)dim);
  case OP_GRID_DIM: return ctx_u32(cg, offsetof(HostCtx, nctaid) + 4 * (size_t)dim);
  default:
    cg_fail(cg, NULL, "special register %d", (int)op);
    return NULL;
  }
}

/* ------------------------------------------------- barriers and fences -- */

static LLVMValueRef host_barrier(Cg *cg, IrOp op, LLVMValueRef pred) {
  LLVMValueRef a[2] = {ctx_param(cg), pred};
  switch (op) {
  case OP_SYNCTHREADS_COUNT: return cg_call_extern(cg, "kjit_host_syncthreads_count", cg->t_i32, a, 2);
  case OP_SYNCTHREADS_AND: return cg_call_extern(cg, "kjit_host_syncthreads_and", cg->t_i32, a, 2);
  case OP_SYNCTHREADS_OR: return cg_call_extern(cg, "kjit_host_syncthreads_or", cg->t_i32, a, 2);
  default: return cg_call_extern(cg, "kjit_host_syncthreads", cg->t_void, a, 1);
  }
}

/* The CPU target has no workspace: the group is 0, and g.sync() is the
 * executor's grid barrier (HOST_GRID_SYNC, host_exec.h). */
static LLVMValueRef host_grid_group(Cg *cg) { return cg_const_i64(cg, 0); }

static void host_grid_sync(Cg *cg, LLVMValueRef group) {
  (void)group;
  LLVMValueRef a[1] = {ctx_param(cg)};
  cg_call_extern(cg, "kjit_host_sync_grid", cg->t_void, a, 1);
}

static void host_syncwarp(Cg *cg, LLVMValueRef mask) {
  LLVMValueRef a[2] = {ctx_param(cg), mask};
  cg_call_extern(cg, "kjit_host_syncwarp", cg->t_void, a, 2);
}

_Static_assert((int)SHFL_UP == HOST_SHFL_UP && (int)SHFL_BFLY == HOST_SHFL_BFLY &&
                   (int)VOTE_EQ == HOST_VOTE_EQ && (int)VOTE_BALLOT == HOST_VOTE_BALLOT,
               "warp op numbering is ABI");

/* Warp collectives are lane barriers of the executor carrying one operand
 * (host/host_exec.h); 64-bit shuffles arrive here as two i32 ones. */
static LLVMValueRef host_shfl(Cg *cg, int mode, LLVMValueRef mask, LLVMValueRef v, LLVMValueRef lane) {
  LLVMValueRef a[5] = {ctx_param(cg), mask, v, lane, cg_const_i32(cg, mode)};
  return cg_call_extern(cg, "kjit_host_warp_shfl", cg->t_i32, a, 5);
}

static LLVMValueRef host_vote(Cg *cg, int kind, LLVMValueRef mask, LLVMValueRef pred) {
  LLVMValueRef a[4] = {ctx_param(cg), mask, LLVMBuildZExt(cg->b, pred, cg->t_i32, ""), cg_const_i32(cg, kind)};
  LLVMValueRef r = cg_call_extern(cg, "kjit_host_warp_vote", cg->t_i32, a, 4);
  return kind == VOTE_BALLOT ? r : LLVMBuildICmp(cg->b, LLVMIntNE, r, cg_const_i32(cg, 0), "");
}

/* Equal i32 values are equal zero-extended, so one i64 entry serves both. */
static LLVMValueRef host_match(Cg *cg, bool all, LLVMValueRef mask, LLVMValueRef v, LLVMValueRef *pred) {
  LLVMValueRef a[4] = {ctx_param(cg), mask, LLVMBuildZExt(cg->b, v, cg->t_i64, ""), cg_const_i32(cg, all)};
  LLVMValueRef r = cg_call_extern(cg, "kjit_host_warp_match", cg->t_i32, a, 4);
  *pred = LLVMBuildICmp(cg->b, LLVMIntNE, r, cg_const_i32(cg, 0), "");
  return r;
}

/* A block's threads share one OS thread, so a block-scope fence only has to
 * stop the compiler; device and system scope order memory between cores. */
static void host_fence(Cg *cg, int scope) {
  LLVMBuildFence(cg->b, LLVMAtomicOrderingSequentiallyConsistent, scope == 0, "");
}

/* ------------------------------------------------------ shared memory --- */

/* Static shared arrays are slices of ctx->shared at offsets fixed here, one
 * per (function, id), 16-byte aligned; the offset lives in a private
 * constant so a shared.array in a loop keeps its memory. */
static LLVMValueRef host_shared_alloc(Cg *cg, LLVMTypeRef elem, int64_t n, int64_t id) {
  char name[256];
  const char *fsym = cg->f ? (cg->f->symbol ? cg->f->symbol : cg->f->name) : "kjit";
  snprintf(name, sizeof name, "__kjit_shoff_%s_%lld", fsym, (long long)id);
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
  if (!g) {
    LLVMValueRef total = shared_total_global(cg);
    uint64_t at = (LLVMConstIntGetZExtValue(LLVMGetInitializer(total)) + 15) & ~(uint64_t)15;
    uint64_t bytes = LLVMABISizeOfType(LLVMGetModuleDataLayout(cg->mod), elem) * (uint64_t)n;
    LLVMSetInitializer(total, cg_const_i64(cg, (int64_t)(at + bytes)));
    g = LLVMAddGlobal(cg->mod, cg->t_i64, name);
    LLVMSetInitializer(g, cg_const_i64(cg, (int64_t)at));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
  }
  LLVMValueRef base = load_invariant(cg, ctx_param(cg), offsetof(HostCtx, shared), cg->t_ptr, 8);
  LLVMValueRef off = LLVMGetInitializer(g);
  return LLVMBuildGEP2(cg->b, cg->t_i8, base, &off, 1, "");
}

/* Dynamic shared memory follows the static part at
 * RT_HOST_DYN_SHARED_OFFSET(static); the static total is only final once
 * every function is lowered, so it is loaded from its constant (folded). */
static LLVMValueRef host_dyn_shared(Cg *cg, LLVMValueRef *bytes) {
  LLVMValueRef base = load_invariant(cg, ctx_param(cg), offsetof(HostCtx, shared), cg->t_ptr, 8);
  LLVMValueRef st = LLVMBuildLoad2(cg->b, cg->t_i64, shared_total_global(cg), "");
  st = LLVMBuildAnd(cg->b, LLVMBuildAdd(cg->b, st, cg_const_i64(cg, 15), ""), cg_const_i64(cg, ~(int64_t)15), "");
  *bytes = load_invariant(cg, ctx_param(cg), offsetof(HostCtx, dyn_shared_bytes), cg->t_i64, 8);
  return LLVMBuildGEP2(cg->b, cg->t_i8, base, &st, 1, "");
}

/* ---------------------------------------------------------- printing ---- */

/* libc printf, variadic (the launcher flushes stdout after each launch). */
static void host_print(Cg *cg, LLVMValueRef fmt, LLVMValueRef *args, int nargs) {
  LLVMTypeRef fty = LLVMFunctionType(cg->t_i32, &cg->t_ptr, 1, 1);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, "printf");
  if (!fn)
    fn = LLVMAddFunction(cg->mod, "printf", fty);
  LLVMValueRef a[33];
  a[0] = fmt;
  for (int i = 0; i < nargs && i < 32; i++)
    a[i + 1] = args[i];
  LLVMBuildCall2(cg->b, fty, fn, a, (unsigned)(nargs < 32 ? nargs : 32) + 1, "");
}

/* --------------------------------------------------------- conversions -- */

/* Saturating float -> int with the values an H200 gives under Numba (x86's
 * cvttsd2si would give "integer indefinite" and LLVM's fptosi is poison out
 * of range): signed saturates with NaN -> INT_MIN; unsigned saturates with
 * NaN -> 2^(w-1); 8/16-bit results are the low bits of the 32-bit one
 * (uint8(300.7) == 44, uint8(-1.5) == 0, int32(1e10) == INT32_MAX). */
static LLVMValueRef host_float_to_int(Cg *cg, LLVMValueRef v, const Type *to) {
  int bits = cg_bits(to), w = bits < 32 ? 32 : bits;
  bool sg = cg_is_signed(to);
  LLVMTypeRef wt = LLVMIntTypeInContext(cg->ctx, (unsigned)w);
  LLVMTypeRef over[2] = {wt, LLVMTypeOf(v)};
  LLVMValueRef r = cg_intrinsic(cg, sg ? "llvm.fptosi.sat" : "llvm.fptoui.sat", over, 2, &v, 1);
  if (!r)
    return NULL;
  LLVMValueRef nan = LLVMBuildFCmp(cg->b, LLVMRealUNO, v, v, "");
  LLVMValueRef top = LLVMConstInt(wt, 1ull << (w - 1), 0);
  r = LLVMBuildSelect(cg->b, nan, top, r, "");
  return bits < w ? LLVMBuildTrunc(cg->b, r, cg_type(cg, to), "") : r;
}

/* ------------------------------------------------------------- entries -- */

static void host_mark_kernel(Cg *cg, LLVMValueRef fn, const IrFunc *f) {
  (void)f;
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  add_attr(cg, fn, LLVMAttributeFunctionIndex, "alwaysinline", 0);
  add_str_attr(cg, fn, "kjit-kernel", "1");
}

static LLVMValueRef host_param_pointer(Cg *cg, LLVMValueRef p) {
  (void)cg;
  return p;
}

static bool is_kernel_body(LLVMValueRef fn) {
  return LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "kjit-kernel", 11) != NULL;
}

/* Does fn, or anything it calls in this module, reach a kjit_host_sync* or
 * kjit_host_warp_* (barriers, and warp collectives, which are lane barriers)? */
static bool reaches_barrier(LLVMValueRef fn, const char *only, LLVMValueRef *seen, int *nseen) {
  for (int i = 0; i < *nseen; i++)
    if (seen[i] == fn)
      return false;
  if (*nseen >= MAX_VISIT)
    return true; /* too deep to tell: fibers are always correct */
  seen[(*nseen)++] = fn;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
      if (!callee || !LLVMIsAFunction(callee))
        continue;
      size_t n;
      const char *name = LLVMGetValueName2(callee, &n);
      if (only ? strcmp(name, only) == 0
               : n >= 14 && (strncmp(name, "kjit_host_sync", 14) == 0 || strncmp(name, "kjit_host_warp", 14) == 0))
        return true;
      if (!LLVMIsDeclaration(callee) && reaches_barrier(callee, only, seen, nseen))
        return true;
    }
  return false;
}

/* only: the one function to look for (NULL: any barrier). */
static bool reaches(LLVMValueRef body, const char *only) {
  LLVMValueRef *seen = malloc(sizeof *seen * MAX_VISIT);
  int n = 0;
  bool r = !seen || reaches_barrier(body, only, seen, &n);
  free(seen);
  return r;
}

bool cg_host_uses_barriers(LLVMValueRef body) { return reaches(body, NULL); }

/* The executor's flags for an entry whose thread body is `body`: a grid
 * barrier (g.sync()) needs every block resident (HOST_GRID_SYNC). */
static int entry_flags(LLVMValueRef body) {
  if (!cg_host_uses_barriers(body))
    return HOST_FN_PER_BLOCK | HOST_FN_BLOCK_RUN;
  return HOST_USES_BARRIERS | (reaches(body, "kjit_host_sync_grid") ? HOST_GRID_SYNC : 0);
}

/* Loads every parameter from the argument struct (natural layout, so the
 * LLVM struct of the parameter types is the C struct of codegen.h). */
static int load_args(Cg *cg, LLVMValueRef body, LLVMValueRef argp, LLVMValueRef *out, int nextra) {
  LLVMTypeRef fty = LLVMGlobalGetValueType(body);
  int n = (int)LLVMCountParamTypes(fty) - NHIDDEN - nextra;
  LLVMTypeRef all[CG_MAX_ARGS];
  LLVMGetParamTypes(fty, all);
  LLVMTypeRef st = LLVMStructTypeInContext(cg->ctx, all + NHIDDEN, (unsigned)n, 0);
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(cg->mod);
  for (int i = 0; i < n; i++) {
    LLVMTypeRef t = all[NHIDDEN + i];
    out[i] = load_invariant(cg, argp, LLVMOffsetOfElement(td, st, (unsigned)i), t, LLVMABIAlignmentOfType(td, t));
  }
  return n;
}

static void call_body(Cg *cg, LLVMValueRef body, LLVMValueRef ctx, LLVMValueRef tid[3],
                      LLVMValueRef ctaid[3], LLVMValueRef *params, int n) {
  LLVMValueRef a[CG_MAX_ARGS] = {ctx, tid[0], tid[1], tid[2], ctaid[0], ctaid[1], ctaid[2]};
  memcpy(a + NHIDDEN, params, sizeof *params * (size_t)n);
  LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(body), body, a, (unsigned)(NHIDDEN + n), "");
}

/* One do-while loop level: returns the induction variable's phi; *latch
 * receives the block the caller closes with close_loop. */
static LLVMValueRef open_loop(Cg *cg, const char *name, LLVMBasicBlockRef *head) {
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b);
  *head = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, name);
  LLVMBuildBr(cg->b, *head);
  LLVMPositionBuilderAtEnd(cg->b, *head);
  LLVMValueRef iv = LLVMBuildPhi(cg->b, cg->t_i32, name);
  LLVMValueRef zero = cg_const_i32(cg, 0);
  LLVMAddIncoming(iv, &zero, &pre, 1);
  return iv;
}

static void close_loop(Cg *cg, LLVMValueRef iv, LLVMBasicBlockRef head, LLVMValueRef limit) {
  LLVMValueRef next = LLVMBuildNUWAdd(cg->b, iv, cg_const_i32(cg, 1), "");
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(cg->b);
  LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "");
  LLVMValueRef br = LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntULT, next, limit, ""), head, exit);
  /* blocks run many threads: tells IRCE and the vectorizer the loop is hot */
  LLVMMetadataRef w[3] = {LLVMMDStringInContext2(cg->ctx, "branch_weights", 14),
                          LLVMValueAsMetadata(cg_const_i32(cg, 255)), LLVMValueAsMetadata(cg_const_i32(cg, 1))};
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(cg->ctx, "prof", 4),
                  LLVMMetadataAsValue(cg->ctx, LLVMMDNodeInContext2(cg->ctx, w, 3)));
  LLVMAddIncoming(iv, &next, &latch, 1);
  LLVMPositionBuilderAtEnd(cg->b, exit);
}

/* for z, y, x over ctx->ntid: body(ctx, x, y, z, ctaid, params) (blocks
 * have at least one thread in each dimension, so do-while loops suffice). */
static void emit_block_loop(Cg *cg, LLVMValueRef body, LLVMValueRef ctx, LLVMValueRef ctaid[3],
                            LLVMValueRef *params, int n) {
  LLVMValueRef lim[3];
  for (int d = 0; d < 3; d++)
    lim[d] = ctx_u32(cg, offsetof(HostCtx, ntid) + 4 * (size_t)d);
  LLVMBasicBlockRef hz, hy, hx;
  LLVMValueRef tid[3];
  tid[2] = open_loop(cg, "tid.z", &hz);
  tid[1] = open_loop(cg, "tid.y", &hy);
  tid[0] = open_loop(cg, "tid.x", &hx);
  call_body(cg, body, ctx, tid, ctaid, params, n);
  close_loop(cg, tid[0], hx, lim[0]);
  close_loop(cg, tid[1], hy, lim[1]);
  close_loop(cg, tid[2], hz, lim[2]);
}

/* for each of ctx->block_run blocks (at least one) in linear order from
 * ctx->ctaid: the block loop with that block's indices (HOST_FN_BLOCK_RUN:
 * a worker's whole run of blocks is one call and one loop nest). */
static void emit_block_run(Cg *cg, LLVMValueRef body, LLVMValueRef ctx, LLVMValueRef *params, int n) {
  LLVMValueRef g[3], c[3];
  for (int d = 0; d < 3; d++) {
    g[d] = LLVMBuildZExt(cg->b, ctx_u32(cg, offsetof(HostCtx, nctaid) + 4 * (size_t)d), cg->t_i64, "");
    c[d] = LLVMBuildZExt(cg->b, ctx_u32(cg, offsetof(HostCtx, ctaid) + 4 * (size_t)d), cg->t_i64, "");
  }
  LLVMValueRef run = load_invariant(cg, ctx, offsetof(HostCtx, block_run), cg->t_i32, 4);
  LLVMValueRef first = LLVMBuildNUWAdd(cg->b, c[0], LLVMBuildNUWMul(cg->b, g[0],
      LLVMBuildNUWAdd(cg->b, c[1], LLVMBuildNUWMul(cg->b, g[1], c[2], ""), ""), ""), "");
  LLVMBasicBlockRef head;
  LLVMValueRef k = open_loop(cg, "block", &head);
  LLVMValueRef lin = LLVMBuildNUWAdd(cg->b, first, LLVMBuildZExt(cg->b, k, cg->t_i64, ""), "");
  LLVMValueRef rest = LLVMBuildUDiv(cg->b, lin, g[0], "");
  LLVMValueRef ctaid[3] = {LLVMBuildURem(cg->b, lin, g[0], ""), LLVMBuildURem(cg->b, rest, g[1], ""),
                           LLVMBuildUDiv(cg->b, rest, g[1], "")};
  for (int d = 0; d < 3; d++)
    ctaid[d] = LLVMBuildTrunc(cg->b, ctaid[d], cg->t_i32, "");
  emit_block_loop(cg, body, ctx, ctaid, params, n);
  close_loop(cg, k, head, run);
}

static void emit_thread_call(Cg *cg, LLVMValueRef body, LLVMValueRef ctx, LLVMValueRef *params, int n) {
  LLVMValueRef tid[3], ctaid[3];
  for (int d = 0; d < 3; d++) {
    tid[d] = ctx_u32(cg, offsetof(HostCtx, tid) + 4 * (size_t)d);
    ctaid[d] = ctx_u32(cg, offsetof(HostCtx, ctaid) + 4 * (size_t)d);
  }
  call_body(cg, body, ctx, tid, ctaid, params, n);
}

static void set_entry_attrs(Cg *cg, LLVMValueRef fn, int flags) {
  char buf[32];
  add_attr(cg, fn, LLVMAttributeFunctionIndex, "nounwind", 0);
  add_attr(cg, fn, 1, "nonnull", 0);
  add_attr(cg, fn, 1, "dereferenceable", sizeof(HostCtx));
  add_attr(cg, fn, 1, "align", 8);
  if (flags & HOST_FN_PER_BLOCK) /* nothing else touches ctx while it runs */
    add_attr(cg, fn, 1, "noalias", 0);
  add_attr(cg, fn, 2, "noalias", 0);
  add_attr(cg, fn, 2, "readonly", 0);
  snprintf(buf, sizeof buf, "%d", flags);
  add_str_attr(cg, fn, "kjit-flags", buf);
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)shared_total(cg));
  add_str_attr(cg, fn, "kjit-static-shared", buf);
}

/* Renames the thread body <sym>.thread and defines <sym>(ctx, args). */
static void build_entry(Cg *cg, LLVMValueRef body) {
  size_t len;
  const char *name = LLVMGetValueName2(body, &len);
  char *sym = xmalloc(len + 1), *tname = xmalloc(len + 8);
  memcpy(sym, name, len);
  sym[len] = '\0';
  snprintf(tname, len + 8, "%s.thread", sym);
  LLVMSetValueName2(body, tname, strlen(tname));
  int flags = entry_flags(body);
  LLVMTypeRef pt[2] = {cg->t_ptr, cg->t_ptr};
  cg->fn = LLVMAddFunction(cg->mod, sym, LLVMFunctionType(cg->t_void, pt, 2, 0));
  set_entry_attrs(cg, cg->fn, flags);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "entry"));
  LLVMValueRef params[CG_MAX_PARAMS];
  int n = load_args(cg, body, LLVMGetParam(cg->fn, 1), params, 0);
  if (flags & HOST_FN_PER_BLOCK)
    emit_block_run(cg, body, LLVMGetParam(cg->fn, 0), params, n);
  else
    emit_thread_call(cg, body, LLVMGetParam(cg->fn, 0), params, n);
  LLVMBuildRetVoid(cg->b);
  cg->fn = NULL;
  free(sym);
  free(tname);
}

/* ---------------------------------------------- split kernels' entry -- */

typedef struct RegionCall {   /* what every call of a split kernel passes */
  const CgRegions *r;
  LLVMValueRef ctx, ctaid[3], lim[3], *params, frame, ntpad, resume;
  int n;
} RegionCall;

/* Marks the loop closed by `br` (its latch branch) "llvm.loop.unroll.disable":
 * a region loop's scalar remainder is short (the vectorized loop does the
 * work), and unrolling every region's remainder dominated the compile of
 * kernels with many barriers. */
static void no_unroll(Cg *cg, LLVMBasicBlockRef latch) {
  LLVMValueRef br = LLVMGetBasicBlockTerminator(latch);
  LLVMMetadataRef tmp = LLVMTemporaryMDNode(cg->ctx, NULL, 0);
  LLVMMetadataRef dis = LLVMMDStringInContext2(cg->ctx, "llvm.loop.unroll.disable", 24);
  LLVMMetadataRef ops[2] = {tmp, LLVMMDNodeInContext2(cg->ctx, &dis, 1)};
  LLVMMetadataRef loop = LLVMMDNodeInContext2(cg->ctx, ops, 2);
  LLVMMetadataReplaceAllUsesWith(tmp, loop); /* the loop ID refers to itself */
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(cg->ctx, "llvm.loop", 9), LLVMMetadataAsValue(cg->ctx, loop));
}

/* One loop nest over the block's threads calling the split kernel from
 * resume point k (k < 0: each thread from its own, skipping returned ones)
 * and storing where each thread stopped in resume[t]. */
static void emit_round(Cg *cg, const RegionCall *rc, int k) {
  LLVMBasicBlockRef hz, hy, hx;
  LLVMValueRef tid[3];
  tid[2] = open_loop(cg, "tid.z", &hz);
  tid[1] = open_loop(cg, "tid.y", &hy);
  tid[0] = open_loop(cg, "tid.x", &hx);
  LLVMValueRef yz = LLVMBuildNUWAdd(cg->b, tid[1], LLVMBuildNUWMul(cg->b, rc->lim[1], tid[2], ""), "");
  LLVMValueRef t = LLVMBuildNUWAdd(cg->b, tid[0], LLVMBuildNUWMul(cg->b, rc->lim[0], yz, ""), "t");
  LLVMValueRef slot = LLVMBuildGEP2(cg->b, cg->t_i32, rc->resume, &t, 1, "");
  LLVMValueRef from = cg_const_i32(cg, k);
  LLVMBasicBlockRef skip = NULL;
  if (k < 0) {
    from = LLVMBuildLoad2(cg->b, cg->t_i32, slot, "");
    LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "run");
    skip = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "next");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGE, from, cg_const_i32(cg, 0), ""), run, skip);
    LLVMPositionBuilderAtEnd(cg->b, run);
  }
  LLVMValueRef a[CG_MAX_ARGS + 4] = {rc->ctx, tid[0], tid[1], tid[2], rc->ctaid[0], rc->ctaid[1], rc->ctaid[2]};
  memcpy(a + NHIDDEN, rc->params, sizeof *a * (size_t)rc->n);
  LLVMValueRef extra[4] = {rc->frame, t, rc->ntpad, from};
  memcpy(a + NHIDDEN + rc->n, extra, sizeof extra);
  LLVMValueRef call = LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(rc->r->fn), rc->r->fn, a,
                                     (unsigned)(NHIDDEN + rc->n + 4), "");
  /* a known resume point inlines to that region alone, so the x loop can
   * vectorize; the per-thread dispatch stays one out-of-line copy */
  const char *inl = k < 0 ? "noinline" : "alwaysinline";
  unsigned kind = LLVMGetEnumAttributeKindForName(inl, strlen(inl));
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, kind, 0));
  LLVMBuildStore(cg->b, call, slot);
  if (skip) {
    LLVMBuildBr(cg->b, skip);
    LLVMPositionBuilderAtEnd(cg->b, skip);
  }
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(cg->b);
  close_loop(cg, tid[0], hx, rc->lim[0]);
  no_unroll(cg, latch);
  close_loop(cg, tid[1], hy, rc->lim[1]);
  close_loop(cg, tid[2], hz, rc->lim[2]);
}

/* The frame: r->slot_bytes per thread for ntpad threads, then resume[nt]. */
static LLVMValueRef frame_bytes(Cg *cg, const CgRegions *r, LLVMValueRef nt, LLVMValueRef ntpad,
                                LLVMValueRef *resume_off) {
  LLVMValueRef slots = LLVMBuildMul(cg->b, cg_const_i64(cg, (int64_t)r->slot_bytes),
                                    LLVMBuildZExt(cg->b, ntpad, cg->t_i64, ""), "");
  *resume_off = LLVMBuildAnd(cg->b, LLVMBuildAdd(cg->b, slots, cg_const_i64(cg, 63), ""), cg_const_i64(cg, ~63ll), "");
  LLVMValueRef four = cg_const_i64(cg, 4);
  return LLVMBuildAdd(cg->b, *resume_off, LLVMBuildMul(cg->b, LLVMBuildZExt(cg->b, nt, cg->t_i64, ""), four, ""), "");
}

/* Sets up the block's frame; returns false-branching to `done` when the
 * executor has none to give. */
static void region_setup(Cg *cg, RegionCall *rc, LLVMValueRef nt, LLVMBasicBlockRef done) {
  LLVMValueRef ntpad = LLVMBuildAnd(cg->b, LLVMBuildAdd(cg->b, nt, cg_const_i32(cg, 15), ""), cg_const_i32(cg, ~15), "");
  LLVMValueRef roff, a[2] = {rc->ctx, frame_bytes(cg, rc->r, nt, ntpad, &roff)};
  rc->frame = cg_call_extern(cg, "kjit_host_region_frame", cg->t_ptr, a, 2);
  rc->ntpad = ntpad;
  rc->resume = LLVMBuildGEP2(cg->b, cg->t_i8, rc->frame, &roff, 1, "resume");
  LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "go");
  LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, rc->frame, ""), done, go);
  LLVMPositionBuilderAtEnd(cg->b, go);
}

/* Rounds until every thread returned: a round with one resume point shared
 * by all threads runs that region's loop, else the per-thread one. */
static void emit_rounds(Cg *cg, RegionCall *rc, LLVMValueRef nt, LLVMBasicBlockRef done) {
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b);
  LLVMBasicBlockRef round = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "round");
  LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "again");
  LLVMBasicBlockRef each = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "each");
  LLVMBuildBr(cg->b, round);
  LLVMPositionBuilderAtEnd(cg->b, round);
  LLVMValueRef pt = LLVMBuildPhi(cg->b, cg->t_i32, "pt"), zero = cg_const_i32(cg, 0);
  LLVMAddIncoming(pt, &zero, &pre, 1);
  LLVMValueRef sw = LLVMBuildSwitch(cg->b, pt, each, (unsigned)rc->r->nbarriers + 1);
  for (int k = 0; k <= rc->r->nbarriers; k++) {
    LLVMBasicBlockRef bk = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "region");
    LLVMAddCase(sw, cg_const_i32(cg, k), bk);
    LLVMPositionBuilderAtEnd(cg->b, bk);
    emit_round(cg, rc, k);
    LLVMBuildBr(cg->b, again);
  }
  LLVMPositionBuilderAtEnd(cg->b, each);
  emit_round(cg, rc, -1);
  LLVMBuildBr(cg->b, again);
  LLVMPositionBuilderAtEnd(cg->b, again);
  /* count/and/or barriers: predicates at the frame's start, then {count, live} */
  LLVMValueRef red_off = LLVMBuildMul(cg->b, cg_const_i64(cg, 4), LLVMBuildZExt(cg->b, rc->ntpad, cg->t_i64, ""), "");
  LLVMValueRef pred = rc->r->reduces ? rc->frame : LLVMConstNull(cg->t_ptr);
  LLVMValueRef red = rc->r->reduces ? LLVMBuildGEP2(cg->b, cg->t_i8, rc->frame, &red_off, 1, "red") : pred;
  LLVMValueRef a[5] = {rc->ctx, rc->resume, pred, red, nt};
  LLVMValueRef next = cg_call_extern(cg, "kjit_host_region_next", cg->t_i32, a, 5);
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(cg->b);
  LLVMAddIncoming(pt, &next, &latch, 1);
  LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, next, cg_const_i32(cg, CG_REGION_EXIT), ""), done, round);
}

/* <sym>(ctx, args) of a kernel split at its barriers (HOST_FN_REGIONS). */
static void build_region_entry(Cg *cg, const char *sym, const CgRegions *r) {
  LLVMTypeRef pt[2] = {cg->t_ptr, cg->t_ptr};
  cg->fn = LLVMAddFunction(cg->mod, sym, LLVMFunctionType(cg->t_void, pt, 2, 0));
  set_entry_attrs(cg, cg->fn, HOST_FN_PER_BLOCK | HOST_FN_REGIONS);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "entry"));
  LLVMValueRef params[CG_MAX_PARAMS];
  RegionCall rc = {.r = r, .ctx = LLVMGetParam(cg->fn, 0), .params = params};
  rc.n = load_args(cg, r->fn, LLVMGetParam(cg->fn, 1), params, 4);
  for (int d = 0; d < 3; d++) {
    rc.lim[d] = ctx_u32(cg, offsetof(HostCtx, ntid) + 4 * (size_t)d);
    rc.ctaid[d] = ctx_u32(cg, offsetof(HostCtx, ctaid) + 4 * (size_t)d);
  }
  LLVMValueRef nt = LLVMBuildNUWMul(cg->b, LLVMBuildNUWMul(cg->b, rc.lim[0], rc.lim[1], ""), rc.lim[2], "nt");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "done");
  region_setup(cg, &rc, nt, done);
  emit_rounds(cg, &rc, nt, done);
  LLVMPositionBuilderAtEnd(cg->b, done);
  LLVMBuildRetVoid(cg->b);
  cg->fn = NULL;
}

/* ------------------------------------------------ C-ABI wrapper (call) -- */

/* The wrapper's type for parameter i of f: arrays by pointer, bool as i8. */
static LLVMTypeRef cabi_param(Cg *cg, const IrFunc *f, LLVMTypeRef native, int i) {
  const Type *t = f->locals.data[i].type;
  return t->kind == TY_ARRAY ? cg->t_ptr : t->kind == TY_BOOL ? cg->t_i8 : native;
}

/* A zeroed HostCtx on the stack for thread (0,0,0) of a 1x1x1 launch (the
 * block and grid sizes are 1: the !range of those loads excludes 0). */
static LLVMValueRef cabi_ctx(Cg *cg) {
  LLVMValueRef ctx = LLVMBuildAlloca(cg->b, LLVMArrayType2(cg->t_i8, sizeof(HostCtx)), "ctx");
  LLVMSetAlignment(ctx, 8);
  LLVMBuildMemSet(cg->b, ctx, LLVMConstInt(cg->t_i8, 0, 0), cg_const_i64(cg, sizeof(HostCtx)), 8);
  for (int d = 0; d < 3; d++) {
    size_t offs[2] = {offsetof(HostCtx, ntid) + 4 * (size_t)d, offsetof(HostCtx, nctaid) + 4 * (size_t)d};
    for (int k = 0; k < 2; k++) {
      LLVMValueRef off = cg_const_i64(cg, (int64_t)offs[k]);
      LLVMBuildStore(cg->b, cg_const_i32(cg, 1), LLVMBuildGEP2(cg->b, cg->t_i8, ctx, &off, 1, ""));
    }
  }
  return ctx;
}

/* Converts the wrapper's parameter p to what the device function takes. */
static LLVMValueRef cabi_arg(Cg *cg, const Type *t, LLVMTypeRef native, LLVMValueRef p) {
  if (t->kind == TY_ARRAY) {
    LLVMValueRef v = LLVMBuildLoad2(cg->b, native, p, "");
    LLVMSetAlignment(v, 8);
    return v;
  }
  return t->kind == TY_BOOL ? LLVMBuildICmp(cg->b, LLVMIntNE, p, LLVMConstInt(cg->t_i8, 0, 0), "") : p;
}

/* A function run through kjit_call has no block: no barriers, no shared memory. */
static bool cabi_check(Cg *cg, const IrFunc *f, LLVMValueRef dev) {
  const char *why = cg_host_uses_barriers(dev)                         ? "synchronizes threads (syncthreads, warp operations)"
                    : LLVMGetNamedGlobal(cg->mod, SHARED_TOTAL) ? "uses shared memory"
                                                                : NULL;
  if (!why)
    return true;
  diag_error(cg->diags, E_CG_UNSUPPORTED, f->ast ? f->ast->loc : (SrcLoc){0},
             "only kernels launched with kjit_launch have a block", "device function '%s' %s; kjit_call cannot run it",
             f->name, why);
  cg->failed = true;
  return false;
}

/* Defines <symbol>__cabi for kjit_call (codegen.h: cg_jit_add_cabi). */
static void build_cabi(Cg *cg, const IrFunc *f) {
  LLVMValueRef dev = f->symbol ? LLVMGetNamedFunction(cg->mod, f->symbol) : NULL;
  if (!dev || LLVMIsDeclaration(dev) || f->nparams > CG_MAX_PARAMS) {
    cg_fail(cg, NULL, "no host function for %s", f->name);
    return;
  }
  if (!cabi_check(cg, f, dev))
    return;
  LLVMTypeRef dty = LLVMGlobalGetValueType(dev), all[CG_MAX_ARGS], pt[CG_MAX_PARAMS];
  LLVMGetParamTypes(dty, all);
  for (int i = 0; i < f->nparams; i++)
    pt[i] = cabi_param(cg, f, all[NHIDDEN + i], i);
  LLVMTypeRef rt = LLVMGetReturnType(dty);
  bool rbool = rt == cg->t_i1;
  char name[256];
  snprintf(name, sizeof name, "%.200s__cabi", f->symbol);
  cg->fn = LLVMAddFunction(cg->mod, name, LLVMFunctionType(rbool ? cg->t_i8 : rt, pt, (unsigned)f->nparams, 0));
  add_attr(cg, cg->fn, LLVMAttributeFunctionIndex, "nounwind", 0);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "entry"));
  LLVMValueRef zero = cg_const_i32(cg, 0);
  LLVMValueRef a[CG_MAX_ARGS] = {cabi_ctx(cg), zero, zero, zero, zero, zero, zero};
  for (int i = 0; i < f->nparams; i++)
    a[NHIDDEN + i] = cabi_arg(cg, f->locals.data[i].type, all[NHIDDEN + i], LLVMGetParam(cg->fn, (unsigned)i));
  LLVMValueRef r = LLVMBuildCall2(cg->b, dty, dev, a, (unsigned)(NHIDDEN + f->nparams), "");
  if (rt == cg->t_void)
    LLVMBuildRetVoid(cg->b);
  else
    LLVMBuildRet(cg->b, rbool ? LLVMBuildZExt(cg->b, r, cg->t_i8, "") : r);
  cg->fn = NULL;
}

/* powi/powif (float ** int) have no libm function: defined here as Numba's
 * int_power computes it (numba/cpython/numbers.py), so the CPU target rounds
 * as the GPU (libdevice's powi) and Numba do: square-and-multiply
 *   r = 1; e = |n|; while e: { if e & 1: r *= x; e >>= 1; x *= x }
 * then 1.0 / r (in float64) for n < 0; |n| > 0x10000 falls back to
 * pow(x, n) in float64, as Numba's cutoff does. */
static void define_powi(Cg *cg, const char *name, LLVMTypeRef ft) {
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, name);
  if (!fn || !LLVMIsDeclaration(fn))
    return;
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMValueRef saved = cg->fn;
  cg->fn = fn;
  LLVMBuilderRef B = cg->b;
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry");
  LLVMBasicBlockRef big = LLVMAppendBasicBlockInContext(cg->ctx, fn, "big");
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(cg->ctx, fn, "loop");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(cg->ctx, fn, "body");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, fn, "done");
  LLVMPositionBuilderAtEnd(B, entry);
  LLVMValueRef x = LLVMGetParam(fn, 0), n = LLVMBuildSExt(B, LLVMGetParam(fn, 1), cg->t_i64, "");
  LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, n, LLVMConstInt(cg->t_i64, 0, 0), "");
  LLVMValueRef e0 = LLVMBuildSelect(B, neg, LLVMBuildNeg(B, n, ""), n, "");
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntUGT, e0, LLVMConstInt(cg->t_i64, 0x10000, 0), ""),
                  big, loop);
  LLVMPositionBuilderAtEnd(B, big); /* math.pow(x, float(n)) in float64 */
  LLVMTypeRef over[1] = {cg->t_f64};
  LLVMValueRef pa[2] = {ft == cg->t_f64 ? x : LLVMBuildFPExt(B, x, cg->t_f64, ""),
                        LLVMBuildSIToFP(B, n, cg->t_f64, "")};
  LLVMValueRef p = cg_intrinsic(cg, "llvm.pow", over, 1, pa, 2);
  LLVMBuildRet(B, ft == cg->t_f64 ? p : LLVMBuildFPTrunc(B, p, ft, ""));
  LLVMPositionBuilderAtEnd(B, loop);
  LLVMValueRef r = LLVMBuildPhi(B, ft, "r"), a = LLVMBuildPhi(B, ft, "a");
  LLVMValueRef e = LLVMBuildPhi(B, cg->t_i64, "e");
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, e, LLVMConstInt(cg->t_i64, 0, 0), ""), done, body);
  LLVMPositionBuilderAtEnd(B, body);
  LLVMValueRef odd = LLVMBuildTrunc(B, e, LLVMInt1TypeInContext(cg->ctx), "");
  LLVMValueRef r2 = LLVMBuildSelect(B, odd, LLVMBuildFMul(B, r, a, ""), r, "");
  LLVMValueRef e2 = LLVMBuildLShr(B, e, LLVMConstInt(cg->t_i64, 1, 0), "");
  LLVMValueRef a2 = LLVMBuildFMul(B, a, a, "");
  LLVMBuildBr(B, loop);
  LLVMValueRef rin[2] = {LLVMConstReal(ft, 1.0), r2}, ain[2] = {x, a2}, ein[2] = {e0, e2};
  LLVMBasicBlockRef from[2] = {entry, body};
  LLVMAddIncoming(r, rin, from, 2);
  LLVMAddIncoming(a, ain, from, 2);
  LLVMAddIncoming(e, ein, from, 2);
  LLVMPositionBuilderAtEnd(B, done); /* n < 0: 1.0 / r, a float64 division (Numba's) */
  LLVMValueRef rd = ft == cg->t_f64 ? r : LLVMBuildFPExt(B, r, cg->t_f64, "");
  LLVMValueRef inv = LLVMBuildFDiv(B, LLVMConstReal(cg->t_f64, 1.0), rd, "");
  inv = ft == cg->t_f64 ? inv : LLVMBuildFPTrunc(B, inv, ft, "");
  LLVMBuildRet(B, LLVMBuildSelect(B, neg, inv, r, ""));
  cg->fn = saved;
}

/* Split kernels at their barriers unless fibers are asked for (opt 0
 * keeps them too: the split relies on SSA form). */
static bool want_regions(Cg *cg, LLVMValueRef *bodies, int n) {
  if (cg->opts->cpu_fibers || cg->opts->opt_level <= 0 || cg->cabi)
    return false;
  for (int i = 0; i < n; i++)
    if (cg_host_uses_barriers(bodies[i]))
      return true;
  return false;
}

/* A kernel with barriers runs as regions where cg_regions_split can split
 * it, else on fibers (build_entry). */
static void build_kernel(Cg *cg, LLVMValueRef body, bool regions) {
  size_t len;
  const char *name = LLVMGetValueName2(body, &len);
  char sym[256];
  snprintf(sym, sizeof sym, "%.*s", (int)(len < 255 ? len : 255), name);
  CgRegions r;
  if (regions && cg_host_uses_barriers(body) && cg_regions_split(cg, body, sym, &r))
    build_region_entry(cg, sym, &r);
  else if (!cg->failed)
    build_entry(cg, body);
}

static bool host_finish_module(Cg *cg) {
  LLVMSetCurrentDebugLocation2(cg->b, NULL);
  define_powi(cg, "powi", cg->t_f64);
  define_powi(cg, "powif", cg->t_f32);
  LLVMValueRef bodies[MAX_KERNELS];
  int n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f))
    if (is_kernel_body(f) && !LLVMIsDeclaration(f) && n < MAX_KERNELS)
      bodies[n++] = f;
  bool regions = want_regions(cg, bodies, n);
  if (regions && !cg_regions_prepare(cg, bodies, n))
    return false;
  for (int i = 0; i < n && !cg->failed; i++)
    build_kernel(cg, bodies[i], regions);
  if (cg->cabi && !cg->failed)
    build_cabi(cg, cg->cabi);
  return !cg->failed;
}

/* ------------------------------------------------------ bounds checks -- */

/* kjit_host_index_error (host_exec.h) records the launch's error; the
 * thread goes on and its access is skipped. */
static bool host_index_error(Cg *cg, const Inst *in, const char *array, LLVMValueRef index, int axis,
                             LLVMValueRef extent) {
  const char *file = in->loc.src ? in->loc.src->path : "<kernel>";
  LLVMValueRef a[14] = {ctx_param(cg), cg_cstring(cg, array, ".array"), index, cg_const_i32(cg, axis),
                        extent, cg_cstring(cg, file, ".file"), cg_const_i32(cg, in->loc.line),
                        cg_const_i32(cg, in->loc.col)};
  for (int i = 0; i < 6; i++) /* tid.xyz, ctaid.xyz: the hidden parameters */
    a[8 + i] = LLVMGetParam(cg->fn, 1 + (unsigned)i);
  cg_call_extern(cg, "kjit_host_index_error", cg->t_void, a, 14);
  return true;
}

/* kjit_host_assert_fail records the launch's error; the thread goes on
 * past the assert. */
static void host_assert_fail(Cg *cg, const Inst *in) {
  const char *file = in->loc.src ? in->loc.src->path : "<kernel>";
  LLVMValueRef a[11] = {ctx_param(cg), cg_cstring(cg, in->str ? in->str : "", ".amsg"),
                        cg_cstring(cg, file, ".file"), cg_const_i32(cg, in->loc.line),
                        cg_const_i32(cg, in->loc.col)};
  for (int i = 0; i < 6; i++) /* tid.xyz, ctaid.xyz: the hidden parameters */
    a[5 + i] = LLVMGetParam(cg->fn, 1 + (unsigned)i);
  cg_call_extern(cg, "kjit_host_assert_fail", cg->t_void, a, 11);
}

/* The thread ends: the kernel returns; a device function sets
 * HostCtx.raised and returns, and each caller returns in turn
 * (host_after_end_call) up to the kernel, which clears the flag. */
#define RAISED_OFFSET 76 /* HostCtx.raised (common/host_abi.h) */

static LLVMValueRef raised_ptr(Cg *cg) {
  LLVMValueRef off = cg_const_i64(cg, RAISED_OFFSET);
  return LLVMBuildGEP2(cg->b, cg->t_i8, ctx_param(cg), &off, 1, "raised");
}

static void return_now(Cg *cg) {
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(cg->fn));
  LLVMBuildStore(cg->b, cg_const_i32(cg, cg->f->is_kernel ? 0 : 1), raised_ptr(cg));
  if (rt == cg->t_void)
    LLVMBuildRetVoid(cg->b);
  else
    LLVMBuildRet(cg->b, LLVMGetUndef(rt));
}

static void host_end_thread(Cg *cg) {
  return_now(cg);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "after.raise"));
}

static void host_after_end_call(Cg *cg) {
  LLVMValueRef r = LLVMBuildLoad2(cg->b, cg->t_i32, raised_ptr(cg), "");
  LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "raised");
  LLVMBasicBlockRef on = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "not.raised");
  LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, r, cg_const_i32(cg, 0), ""), end, on);
  LLVMPositionBuilderAtEnd(cg->b, end);
  return_now(cg);
  LLVMPositionBuilderAtEnd(cg->b, on);
}

const CgTargetHooks cg_host_hooks = {
    .name = "CPU",
    .math_prefix = "",
    .special_reg = host_special_reg,
    .barrier = host_barrier,
    .syncwarp = host_syncwarp,
    .shfl = host_shfl,
    .vote = host_vote,
    .match = host_match,
    .fence = host_fence,
    .grid_group = host_grid_group,
    .grid_sync = host_grid_sync,
    .shared_alloc = host_shared_alloc,
    .dyn_shared = host_dyn_shared,
    .print = host_print,
    .index_error = host_index_error,
    .end_thread = host_end_thread,
    .after_end_call = host_after_end_call,
    .assert_fail = host_assert_fail,
    .mark_kernel = host_mark_kernel,
    .param_pointer = host_param_pointer,
    .atomic_incdec = NULL, /* atomicrmw uinc_wrap/udec_wrap: a CAS loop on x86 */
    .float_to_int = host_float_to_int,
    .hidden_params = host_hidden_params,
    .finish_module = host_finish_module,
    /* inline the thread body into the block loop, simplify, then split the
     * x loop at the kernel's bounds check (IRCE: no masked accesses left for
     * the vectorizer, which AMD CPUs execute slowly) */
    .pre_passes = "always-inline,function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,"
                  "loop-mssa(licm),loop(indvars),irce)",
};

/* ------------------------------------------------- target and layout ---- */

void cg_host_target(CgTarget *t) {
  cg_init_targets();
  *t = (CgTarget){.kind = CG_HOST,
                  .triple = LLVMGetDefaultTargetTriple(),
                  .cpu = LLVMGetHostCPUName(),
                  .features = LLVMGetHostCPUFeatures()};
}

void cg_host_target_free(CgTarget *t) {
  LLVMDisposeMessage((char *)t->triple);
  LLVMDisposeMessage((char *)t->cpu);
  LLVMDisposeMessage((char *)t->features);
  memset(t, 0, sizeof *t);
}

static bool slot_of(const Type *t, CgArgSlot *s);

/* A tuple is the LLVM struct of its elements: laid out as the argument
 * struct is, aligned to its most aligned element. */
static bool tuple_slot(const Type *t, CgArgSlot *s) {
  CgArgSlot el[16];
  if (t->nelems < 0 || t->nelems > 16 || !cg_host_arg_layout(t->elems, t->nelems, el, &s->size))
    return false;
  s->align = 1;
  for (int i = 0; i < t->nelems; i++)
    if (el[i].align > s->align)
      s->align = el[i].align;
  return true;
}

static bool slot_of(const Type *t, CgArgSlot *s) {
  if (!t)
    return false;
  if (t->kind == TY_TUPLE)
    return tuple_slot(t, s);
  if (t->kind == TY_ARRAY) {
    s->size = 8 + 16 * (size_t)t->ndim;
    s->align = 8;
    return true;
  }
  if (t->kind == TY_RECORD || t->kind == TY_PTR) { /* by reference: the record's address */
    s->size = s->align = 8;
    return true;
  }
  if (t->kind == TY_C64 || t->kind == TY_C128) {
    s->size = t->kind == TY_C64 ? 8 : 16;
    s->align = s->size / 2;
    return true;
  }
  if (t->kind < TY_BOOL || t->kind > TY_F64)
    return false;
  s->size = s->align = (size_t)cg_size(t);
  return true;
}

bool cg_host_arg_layout(const Type *const *params, int n, CgArgSlot *slots, size_t *total) {
  size_t off = 0, maxa = 1;
  for (int i = 0; i < n; i++) {
    if (!slot_of(params[i], &slots[i]))
      return false;
    off = (off + slots[i].align - 1) & ~(slots[i].align - 1);
    slots[i].offset = off;
    off += slots[i].size;
    if (slots[i].align > maxa)
      maxa = slots[i].align;
  }
  *total = (off + maxa - 1) & ~(maxa - 1);
  return true;
}
