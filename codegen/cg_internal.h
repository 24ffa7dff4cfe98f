/* cg_internal.h - what the files of codegen/ share (never included elsewhere).
 *
 * One Cg struct carries everything one cg_emit call needs: its own LLVM
 * context and module, the builder, the target hooks and, while a function is
 * being lowered, that function's per-instruction values and local slots.
 * Target-specific lowering (special registers, barriers, shared memory,
 * printf, kernel entry ABI, math library names) goes through CgTargetHooks,
 * so a new target adds one file and never touches cg_expr.c.
 * Invariant: after any internal error cg->failed is set and the module is
 * never handed to LLVM's verifier-dependent passes or the backend. */
#ifndef KJIT_CODEGEN_CG_INTERNAL_H
#define KJIT_CODEGEN_CG_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "codegen/codegen.h"

/* Diagnostic codes: common/diag_codes.h (E5xx). */

/* Parameters of one function (as many as CUDA's 4 KiB of 8-byte kernel
 * parameters; the runtime's launch limits are the same), and the buffers
 * that hold them with the target's hidden parameters (at most 8). */
#define CG_MAX_PARAMS 512
#define CG_MAX_ARGS (CG_MAX_PARAMS + 8)

typedef struct Cg Cg;

/* Everything that differs between the GPU and the host CPU target. */
typedef struct CgTargetHooks {
  const char *name;
  const char *math_prefix;   /* "__nv_" (libdevice) or "" (libm) */
  /* tid/ctaid/ntid/nctaid/laneid/warpsize/activemask/lanemask_lt as i32 */
  LLVMValueRef (*special_reg)(Cg *cg, IrOp op, int dim);
  /* syncthreads (pred NULL) and its count/and/or forms (i32 in, i32 out) */
  LLVMValueRef (*barrier)(Cg *cg, IrOp op, LLVMValueRef pred);
  void (*syncwarp)(Cg *cg, LLVMValueRef mask);
  void (*fence)(Cg *cg, int scope);          /* 0 block, 1 device, 2 system */
  /* cuda.cg.this_grid()'s value (an i64 handle), and g.sync() on it: a
   * barrier of every thread of the grid (cg_grid.c) */
  LLVMValueRef (*grid_group)(Cg *cg);
  void (*grid_sync)(Cg *cg, LLVMValueRef group);
  /* warp collectives (cg_warp.c splits and bitcasts the values): shfl of an
   * i32 (mode = ShflMode; lane = source lane, delta or xor mask, i32);
   * vote (kind = VoteKind, pred i1) -> i1, ballot -> i32; match of an i32
   * or i64 -> i32 mask, and for match_all its i1 predicate in *pred */
  LLVMValueRef (*shfl)(Cg *cg, int mode, LLVMValueRef mask, LLVMValueRef v, LLVMValueRef lane);
  LLVMValueRef (*vote)(Cg *cg, int kind, LLVMValueRef mask, LLVMValueRef pred);
  LLVMValueRef (*match)(Cg *cg, bool all, LLVMValueRef mask, LLVMValueRef v, LLVMValueRef *pred);
  /* generic pointer to a block-shared [n x elem] unique per (function, id) */
  LLVMValueRef (*shared_alloc)(Cg *cg, LLVMTypeRef elem, int64_t n, int64_t id);
  /* dynamic shared memory: generic pointer, and its size in bytes (i64) */
  LLVMValueRef (*dyn_shared)(Cg *cg, LLVMValueRef *bytes);
  /* printf(fmt, args...) with args already promoted (i64/double/ptr) */
  void (*print)(Cg *cg, LLVMValueRef fmt, LLVMValueRef *args, int nargs);
  /* debug=True: index (i64, after wraparound) is outside [0, extent) on
   * axis of the array named `array`, indexed at in->loc.  Reports it at the
   * insert point; true when the thread goes on (the access is then
   * skipped), false when the block was terminated (trap, unreachable). */
  bool (*index_error)(Cg *cg, const Inst *in, const char *array, LLVMValueRef index, int axis,
                      LLVMValueRef extent);
  /* debug=True: the assert at in->loc failed (message in->str).  Reports
   * it at the insert point and leaves the block open: the thread goes on
   * past the assert (CPU) or has trapped (GPU: llvm.trap never returns). */
  void (*assert_fail)(Cg *cg, const Inst *in);
  /* ends the thread, as a raised exception does in Numba (the kernel
   * returns; a device function returns its error status, which every
   * caller passes on); the builder is left in a new block nothing reaches */
  void (*end_thread)(Cg *cg);
  /* optional: after a call of a function that may end the thread, end this
   * one's too if it did (the host's HostCtx.raised); NULL where end_thread
   * needs no help (the GPU's `exit`) */
  void (*after_end_call)(Cg *cg);
  /* mark fn as an entry point (calling convention, annotations) */
  void (*mark_kernel)(Cg *cg, LLVMValueRef fn, const IrFunc *f);
  /* the data pointer of a kernel array parameter as seen inside the kernel */
  LLVMValueRef (*param_pointer)(Cg *cg, LLVMValueRef p);
  /* optional: atomic inc/dec of a 32-bit int (old >= v ? 0 : old + 1 /
   * old == 0 || old > v ? v : old - 1), NULL = atomicrmw uinc/udec_wrap */
  LLVMValueRef (*atomic_incdec)(Cg *cg, bool inc, LLVMValueRef p, LLVMValueRef v);
  /* optional: cuda.ffs of an i32 (1 + the lowest set bit's index, 0 for
   * 0); NULL = the generic cttz form in cg_math.c */
  LLVMValueRef (*ffs32)(Cg *cg, LLVMValueRef x);
  /* optional: float -> int conversion (NULL = the NVPTX-style default in
   * cg_expr.c, which relies on the backend's saturating cvt) */
  LLVMValueRef (*float_to_int)(Cg *cg, LLVMValueRef v, const Type *to);
  /* optional: leading parameters every function gets (the host's HostCtx*
   * and thread index); returns their count and fills types (at most 8).
   * A call forwards the caller's own hidden parameters. */
  int (*hidden_params)(Cg *cg, LLVMTypeRef *types);
  /* after all functions are emitted: link libraries (libdevice...), build
   * entry wrappers (host) */
  bool (*finish_module)(Cg *cg);
  /* optional: a compile whose root is a device function (compiled alone)
   * gets an external entry of the function's name with the C ABI */
  void (*device_entry)(Cg *cg, const IrFunc *f);
  /* passes run before the default<On> pipeline ("" for none) */
  const char *pre_passes;
  /* optional: the whole pipeline at opt level 3, instead of pre_passes
   * and default<O3> (a target-tuned middle end) */
  const char *o3_pipeline;
  /* optional, with o3_pipeline: called after it on the module, then
   * o3_late runs (loop hints that need the simplified loops) */
  void (*o3_mid)(Cg *cg);
  const char *o3_late;
  void (*o3_after)(Cg *cg); /* optional: after o3_late (block layout) */
  /* optional: the pipeline at opt level 3 for a module without a cycle in
   * any function's control flow, instead of the three steps above */
  const char *o3_acyclic;
  /* at opt level 3, run the code generator at LLVM's default level */
  bool o3_codegen_default;
  unsigned const_addrspace;  /* LLVM address space of constant arrays (0 = generic) */
  bool foreign_calls;        /* can call linked CUDA C (cuda.declare_device) */
} CgTargetHooks;

extern const CgTargetHooks cg_nvptx_hooks;
extern const CgTargetHooks cg_host_hooks;   /* cg_host.c */

/* Session-level parsed libdevice (codegen/libdevice.c). */
typedef struct CgLibdevice CgLibdevice;
CgLibdevice *cg_libdevice_new(const char *path); /* NULL: the build's default; knows
                                                    the file's identity only */
void cg_libdevice_load(CgLibdevice *ld);   /* reads the bitcode, once */
void cg_libdevice_free(CgLibdevice *ld);
/* Link the __nv_* functions the module references; diagnostics on failure. */
bool cg_libdevice_link(CgSession *s, Cg *cg);
/* The session's libdevice, its bitcode read when `bytes` (under the
 * session lock: compiles on several threads share it). */
CgLibdevice *cg_session_libdevice(CgSession *s, bool bytes);

struct Cg {
  CgSession *session;
  const CgTarget *target;
  const CgOptions *opts;
  const CgTargetHooks *hooks;
  Diags *diags;
  bool failed;                /* an internal error was reported */
  LLVMContextRef ctx;         /* disposed at the end unless borrowed_ctx */
  bool borrowed_ctx;          /* ctx belongs to an ORC ThreadSafeContext */
  LLVMModuleRef mod;          /* disposed first; NULL once handed to ORC */
  LLVMBuilderRef b;
  LLVMTargetMachineRef tm;
  char tm_key[256];          /* what tm was made for, to return it to the
                                session's pool (cg.c); "" when not pooled */
  int tm_uses;               /* compiles tm served before this one */
  /* common types */
  LLVMTypeRef t_void, t_i1, t_i8, t_i16, t_i32, t_i64, t_f16, t_f32, t_f64, t_ptr;
  /* debug info (lineinfo/debug) */
  LLVMDIBuilderRef dib;       /* NULL when no line tables are wanted */
  LLVMMetadataRef di_file, di_cu, di_scope;
  /* the function being lowered */
  const IrFunc *f;
  LLVMValueRef fn;
  LLVMValueRef *vals;         /* per IR instruction: its value or NULL */
  LLVMValueRef *slots;        /* per IR local: its alloca or NULL */
  bool *narrow;               /* per IR local: an int64 kept in an i32 slot
                                 (ir_narrow_locals: every value fits) */
  uint8_t *narrow_inst;       /* per IR instruction: IR_NARROW_GRID or
                                 IR_NARROW_CMP (ir_narrow_insts: emitted in
                                 32 bits, same int64 result), or 0 */
  bool *fixed_shape;          /* per IR local: holds a shared, local or
                                 constant array (cg_mem.c keeps its 64-bit
                                 offsets) */
  bool *in_loop;              /* per IR block: may lie in a loop (cg_mem.c
                                 keeps 64-bit offsets there for LLVM's
                                 strength reduction) */
  int cur_block;              /* the IR block being lowered */
  const IrCompile *compile;   /* the compile f belongs to */
  bool fits32;                /* its launch fact (ir_compile_fits32) */
  LLVMBasicBlockRef *bbs;     /* per IR block */
  LLVMBasicBlockRef entry;    /* allocas live here */
  LLVMValueRef dyn_shared;    /* module-level dynamic shared global, lazily */
  const IrFunc *cabi;         /* host JIT: device function that also gets an
                                 external <symbol>__cabi wrapper (kjit_call) */
};

/* ---- cg.c: the module pipeline (cg_emit and the host JIT share it) ---- */
void cg_init_targets(void);                             /* NVPTX + native, once */
/* ctx NULL: Cg creates (and later disposes) its own LLVM context */
void cg_init(Cg *cg, LLVMContextRef ctx);
bool cg_create_target_machine(Cg *cg);
/* debug info, declare + define every function, verify */
bool cg_lower_module(Cg *cg, IrCompile *const *compiles, int ncompiles);
bool cg_optimize(Cg *cg);                                /* finish_module + passes */
bool cg_emit_assembly(Cg *cg, char **out, size_t *len);  /* the module as .s text (PTX) */
void cg_dispose(Cg *cg);
/* Stores through a phi of scalar allocas as one store per alloca, so SROA
 * can promote them (cg_phistore.c; the CUDA target's o3_mid). */
void cg_split_phi_stores(Cg *cg);
/* Small local arrays indexed at run time as one scalar per element and
 * select chains, so SROA keeps them in registers (cg_localsel.c; o3_mid). */
void cg_select_local_arrays(Cg *cg);
/* Divisions by a loop-invariant divisor through a reciprocal computed once
 * before the loop (cg_invdiv.c; the CUDA target's o3_after). */
void cg_invariant_divisions(Cg *cg);
/* The name of a cuda.local.array's alloca (inlining and SROA keep it as a
 * prefix): cg_localsel.c takes only these, never libdevice's own arrays. */
#define CG_LOCAL_ARRAY_NAME "local"
int cg_nhidden(Cg *cg);                                  /* hidden leading params */

/* ---- cg.c: types, diagnostics, helpers ---- */
LLVMTypeRef cg_type(Cg *cg, const Type *t);            /* value type */
LLVMTypeRef cg_mem_type(Cg *cg, const Type *t);        /* in-memory (bool = i8) */
LLVMTypeRef cg_array_struct(Cg *cg, int ndim);
/* codegen's own scalar Type objects (compared by kind, so interchangeable
 * with ir/type.c's singletons) */
const Type *cg_scalar(TypeKind k);
bool cg_is_int(const Type *t);
bool cg_is_signed(const Type *t);
bool cg_is_float(const Type *t);
int cg_bits(const Type *t);
int cg_size(const Type *t);
void cg_fail(Cg *cg, const Inst *in, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cg_unsupported(Cg *cg, const Inst *in, const char *what);
LLVMValueRef cg_entry_alloca(Cg *cg, LLVMTypeRef ty, const char *name);
LLVMValueRef cg_fp(Cg *cg, LLVMValueRef v);            /* fast-math flags */
void cg_set_fastmath_attrs(Cg *cg, LLVMValueRef fn);    /* fastmath function attributes */
/* call an LLVM intrinsic, overloaded on the given types */
LLVMValueRef cg_intrinsic(Cg *cg, const char *name, LLVMTypeRef *over, int nover,
                          LLVMValueRef *args, int nargs);
/* call (declaring on first use) an external function by name */
LLVMValueRef cg_call_extern(Cg *cg, const char *name, LLVMTypeRef ret,
                            LLVMValueRef *args, int nargs);
LLVMValueRef cg_const_i64(Cg *cg, int64_t v);
LLVMValueRef cg_const_i32(Cg *cg, int32_t v);
LLVMValueRef cg_cstring(Cg *cg, const char *s, const char *name); /* generic ptr */
LLVMValueRef cg_make_array(Cg *cg, int ndim, LLVMValueRef data,
                           LLVMValueRef *shape, LLVMValueRef *strides);

/* ---- cg_expr.c: instruction lowering ---- */
bool cg_lower_inst(Cg *cg, int idx);
LLVMValueRef cg_convert(Cg *cg, LLVMValueRef v, const Type *from, const Type *to);
LLVMValueRef cg_truth(Cg *cg, LLVMValueRef v, const Type *t);
LLVMValueRef cg_arg(Cg *cg, const Inst *in, int k);    /* NULL after a diag */
const Type *cg_arg_type(Cg *cg, const Inst *in, int k);

/* ---- cg_mem.c: arrays, shared/local memory, atomics, print ---- */
LLVMValueRef cg_lower_array_load(Cg *cg, const Inst *in);
LLVMValueRef cg_lower_rec_get(Cg *cg, const Inst *in);         /* cg_record.c */
bool cg_lower_rec_set(Cg *cg, const Inst *in);
bool cg_lower_array_store(Cg *cg, const Inst *in);
LLVMValueRef cg_lower_array_attr(Cg *cg, const Inst *in);
/* Address of arr[idx[0..n)] (n == the array type at's ndim, i64 indices):
 * Numba's negative-index wraparound, and with debug/boundscheck the checks
 * (reported at `in`, whose operand 0 must be the array). */
LLVMValueRef cg_array_elem_ptr(Cg *cg, const Inst *in, LLVMValueRef arr, const Type *at,
                               LLVMValueRef *idx, int n);
LLVMValueRef cg_lower_array_alloc(Cg *cg, const Inst *in);
/* The source name of in's array operand 0 (the local it was loaded from),
 * else "<array>"; for index error messages. */
const char *cg_array_name(const Cg *cg, const Inst *in);
/* ---- cg_view.c: ARRAY_VIEW, ARRAY_T, TUPLE_INDEX ---- */
LLVMValueRef cg_lower_array_view(Cg *cg, const Inst *in);
LLVMValueRef cg_lower_array_t(Cg *cg, const Inst *in);
LLVMValueRef cg_array_part(Cg *cg, const Inst *in, LLVMValueRef arr, bool imag);
LLVMValueRef cg_lower_tuple_index(Cg *cg, const Inst *in);
/* ---- cg_grid.c: GRID_GROUP, GRID_SYNC, and the NVPTX hooks for them ---- */
LLVMValueRef cg_lower_grid_group(Cg *cg, const Inst *in);
LLVMValueRef cg_lower_grid_sync(Cg *cg, const Inst *in);
LLVMValueRef cg_nvptx_grid_group(Cg *cg);
void cg_nvptx_grid_sync(Cg *cg, LLVMValueRef group);
/* ---- cg_reshape.c: ARRAY_RESHAPE ---- */
LLVMValueRef cg_lower_array_reshape(Cg *cg, const Inst *in);
/* ---- cg_const.c ---- */
LLVMValueRef cg_lower_const_array(Cg *cg, const Inst *in);   /* OP_CONST_ARRAY */
LLVMValueRef cg_lower_host_global(Cg *cg, const Inst *in);   /* OP_HOST_GLOBAL */
LLVMValueRef cg_lower_array_reduce(Cg *cg, const Inst *in);  /* OP_ARRAY_REDUCE (cg_reduce.c) */
/* ---- cg_foreign.c ---- */
LLVMValueRef cg_lower_foreign_call(Cg *cg, const Inst *in);  /* OP_CALL_FOREIGN */
LLVMValueRef cg_lower_atomic(Cg *cg, const Inst *in);
bool cg_lower_print(Cg *cg, const Inst *in);
/* raise and the thread's end (cg_raise.c) */
void cg_lower_raise(Cg *cg, const Inst *in);
void cg_raise_text(Cg *cg, const Inst *in, const char *text, bool report);
void cg_after_call(Cg *cg, const IrFunc *callee);
bool cg_lower_array_fill(Cg *cg, const Inst *in);            /* OP_ARRAY_FILL (cg_fill.c) */
bool cg_lower_array_ufunc(Cg *cg, const Inst *in);           /* OP_ARRAY_UFUNC (cg_fill.c) */
/* cg_npmath.c: ufunc u (not power) of values a of loop type t; in for messages */
LLVMValueRef cg_npufunc_apply(Cg *cg, const Inst *in, int u, LLVMValueRef *a, const Type *t);
/* cg_math.c: intrinsic id of values a already of computation type t */
LLVMValueRef cg_intrinsic_apply(Cg *cg, const Inst *in, int id, LLVMValueRef *a, const Type *t);

/* ---- cg_warp.c: SHFL, VOTE, MATCH ---- */
LLVMValueRef cg_lower_warp(Cg *cg, const Inst *in);

/* ---- cg_random.c: RANDOM (numba.cuda.random), sets cg->vals[idx] ---- */
bool cg_lower_random(Cg *cg, int idx);

/* ---- cg_complex.c / cg_half.c: complex arithmetic, NUMFN ---- */
LLVMValueRef cg_complex_binary(Cg *cg, const Inst *in, LLVMValueRef a, LLVMValueRef b, const Type *t);
LLVMValueRef cg_complex_neg(Cg *cg, LLVMValueRef a, const Type *t);
LLVMValueRef cg_complex_abs(Cg *cg, LLVMValueRef a, const Type *t);   /* -> its float */
LLVMValueRef cg_lower_numfn(Cg *cg, const Inst *in);

/* ---- cg_bf16.c: OP_BF16, and CASTs to or from bfloat16 ---- */
LLVMValueRef cg_lower_bf16(Cg *cg, const Inst *in);
LLVMValueRef cg_bf16_cast(Cg *cg, const Inst *in, LLVMValueRef v, const Type *from, const Type *to);
/* ---- cg_fp8.c: OP_FP8, and CASTs to or from the fp8 types ---- */
LLVMValueRef cg_lower_fp8(Cg *cg, const Inst *in);
LLVMValueRef cg_fp8_cast(Cg *cg, const Inst *in, LLVMValueRef v, const Type *from, const Type *to);

/* ---- cg_math.c: INTRINSIC and POW ---- */
LLVMValueRef cg_lower_intrinsic(Cg *cg, const Inst *in);
LLVMValueRef cg_lower_npufunc(Cg *cg, const Inst *in);
LLVMValueRef cg_lower_libdevice(Cg *cg, const Inst *in);    /* OP_LIBDEVICE (cg_libdevice.c) */
LLVMValueRef cg_lower_vector(Cg *cg, const Inst *in);       /* OP_VECTOR (cg_vector.c) */      /* OP_NPUFUNC (cg_npmath.c) */
LLVMValueRef cg_lower_pow(Cg *cg, const Inst *in, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef cg_math1(Cg *cg, const char *fn, LLVMValueRef x, const Type *t);
LLVMValueRef cg_math2(Cg *cg, const char *fn, LLVMValueRef x, LLVMValueRef y, const Type *t);

#endif
