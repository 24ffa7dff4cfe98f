/* cg_foreign.c - calls to foreign device functions (cuda.declare_device).
 *
 * Numba's device function ABI, which CUDA C code written for Numba follows:
 *     extern "C" __device__ int f(T *ret, A0 a0, A1 a1, ...);
 * the int is a status (0; ignored, as Numba ignores it for foreign code),
 * the result is written through ret, a pointer to a slot in the caller's
 * local memory.  With abi='c' the function is a plain C one,
 *     extern "C" __device__ T f(A0 a0, A1 a1, ...);  The symbol is only declared here; the definition comes
 * from the linked CUDA C (cuda/link.c).  Sub-32-bit integer and bool
 * arguments carry signext/zeroext, as the C ABI promotes them.  Targets
 * without foreign code (the host CPU) report the call as an error. */
#include "codegen/cg_internal.h"

/* signext/zeroext for a sub-32-bit integer parameter type, else NULL. */
static LLVMAttributeRef ext_attr(Cg *cg, const Type *t) {
  if (!ty_is_number(t) || cg_bits(t) >= 32 || cg_is_float(t)) /* pointers: none */
    return NULL;
  const char *a = cg_is_signed(t) ? "signext" : "zeroext";
  return LLVMCreateEnumAttribute(cg->ctx, LLVMGetEnumAttributeKindForName(a, strlen(a)), 0);
}

/* The C ABI's return type: bool travels as a zero-extended i8 in memory
 * and registers alike, as clang returns it. */
static LLVMTypeRef c_ret_type(Cg *cg, const IrExtern *e) {
  if (!e->sig.ret || e->sig.ret->kind == TY_VOID)
    return cg->t_void;
  return cg_mem_type(cg, e->sig.ret);
}

/* Parameter k of the call (0-based, the ret pointer excluded) is LLVM
 * parameter k + first, first = 1 with Numba's ABI (the ret pointer), 0 with C. */
static LLVMValueRef declare(Cg *cg, const IrExtern *e, LLVMTypeRef *fty) {
  int n = e->sig.nparams, first = e->c_abi ? 0 : 1;
  LLVMTypeRef ps[64];
  ps[0] = cg->t_ptr;
  for (int i = 0; i < n && i < 63; i++)
    ps[i + first] = cg_type(cg, e->sig.params[i]);
  LLVMTypeRef rt = e->c_abi ? c_ret_type(cg, e) : cg->t_i32;
  *fty = LLVMFunctionType(rt, ps, (unsigned)(n + first), 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, e->symbol);
  if (fn)
    return fn;
  fn = LLVMAddFunction(cg->mod, e->symbol, *fty);
  for (int i = 0; i < n; i++) {
    LLVMAttributeRef a = ext_attr(cg, e->sig.params[i]);
    if (a) /* attribute index: 0 the return value, then the parameters from 1 */
      LLVMAddAttributeAtIndex(fn, (unsigned)(i + first + 1), a);
  }
  if (e->c_abi && e->sig.ret && e->sig.ret->kind != TY_VOID && ext_attr(cg, e->sig.ret))
    LLVMAddAttributeAtIndex(fn, LLVMAttributeReturnIndex, ext_attr(cg, e->sig.ret));
  return fn;
}

LLVMValueRef cg_lower_foreign_call(Cg *cg, const Inst *in) {
  const IrExtern *e = in->ext;
  if (!e || in->nargs != e->sig.nparams || in->nargs > 63) {
    cg_fail(cg, in, "malformed foreign call");
    return NULL;
  }
  if (!cg->hooks->foreign_calls) {
    diag_error(cg->diags, E_CG_UNSUPPORTED, in->loc,
               "run it on the cuda target, or write the function in Python with "
               "@cuda.jit(device=True)",
               "foreign function '%s' ('%s' from CUDA C) is not available on the %s target",
               e->name, e->symbol, cg->hooks->name);
    cg->failed = true;
    return NULL;
  }
  bool has_ret = e->sig.ret && e->sig.ret->kind != TY_VOID;
  int first = e->c_abi ? 0 : 1;
  LLVMTypeRef rt = has_ret ? cg_mem_type(cg, e->sig.ret) : cg->t_i32;
  LLVMValueRef slot = e->c_abi ? NULL : cg_entry_alloca(cg, rt, "ret");
  LLVMValueRef args[64];
  args[0] = slot;
  for (int i = 0; i < in->nargs; i++)
    if (!(args[i + first] = cg_arg(cg, in, i)))
      return NULL;
  LLVMTypeRef fty;
  LLVMValueRef fn = declare(cg, e, &fty);
  LLVMValueRef call = LLVMBuildCall2(cg->b, fty, fn, args, (unsigned)(in->nargs + first), "");
  for (int i = 0; i < in->nargs; i++) {
    LLVMAttributeRef a = ext_attr(cg, e->sig.params[i]);
    if (a)
      LLVMAddCallSiteAttribute(call, (unsigned)(i + first + 1), a);
  }
  if (!has_ret)
    return NULL;
  LLVMValueRef v = e->c_abi ? call : LLVMBuildLoad2(cg->b, rt, slot, "");
  return e->sig.ret->kind == TY_BOOL ? LLVMBuildTrunc(cg->b, v, cg->t_i1, "") : v;
}
