/* cg_nvptx.c - the NVPTX target hooks: special registers, barriers, warp
 * collectives (shfl/vote/match.sync), fences,
 * shared memory in addrspace(3), device printf (vprintf), kernel entries.
 *
 * Kernels get the PTX_Kernel calling convention and an nvvm.annotations
 * "kernel" entry (plus "maxnreg" when asked).  Array data pointers of kernel
 * parameters go to addrspace(1) and back, so InferAddressSpaces (run early,
 * see pre_passes) turns their loads, stores and atomics into .global ones. */
#include "codegen/cg_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { AS_GLOBAL = 1, AS_SHARED = 3, CC_PTX_KERNEL = 71 };

static LLVMValueRef call_nvvm(Cg *cg, const char *name, LLVMTypeRef ret, LLVMValueRef *args, int n) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  if (!id) {
    cg_fail(cg, NULL, "LLVM lacks the intrinsic %s", name);
    return NULL;
  }
  (void)ret;
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->mod, id, NULL, 0);
  LLVMTypeRef fty = LLVMIntrinsicGetType(cg->ctx, id, NULL, 0);
  return LLVMBuildCall2(cg->b, fty, fn, args, (unsigned)n, "");
}

/* activemask.b32 (no LLVM 19 intrinsic); volatile: it depends on divergence. */
static LLVMValueRef activemask(Cg *cg) {
  LLVMTypeRef fty = LLVMFunctionType(cg->t_i32, NULL, 0, 0);
  static const char text[] = "activemask.b32 $0;";
  LLVMValueRef ia = LLVMGetInlineAsm(fty, text, sizeof text - 1, "=r", 2, 1, 0, LLVMInlineAsmDialectATT, 0);
  return LLVMBuildCall2(cg->b, fty, ia, NULL, 0, "");
}

/* cuda.ffs of an i32 as Numba's: brev, then bfind.shiftamt (the shift that
 * brings the highest set bit to the top: the lowest bit's index of x), + 1;
 * bfind gives 0xffffffff for 0, so ffs(0) = 0 without a select.  BREV and
 * FLO.SH in SASS, where the cttz form is 6 instructions (add, not, and,
 * popc, add and the select for 0): one less per leader test in every
 * match_any_sync loop (bench/gpu pattern_rowhist). */
static LLVMValueRef nvptx_ffs32(Cg *cg, LLVMValueRef x) {
  unsigned id = LLVMLookupIntrinsicID("llvm.bitreverse", 15);
  LLVMTypeRef t = cg->t_i32;
  LLVMValueRef rev = LLVMBuildCall2(cg->b, LLVMIntrinsicGetType(cg->ctx, id, &t, 1),
                                    LLVMGetIntrinsicDeclaration(cg->mod, id, &t, 1), &x, 1, "");
  LLVMTypeRef fty = LLVMFunctionType(t, &t, 1, 0);
  static const char text[] = "bfind.shiftamt.u32 $0, $1;";
  LLVMValueRef ia = LLVMGetInlineAsm(fty, text, sizeof text - 1, "=r,r", 4, 0, 0, LLVMInlineAsmDialectATT, 0);
  LLVMValueRef sh = LLVMBuildCall2(cg->b, fty, ia, &rev, 1, "");
  return LLVMBuildAdd(cg->b, sh, LLVMConstInt(t, 1, 0), "");
}

static LLVMValueRef nvptx_special_reg(Cg *cg, IrOp op, int dim) {
  static const char *const base[] = {[OP_THREAD_IDX] = "tid", [OP_BLOCK_IDX] = "ctaid",
                                     [OP_BLOCK_DIM] = "ntid", [OP_GRID_DIM] = "nctaid"};
  char name[64];
  if (op == OP_WARPSIZE)
    return cg_const_i32(cg, 32);
  if (op == OP_LANEID)
    return call_nvvm(cg, "llvm.nvvm.read.ptx.sreg.laneid", cg->t_i32, NULL, 0);
  if (op == OP_LANEMASK_LT)
    return call_nvvm(cg, "llvm.nvvm.read.ptx.sreg.lanemask.lt", cg->t_i32, NULL, 0);
  if (op == OP_ACTIVEMASK)
    return activemask(cg);
  if (dim < 0 || dim > 2 || op > OP_GRID_DIM || !base[op]) {
    cg_fail(cg, NULL, "special register %d.%d", (int)op, dim);
    return NULL;
  }
  snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s.%c", base[op], "xyz"[dim]);
  return call_nvvm(cg, name, cg->t_i32, NULL, 0);
}

static LLVMValueRef nvptx_barrier(Cg *cg, IrOp op, LLVMValueRef pred) {
  switch (op) {
  case OP_SYNCTHREADS_COUNT: return call_nvvm(cg, "llvm.nvvm.barrier0.popc", cg->t_i32, &pred, 1);
  case OP_SYNCTHREADS_AND: return call_nvvm(cg, "llvm.nvvm.barrier0.and", cg->t_i32, &pred, 1);
  case OP_SYNCTHREADS_OR: return call_nvvm(cg, "llvm.nvvm.barrier0.or", cg->t_i32, &pred, 1);
  default: return call_nvvm(cg, "llvm.nvvm.barrier0", cg->t_void, NULL, 0);
  }
}

static void nvptx_syncwarp(Cg *cg, LLVMValueRef mask) {
  call_nvvm(cg, "llvm.nvvm.bar.warp.sync", cg->t_void, &mask, 1);
}

/* shfl.sync with PTX's c operand for a full warp: ((32 - width) << 8) |
 * clamp, clamp 0 for up (lanes below delta keep their value), 31 else. */
static LLVMValueRef nvptx_shfl(Cg *cg, int mode, LLVMValueRef mask, LLVMValueRef v, LLVMValueRef lane) {
  static const char *const names[] = {"llvm.nvvm.shfl.sync.idx.i32", "llvm.nvvm.shfl.sync.up.i32",
                                      "llvm.nvvm.shfl.sync.down.i32", "llvm.nvvm.shfl.sync.bfly.i32"};
  LLVMValueRef a[4] = {mask, v, lane, cg_const_i32(cg, mode == SHFL_UP ? 0 : 0x1f)};
  return call_nvvm(cg, names[mode & 3], cg->t_i32, a, 4);
}

static LLVMValueRef nvptx_vote(Cg *cg, int kind, LLVMValueRef mask, LLVMValueRef pred) {
  static const char *const names[] = {"llvm.nvvm.vote.all.sync", "llvm.nvvm.vote.any.sync",
                                      "llvm.nvvm.vote.uni.sync", "llvm.nvvm.vote.ballot.sync"};
  LLVMValueRef a[2] = {mask, pred};
  return call_nvvm(cg, names[kind & 3], kind == VOTE_BALLOT ? cg->t_i32 : cg->t_i1, a, 2);
}

/* match.sync (sm_70+); match_all returns {mask, pred}. */
static LLVMValueRef nvptx_match(Cg *cg, bool all, LLVMValueRef mask, LLVMValueRef v, LLVMValueRef *pred) {
  bool wide = LLVMTypeOf(v) == cg->t_i64;
  const char *name = all ? (wide ? "llvm.nvvm.match.all.sync.i64p" : "llvm.nvvm.match.all.sync.i32p")
                         : (wide ? "llvm.nvvm.match.any.sync.i64" : "llvm.nvvm.match.any.sync.i32");
  if (cg->target->cpu && strncmp(cg->target->cpu, "sm_", 3) == 0 && atoi(cg->target->cpu + 3) < 70) {
    cg_unsupported(cg, NULL, "match_any_sync/match_all_sync below sm_70");
    return NULL;
  }
  LLVMValueRef a[2] = {mask, v};
  LLVMValueRef r = call_nvvm(cg, name, cg->t_i32, a, 2);
  if (!all || !r)
    return r;
  *pred = LLVMBuildExtractValue(cg->b, r, 1, "");
  return LLVMBuildExtractValue(cg->b, r, 0, "");
}

static void nvptx_fence(Cg *cg, int scope) {
  call_nvvm(cg, scope == 0 ? "llvm.nvvm.membar.cta" : scope == 1 ? "llvm.nvvm.membar.gl" : "llvm.nvvm.membar.sys",
            cg->t_void, NULL, 0);
}

/* A module-level addrspace(3) [n x elem], internal, align 16, undef
 * initializer (NVPTX rejects initialized shared variables). */
static LLVMValueRef nvptx_shared_alloc(Cg *cg, LLVMTypeRef elem, int64_t n, int64_t id) {
  char name[256];
  const char *fsym = cg->f ? (cg->f->symbol ? cg->f->symbol : cg->f->name) : "kjit";
  snprintf(name, sizeof name, "__kjit_shared_%s_%lld", fsym, (long long)id);
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
  if (!g) {
    LLVMTypeRef at = LLVMArrayType2(elem, (uint64_t)n);
    g = LLVMAddGlobalInAddressSpace(cg->mod, at, name, AS_SHARED);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetInitializer(g, LLVMGetUndef(at));
    LLVMSetAlignment(g, 16);
  }
  return LLVMBuildAddrSpaceCast(cg->b, g, cg->t_ptr, "");
}

/* All dynamic shared arrays alias one external [0 x i8] (as in Numba); the
 * size comes from %dynamic_smem_size (no LLVM 19 intrinsic: inline asm). */
static LLVMValueRef nvptx_dyn_shared(Cg *cg, LLVMValueRef *bytes) {
  if (!cg->dyn_shared) {
    LLVMTypeRef at = LLVMArrayType2(cg->t_i8, 0);
    cg->dyn_shared = LLVMAddGlobalInAddressSpace(cg->mod, at, "__kjit_dynshared", AS_SHARED);
    LLVMSetLinkage(cg->dyn_shared, LLVMExternalLinkage);
    LLVMSetAlignment(cg->dyn_shared, 16);
  }
  LLVMTypeRef fty = LLVMFunctionType(cg->t_i32, NULL, 0, 0);
  static const char asm_text[] = "mov.u32 $0, %dynamic_smem_size;";
  LLVMValueRef ia = LLVMGetInlineAsm(fty, asm_text, sizeof asm_text - 1, "=r", 2, 0, 0,
                                     LLVMInlineAsmDialectATT, 0);
  LLVMValueRef sz = LLVMBuildCall2(cg->b, fty, ia, NULL, 0, "");
  *bytes = LLVMBuildZExt(cg->b, sz, cg->t_i64, "");
  return LLVMBuildAddrSpaceCast(cg->b, cg->dyn_shared, cg->t_ptr, "");
}

/* vprintf(fmt, buffer of the promoted arguments, each 8-byte aligned). */
static void nvptx_print(Cg *cg, LLVMValueRef fmt, LLVMValueRef *args, int nargs) {
  LLVMValueRef buf = LLVMConstPointerNull(cg->t_ptr);
  if (nargs > 0) {
    LLVMTypeRef tys[32];
    for (int i = 0; i < nargs; i++)
      tys[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef st = LLVMStructTypeInContext(cg->ctx, tys, (unsigned)nargs, 0);
    buf = cg_entry_alloca(cg, st, "printf.args");
    for (int i = 0; i < nargs; i++)
      LLVMBuildStore(cg->b, args[i], LLVMBuildStructGEP2(cg->b, st, buf, (unsigned)i, ""));
  }
  LLVMValueRef a[2] = {fmt, buf};
  cg_call_extern(cg, "vprintf", cg->t_i32, a, 2);
}

/* The failing thread, as the messages end: "kernel"/"device function",
 * its name, then ctaid.xyz and tid.xyz as i64 (8 printf arguments). */
static void put_where(Cg *cg, LLVMValueRef *a) {
  a[0] = cg_cstring(cg, cg->f->is_kernel ? "kernel" : "device function", ".what");
  a[1] = cg_cstring(cg, cg->f->name, ".fname");
  for (int i = 0; i < 6; i++)
    a[2 + i] = LLVMBuildZExt(cg->b, nvptx_special_reg(cg, i < 3 ? OP_BLOCK_IDX : OP_THREAD_IDX, i % 3),
                             cg->t_i64, "");
}

static LLVMValueRef source_file(Cg *cg, const Inst *in) {
  return cg_cstring(cg, in->loc.src ? in->loc.src->path : "<kernel>", ".file");
}

/* The message (as the CPU target's, Numba's IndexError words) goes to the
 * device's stdout through vprintf; then the thread traps, and the launch
 * fails with the kernel's name as any fault does. */
static bool nvptx_index_error(Cg *cg, const Inst *in, const char *array, LLVMValueRef index, int axis,
                              LLVMValueRef extent) {
  static const char fmt[] =
      "%s:%lld: error: index %lld is out of bounds for axis %lld with size %lld in array '%s' "
      "(%s '%s', block (%lld,%lld,%lld), thread (%lld,%lld,%lld))\n";
  LLVMValueRef a[14] = {source_file(cg, in), cg_const_i64(cg, in->loc.line), index, cg_const_i64(cg, axis),
                        extent, cg_cstring(cg, array, ".array")};
  put_where(cg, a + 6);
  nvptx_print(cg, cg_cstring(cg, fmt, ".oobfmt"), a, 14);
  cg_intrinsic(cg, "llvm.trap", NULL, 0, NULL, 0);
  LLVMBuildUnreachable(cg->b);
  return false;
}

/* A failed assert: printed and trapped as an index error is. */
static void nvptx_assert_fail(Cg *cg, const Inst *in) {
  static const char fmt[] = "%s:%lld: error: %s "
                            "(%s '%s', block (%lld,%lld,%lld), thread (%lld,%lld,%lld))\n";
  LLVMValueRef a[11] = {source_file(cg, in), cg_const_i64(cg, in->loc.line),
                        cg_cstring(cg, in->str ? in->str : "", ".amsg")};
  put_where(cg, a + 3);
  nvptx_print(cg, cg_cstring(cg, fmt, ".assertfmt"), a, 11);
  cg_intrinsic(cg, "llvm.trap", NULL, 0, NULL, 0);
}

/* PTX's `exit` ends the thread wherever it is, so a raise in a device
 * function needs nothing from its callers. */
static void nvptx_end_thread(Cg *cg) {
  LLVMTypeRef fty = LLVMFunctionType(cg->t_void, NULL, 0, 0);
  LLVMValueRef ia = LLVMGetInlineAsm(fty, "exit;", 5, "", 0, 1, 0, LLVMInlineAsmDialectATT, 0);
  LLVMBuildCall2(cg->b, fty, ia, NULL, 0, "");
  LLVMBuildUnreachable(cg->b);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "after.exit"));
}

static void add_annotation(Cg *cg, LLVMValueRef fn, const char *key, int value) {
  LLVMMetadataRef md[3] = {LLVMValueAsMetadata(fn), LLVMMDStringInContext2(cg->ctx, key, strlen(key)),
                           LLVMValueAsMetadata(cg_const_i32(cg, value))};
  LLVMValueRef node = LLVMMetadataAsValue(cg->ctx, LLVMMDNodeInContext2(cg->ctx, md, 3));
  LLVMAddNamedMetadataOperand(cg->mod, "nvvm.annotations", node);
}

static void nvptx_mark_kernel(Cg *cg, LLVMValueRef fn, const IrFunc *f) {
  LLVMSetFunctionCallConv(fn, CC_PTX_KERNEL);
  add_annotation(cg, fn, "kernel", 1);
  int maxreg = cg->opts->max_registers ? cg->opts->max_registers : f->opts.max_registers;
  if (maxreg > 0)
    add_annotation(cg, fn, "maxnreg", maxreg);
}

/* generic -> global through llvm.nvvm.ptr.gen.to.global (which InstSimplify
 * cannot fold away, unlike an addrspacecast pair), then back to generic. */
static LLVMValueRef nvptx_param_pointer(Cg *cg, LLVMValueRef p) {
  LLVMTypeRef over[2] = {LLVMPointerTypeInContext(cg->ctx, AS_GLOBAL), cg->t_ptr};
  LLVMValueRef g = cg_intrinsic(cg, "llvm.nvvm.ptr.gen.to.global", over, 2, &p, 1);
  return g ? LLVMBuildAddrSpaceCast(cg->b, g, cg->t_ptr, "") : p;
}

/* atom.inc/dec.u32 (LLVM 19 expands uinc_wrap into a CAS loop). */
static LLVMValueRef nvptx_atomic_incdec(Cg *cg, bool inc, LLVMValueRef p, LLVMValueRef v) {
  LLVMTypeRef over[1] = {cg->t_ptr};
  LLVMValueRef a[2] = {p, v};
  return cg_intrinsic(cg, inc ? "llvm.nvvm.atomic.load.inc.32" : "llvm.nvvm.atomic.load.dec.32", over, 1, a, 2);
}

/* Link libdevice only when some __nv_* function is referenced. */
static bool nvptx_finish_module(Cg *cg) {
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    const char *name = LLVMGetValueName2(f, &n);
    if (n > 5 && strncmp(name, "__nv_", 5) == 0 && LLVMIsDeclaration(f))
      return cg_libdevice_link(cg->session, cg);
  }
  return true;
}

/* The middle end at opt level 3: LLVM 19's default<O3> as it runs on a
 * kernel module, less what has nothing to do there.  A kernel module is
 * one kernel with its device functions already inlined (always-inline)
 * plus libdevice's noinline helpers, so the CGSCC inliner's machinery
 * (devirt<4>(inline, ...)) is replaced by running its function
 * simplification pipeline once, after function-attrs has marked the
 * helpers' memory effects (without which GVN keeps loads across their
 * calls).  Dropped as no-ops for kernels: coroutines, OpenMP, call-site
 * splitting, libcall shrink-wrapping, tail calls, loop vectorization
 * (NVPTX has no vector registers for it) and distribution, float2int,
 * CHR, loop sinking, profile and remark passes.  The order of the rest is
 * O3's, which keeps its vectorised shared loads (infer-alignment after
 * unrolling).  Measured with bench/ptx_compare.py on every kernel of
 * bench/ and tests/kernels (docs/benchmarks.md): no loop body grows, no
 * vector load is lost, no register or spill is added; the tiled matmul
 * compiles with 17% fewer instructions. */
#define SCFG_OPTS "bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;"
#define SCFG_EARLY "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;no-switch-range-to-icmp;" \
  "no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;"    \
  "simplify-cond-branch;no-speculate-unpredictables>"
#define SCFG "simplifycfg<" SCFG_OPTS "keep-loops;no-hoist-common-insts;no-sink-common-insts;" \
  "speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>"
#define SCFG_HOIST "simplifycfg<" SCFG_OPTS "keep-loops;hoist-common-insts;sink-common-insts;" \
  "speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>"
#define SCFG_LATE "simplifycfg<bonus-inst-threshold=1;forward-switch-cond;switch-range-to-icmp;"   \
  "switch-to-lookup;no-keep-loops;hoist-common-insts;sink-common-insts;speculate-blocks;"       \
  "simplify-cond-branch;no-speculate-unpredictables>"
#define SCFG_FINAL "simplifycfg<" SCFG_OPTS "keep-loops;no-hoist-common-insts;no-sink-common-insts;" \
  "speculate-blocks;simplify-cond-branch;speculate-unpredictables>"
#define IC "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>"

static const char nvptx_o3_pipeline[] =
    /* inline device functions; expose global pointers (as pre_passes) */
    "always-inline,function(sroa,early-cse,infer-address-spaces),"
    "function(nvvm-reflect,nvvm-intr-range),"
    /* early cleanup and interprocedural constants */
    "function<eager-inv>(" SCFG_EARLY ",sroa<modify-cfg>,early-cse<>),ipsccp,globalopt,"
    "function<eager-inv>(mem2reg," IC "," SCFG "),"
    /* GlobalsAA, as O3 computes it before its inliner: a load from an
     * internal constant table (libdevice's __cudart_i2opi_f in sinf/cosf's
     * slow path) then no longer "may read" what a kernel stores through an
     * array, and LICM can sink such stores out of a loop (bench/gpu
     * monte_carlo's generator state) */
    "require<globals-aa>,function(invalidate<aa>),"
    "cgscc(function-attrs),"
    /* O3's function simplification pipeline (the inliner's) */
    "function<eager-inv>(sroa<modify-cfg>,early-cse<memssa>,jump-threading,correlated-propagation,"
    SCFG "," IC "," SCFG ",reassociate,constraint-elimination,"
    "loop-mssa(loop-instsimplify,loop-simplifycfg,licm<no-allowspeculation>,"
    "loop-rotate<header-duplication;no-prepare-for-lto>,licm<allowspeculation>,"
    "simple-loop-unswitch<nontrivial;trivial>),"
    SCFG "," IC ",loop(loop-idiom,indvars,simple-loop-unswitch<nontrivial;trivial>,loop-deletion,"
    /* correlated-propagation once more after the full unroll: each copy's
     * guard (`t >= off` with off now a constant) then proves its index
     * non-negative, and the wraparound select goes before instcombine
     * turns it into shifts that nothing folds later (bench/gpu scan) */
    "loop-unroll-full),correlated-propagation,sroa<modify-cfg>,vector-combine,mldst-motion<no-split-footer-bb>,gvn<>,sccp,"
    "bdce," IC ",jump-threading,correlated-propagation,adce,memcpyopt,dse,"
    "loop-mssa(licm<allowspeculation>)," SCFG_HOIST "," IC "),"
    "globalopt,globaldce,"
    /* O3's optimization pipeline: SLP, runtime unrolling, alignment */
    "function<eager-inv>(loop(loop-rotate<header-duplication;no-prepare-for-lto>,loop-deletion),"
    "infer-alignment," IC "," SCFG_LATE ",slp-vectorizer,vector-combine," IC ")";

/* The rest of O3's optimization pipeline, after nvptx_o3_mid. */
static const char nvptx_o3_late[] =
    "function<eager-inv>(loop-unroll<O3>,sroa<preserve-cfg>,infer-alignment," IC ","
    "loop-mssa(licm<allowspeculation>),instsimplify,div-rem-pairs," SCFG_FINAL "),"
    "globaldce,constmerge";

/* The middle end for a module without a loop (cg.c module_acyclic: every
 * elementwise kernel, libdevice's straight-line helpers included).  Most
 * of O3's cost on such a kernel is the fixed cost of passes with nothing
 * to do (loop passes, the interprocedural ones, a second pass-manager
 * run for the loop hints) - about a third of a vector add's 8.3 M
 * instructions of compile.  These are the passes of the pipeline above
 * that change a loop-free kernel's PTX at all, in O3's order: each pass
 * left out was left out only where the PTX of every loop-free kernel of
 * bench/, tests/kernels and the 790 numba-cuda kernels of the
 * compatibility corpus stayed the same (docs/benchmarks.md, "Compile
 * time"); globalopt drops shared arrays that are written and never
 * read, constmerge merges equal strings of print(). */
static const char nvptx_o3_acyclic[] =
    "always-inline,function(sroa,early-cse,infer-address-spaces,nvvm-reflect,nvvm-intr-range,"
    SCFG_EARLY ",early-cse<>," IC ",reassociate,gvn<>,bdce,correlated-propagation,memcpyopt,"
    "infer-alignment," SCFG_LATE ",slp-vectorizer," IC "),"
    "globalopt,globaldce,constmerge";

/* ---------------------------------------------------- unroll hints ---- */

/* NVVM (nvcc's and Numba's middle end) unrolls a small inner loop 4 times;
 * LLVM's NVPTX partial-unroll threshold (a quarter of O3's 300) stops at 2
 * for a body of about 19..37 instructions, which leaves one loop-counter
 * add, compare and branch per two iterations and only two iterations'
 * independent work for the scheduler (bench/gpu nbody: 128 bodies per tile,
 * 8 warps per SM, rsqrt latency in every iteration).  So a single-block
 * loop that the full unroll left rolled, with a constant trip count that 4
 * divides, a body in that size window and no call but intrinsics, gets
 * "llvm.loop.unroll.count" 4 before loop-unroll<O3> runs.  So does such a
 * loop whose count is known only at run time (LLVM then adds a remainder
 * loop, as it does for its own 2x): bench/gpu softmax's strided exp loops,
 * one load and an expf each, which nvcc unrolls 4x.  The point is more
 * loads in flight, so such a loop must load, but at most
 * HINT_RUNTIME_LOADS times (a grid-stride loop that already issues several
 * loads per step has them in flight, and 4 copies only cost registers:
 * @cuda.reduce's 8-load loop, 32 -> 40), and not what it stores
 * (block_loads); a loop of arithmetic alone keeps LLVM's choice (a
 * xoroshiro128+ draw loop: 26 -> 32 registers for a serial chain). */
/* A grid-stride loop (its counter steps by cuda.gridsize() or blockDim *
 * gridDim, a value known only at run time) that stores to global memory
 * is not unrolled at run time at all, by the hint or by LLVM's own
 * runtime unrolling (NVPTX turns it on): with no proof that the arrays do
 * not overlap, no copy's loads may move above the previous copy's store,
 * so the copies add no loads in flight, only a trip-count division and one
 * 64-bit pointer increment per array and copy.  bench/gpu pattern_gridstride
 * gs_axpy_f32 (1.37x Numba on an H200): 40 -> 22 registers, 55 -> 11 loop
 * instructions; pattern_volume vol_avg6_f32 (1.72x): 115 -> 64 registers.
 * A loop whose writes go to shared memory (histogram's atomics) keeps its
 * unrolling: they cannot alias its global loads. */
#define HINT_MIN_INSTS 20 /* below: LLVM itself picks 4 or more */
#define HINT_MAX_INSTS 40 /* above: the 4 copies would outgrow nvcc's */
#define HINT_COUNT 4
#define HINT_RUNTIME_LOADS 2

/* v as a constant integer of at most 64 bits, or false. */
static bool const_int(LLVMValueRef v, long long *out) {
  if (!v || !LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
    return false;
  *out = LLVMConstIntGetSExtValue(v);
  return true;
}

/* Whether v is the same on every iteration of the single-block loop b. */
static bool invariant_in(LLVMValueRef v, LLVMBasicBlockRef b) {
  return !LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != b;
}

/* The trip count of the single-block loop `b` closed by `br`: an
 * `icmp eq/ne (add phi, step), end` exit test on a phi that starts at a
 * constant; TRIPS_RUNTIME where the start or the end is a value computed
 * before the loop (a count known only at run time: `range(lane, n, 32)`
 * counts down from one); 0 where the loop is not of that form. */
#define TRIPS_RUNTIME (-1)
static long long self_loop_trips(LLVMBasicBlockRef b, LLVMValueRef br) {
  LLVMValueRef cmp = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(cmp) || LLVMGetInstructionParent(cmp) != b)
    return 0;
  LLVMIntPredicate pr = LLVMGetICmpPredicate(cmp);
  bool exit_on_true = LLVMGetSuccessor(br, 1) == b;
  if (!(pr == LLVMIntEQ && exit_on_true) && !(pr == LLVMIntNE && !exit_on_true))
    return 0;
  LLVMValueRef next = LLVMGetOperand(cmp, 0), last = LLVMGetOperand(cmp, 1), phi;
  long long end = 0, step, start = 0;
  bool runtime = !const_int(last, &end);
  if ((runtime && !invariant_in(last, b)) || !LLVMIsAInstruction(next) ||
      LLVMGetInstructionOpcode(next) != LLVMAdd || !const_int(LLVMGetOperand(next, 1), &step) ||
      step == 0)
    return 0;
  phi = LLVMGetOperand(next, 0);
  if (!LLVMIsAPHINode(phi) || LLVMGetInstructionParent(phi) != b || LLVMCountIncoming(phi) != 2)
    return 0;
  for (unsigned i = 0; i < 2; i++) {
    LLVMValueRef in = LLVMGetIncomingValue(phi, i);
    if (LLVMGetIncomingBlock(phi, i) == b) {
      if (in != next)
        return 0;
    } else if (!const_int(in, &start)) {
      runtime = true; /* the start, computed before the loop */
    }
  }
  if (runtime)
    return TRIPS_RUNTIME;
  unsigned long long span = (unsigned long long)end - (unsigned long long)start;
  if (step <= 0 || end <= start || span % (unsigned long long)step || span / step > INT32_MAX)
    return 0;
  return (long long)(span / (unsigned long long)step);
}

/* The instructions of `b` but its phis, or -1 where it calls a function
 * (a noinline helper: its body would be copied 4 times). */
static int body_insts(LLVMBasicBlockRef b) {
  int n = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
    if (LLVMIsAPHINode(i))
      continue;
    if (LLVMIsACallInst(i)) {
      LLVMValueRef f = LLVMGetCalledValue(i);
      size_t len;
      const char *name = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len) : "";
      if (strncmp(name, "llvm.", 5) != 0)
        return -1;
    }
    n++;
  }
  return n;
}

/* The loads in block b, or -1 where one reads an address that b also
 * stores to: iterations chained through memory (a generator's state in a
 * strided array) gain nothing from being unrolled. */
static int block_loads(LLVMBasicBlockRef b) {
  int n = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
    if (!LLVMIsALoadInst(i))
      continue;
    n++;
    for (LLVMValueRef j = LLVMGetFirstInstruction(b); j; j = LLVMGetNextInstruction(j))
      if (LLVMIsAStoreInst(j) && LLVMGetOperand(j, 1) == LLVMGetOperand(i, 0))
        return -1;
  }
  return n;
}

/* Marks the loop closed by `br` "llvm.loop.unroll.count" HINT_COUNT. */
static void set_unroll_count(Cg *cg, LLVMValueRef br) {
  LLVMMetadataRef tmp = LLVMTemporaryMDNode(cg->ctx, NULL, 0);
  LLVMMetadataRef cnt[2] = {
      LLVMMDStringInContext2(cg->ctx, "llvm.loop.unroll.count", 22),
      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(cg->ctx), HINT_COUNT, false))};
  LLVMMetadataRef ops[2] = {tmp, LLVMMDNodeInContext2(cg->ctx, cnt, 2)};
  LLVMMetadataRef loop = LLVMMDNodeInContext2(cg->ctx, ops, 2);
  LLVMMetadataReplaceAllUsesWith(tmp, loop); /* the loop ID refers to itself */
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(cg->ctx, "llvm.loop", 9),
                  LLVMMetadataAsValue(cg->ctx, loop));
}

/* Whether block b writes memory that its global loads may read: a store
 * or an atomic on a global or generic pointer (shared and local memory
 * are other address spaces: bench/gpu histogram's shared atomics). */
static bool block_writes_global(LLVMBasicBlockRef b) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
    LLVMValueRef p = LLVMIsAStoreInst(i) ? LLVMGetOperand(i, 1)
                     : LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) ? LLVMGetOperand(i, 0)
                                                                            : NULL;
    if (p) {
      unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(p));
      if (as == 0 || as == 1)
        return true;
    }
  }
  return false;
}

/* Whether single-block loop b steps a counter by a value computed before
 * the loop (a grid-stride loop: cuda.gridsize(), blockDim * gridDim). */
static bool stride_loop(LLVMBasicBlockRef b) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i))
    for (unsigned k = 0; k < LLVMCountIncoming(i); k++) {
      LLVMValueRef next = LLVMGetIncomingValue(i, k);
      if (LLVMGetIncomingBlock(i, k) != b || !LLVMIsAInstruction(next) ||
          LLVMGetInstructionOpcode(next) != LLVMAdd)
        continue;
      for (unsigned o = 0; o < 2; o++) {
        LLVMValueRef step = LLVMGetOperand(next, o), other = LLVMGetOperand(next, 1 - o);
        if (other == i && !LLVMIsAConstant(step) && invariant_in(step, b))
          return true;
      }
    }
  return false;
}

static void set_loop_flag(Cg *cg, LLVMValueRef br, const char *flag) {
  LLVMMetadataRef tmp = LLVMTemporaryMDNode(cg->ctx, NULL, 0);
  LLVMMetadataRef f = LLVMMDStringInContext2(cg->ctx, flag, strlen(flag));
  LLVMMetadataRef fl = LLVMMDNodeInContext2(cg->ctx, &f, 1);
  LLVMMetadataRef ops[2] = {tmp, fl};
  LLVMMetadataRef loop = LLVMMDNodeInContext2(cg->ctx, ops, 2);
  LLVMMetadataReplaceAllUsesWith(tmp, loop);
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(cg->ctx, "llvm.loop", 9),
                  LLVMMetadataAsValue(cg->ctx, loop));
}

/* Whether block b divides integers by a value not constant: on the GPU a
 * division is a chain of some 20 dependent instructions (no divide unit),
 * which the next copy of an unrolled loop can run while this copy waits on
 * memory, aliasing or not (bench/gpu pattern_gridstride gs_2d_f32's
 * `k // cols`, `k % cols`: 1.07x Numba, which unrolls it 4 times). */
static bool block_divides(LLVMBasicBlockRef b) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    if ((op == LLVMSDiv || op == LLVMUDiv || op == LLVMSRem || op == LLVMURem) &&
        !LLVMIsAConstant(LLVMGetOperand(i, 1)))
      return true;
  }
  return false;
}

static void hint_block(Cg *cg, LLVMBasicBlockRef b) {
  LLVMValueRef br = LLVMGetBasicBlockTerminator(b);
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br) ||
      LLVMGetMetadata(br, LLVMGetMDKindIDInContext(cg->ctx, "llvm.loop", 9)))
    return;
  if ((LLVMGetSuccessor(br, 0) == b) == (LLVMGetSuccessor(br, 1) == b))
    return; /* not a single-block loop */
  if (stride_loop(b) && block_writes_global(b) && !block_divides(b)) {
    set_loop_flag(cg, br, "llvm.loop.unroll.runtime.disable");
    return;
  }
  long long trips = self_loop_trips(b, br);
  int n = body_insts(b);
  int loads = trips == TRIPS_RUNTIME ? block_loads(b) : 0;
  bool counted = trips >= 4 * HINT_COUNT && trips % HINT_COUNT == 0;
  if (trips == TRIPS_RUNTIME) /* -1 loads: chained through memory */
    counted = loads >= 1 && loads <= HINT_RUNTIME_LOADS;
  if (counted && n >= HINT_MIN_INSTS && n <= HINT_MAX_INSTS)
    set_unroll_count(cg, br);
}

/* Between o3_pipeline and o3_late: the small local arrays indexed at run
 * time (cg_localsel.c, promoted at once), the unroll hints, and the stores
 * through phis of local scalars that o3_late's SROA can then promote
 * (cg_phistore.c). */
static void nvptx_o3_mid(Cg *cg) {
  cg_select_local_arrays(cg); /* first: the hints see its select chains */
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      hint_block(cg, b);
  cg_split_phi_stores(cg);
}

/* Places the exit block of each single-block loop right after it.  NVPTX
 * cannot reverse a branch condition after instruction selection, so a loop
 * whose exit block lay elsewhere at selection ended in `@p bra EXIT;
 * bra.uni LOOP` once block placement put EXIT next: two branches per
 * iteration, and a latch that ptxas does not take for a loop it may unroll
 * (bench/gpu softmax: 6 such latches; nvcc's loops end in one `@p bra LOOP`).
 * Moving a block changes no behaviour, only the order selection sees. */
static void nvptx_exit_layout(Cg *cg) {
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
      LLVMValueRef br = LLVMGetBasicBlockTerminator(b);
      if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br))
        continue;
      LLVMBasicBlockRef s0 = LLVMGetSuccessor(br, 0), s1 = LLVMGetSuccessor(br, 1);
      LLVMBasicBlockRef exit = s0 == b ? s1 : s1 == b ? s0 : NULL;
      if (exit && exit != b && exit != LLVMGetEntryBasicBlock(f) &&
          LLVMGetNextBasicBlock(b) != exit)
        LLVMMoveBasicBlockAfter(exit, b);
    }
}

/* After o3_late: the exit layout of single-block loops first (it looks for
 * them), then the divisions by invariant divisors, whose split blocks keep
 * each loop's last block before its exit. */
static void nvptx_o3_after(Cg *cg) {
  nvptx_exit_layout(cg);
  cg_invariant_divisions(cg);
}

/* ---------------------------------------------- device function alone --- */

/* A type the C ABI of CUDA C passes as it is: bool (one byte), integers,
 * float32 and float64.  float16 (a struct __half in CUDA C), complex,
 * arrays, tuples and records have no plain C spelling. */
static bool cabi_type(const Type *t) {
  return t->kind == TY_BOOL || ty_is_int(t) || (ty_is_float(t) && t->kind != TY_F16);
}

static LLVMTypeRef cabi_llvm(Cg *cg, const Type *t) {
  return t->kind == TY_VOID ? cg->t_void : t->kind == TY_BOOL ? cg->t_i8 : cg_type(cg, t);
}

/* A device function compiled alone (kjit ptx FILE:FUNC, Numba's
 * compile_ptx(..., device=True) with abi='c'): an external .func of the
 * Python name that calls the specialized one, so CUDA C declares it as
 *   extern "C" __device__ float axpy(float a, float x, float y);
 * bool travels as one byte, as C's bool does. */
static void nvptx_device_entry(Cg *cg, const IrFunc *f) {
  LLVMValueRef inner = LLVMGetNamedFunction(cg->mod, f->symbol ? f->symbol : f->name);
  const Type *ret = f->ret_type ? f->ret_type : cg_scalar(TY_VOID);
  const Type *bad = ret->kind == TY_VOID || cabi_type(ret) ? NULL : ret;
  LLVMTypeRef pt[CG_MAX_ARGS];
  for (int i = 0; i < f->nparams && !bad; i++) {
    const Type *t = f->locals.data[i].type;
    bad = cabi_type(t) ? NULL : t;
    pt[i] = bad ? NULL : cabi_llvm(cg, t);
  }
  if (bad) {
    char buf[64];
    diag_error(cg->diags, E_CG_UNSUPPORTED, f->ast ? f->ast->loc : (SrcLoc){0},
               "compile a kernel that calls it instead; alone, a device function takes and "
               "returns bool, integers, float32 and float64 (C's types)",
               "device function '%s' cannot be compiled alone with %s in its C ABI", f->name,
               ty_name(bad, buf, sizeof buf));
    cg->failed = true;
    return;
  }
  if (!inner || LLVMGetNamedFunction(cg->mod, f->name)) {
    cg_fail(cg, NULL, "the C-ABI entry '%s' clashes with another symbol", f->name);
    return;
  }
  LLVMValueRef fn = LLVMAddFunction(cg->mod, f->name,
      LLVMFunctionType(cabi_llvm(cg, ret), pt, (unsigned)f->nparams, 0));
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
  LLVMValueRef a[CG_MAX_ARGS];
  for (int i = 0; i < f->nparams; i++) {
    a[i] = LLVMGetParam(fn, (unsigned)i);
    if (f->locals.data[i].type->kind == TY_BOOL)
      a[i] = LLVMBuildICmp(cg->b, LLVMIntNE, a[i], LLVMConstInt(cg->t_i8, 0, 0), "");
  }
  LLVMValueRef r = LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(inner), inner, a,
                                  (unsigned)f->nparams, "");
  if (ret->kind == TY_VOID)
    LLVMBuildRetVoid(cg->b);
  else
    LLVMBuildRet(cg->b, ret->kind == TY_BOOL ? LLVMBuildZExt(cg->b, r, cg->t_i8, "") : r);
}

const CgTargetHooks cg_nvptx_hooks = {
    .name = "CUDA",
    .math_prefix = "__nv_",
    .special_reg = nvptx_special_reg,
    .barrier = nvptx_barrier,
    .syncwarp = nvptx_syncwarp,
    .fence = nvptx_fence,
    .grid_group = cg_nvptx_grid_group,
    .grid_sync = cg_nvptx_grid_sync,
    .shfl = nvptx_shfl,
    .vote = nvptx_vote,
    .match = nvptx_match,
    .shared_alloc = nvptx_shared_alloc,
    .dyn_shared = nvptx_dyn_shared,
    .print = nvptx_print,
    .index_error = nvptx_index_error,
    .end_thread = nvptx_end_thread,
    .assert_fail = nvptx_assert_fail,
    .mark_kernel = nvptx_mark_kernel,
    .param_pointer = nvptx_param_pointer,
    .atomic_incdec = nvptx_atomic_incdec,
    .finish_module = nvptx_finish_module,
    .device_entry = nvptx_device_entry,
    /* inline device functions first, then expose the global pointers of
     * the kernel's array parameters to their loads and stores */
    .pre_passes = "always-inline,function(sroa,early-cse,infer-address-spaces)",
    .o3_pipeline = nvptx_o3_pipeline,
    .o3_mid = nvptx_o3_mid,
    .o3_late = nvptx_o3_late,
    .o3_after = nvptx_o3_after,
    .ffs32 = nvptx_ffs32,
    .o3_acyclic = nvptx_o3_acyclic,
    /* NVPTX's code generator at O3 differs from O2 only in running GVN
     * instead of EarlyCSE among its IR passes, after the middle end's own
     * GVN: 11% of the tiled matmul's compile, and the same PTX for every
     * kernel of bench/ and tests/kernels but libdevice's trig slow path
     * (one register copy moved into its loop, 12 fewer registers) and one
     * spilling complex-math test (+8 bytes) */
    .o3_codegen_default = true,
    .const_addrspace = 4, /* .const */
    .foreign_calls = true,
};
