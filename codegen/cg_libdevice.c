/* cg_libdevice.c - OP_LIBDEVICE: calls of libdevice's __nv_<f>.
 *
 * Typing has converted every operand to its declared parameter type, so the
 * call is direct.  A pointer parameter gets a slot in the entry block; its
 * value after the call is an element of the tuple result.  The same symbol
 * is called on both targets: on NVPTX libdevice.c links libdevice's
 * definition, on the CPU target the JIT resolves it to kjit's host version
 * (host/host_libdevice.c). */
#include <stdio.h>

#include "codegen/cg_internal.h"
#include "ir/libdevice_fns.h"

static LLVMTypeRef letter_type(Cg *cg, char c) {
  return c == 'v' ? cg->t_void : cg_type(cg, ir_libdevice_type(c));
}

/* The tuple (or single value) of the return value and the pointed-to slots. */
static LLVMValueRef gather(Cg *cg, const Inst *in, LLVMValueRef ret, LLVMValueRef *slots,
                           LLVMTypeRef *slot_ty, int nslots) {
  LLVMValueRef el[4];
  int n = 0;
  if (ret)
    el[n++] = ret;
  for (int i = 0; i < nslots; i++)
    el[n++] = LLVMBuildLoad2(cg->b, slot_ty[i], slots[i], "");
  if (n == 1)
    return el[0];
  LLVMTypeRef t = cg_type(cg, in->type);
  if (!t || LLVMGetTypeKind(t) != LLVMStructTypeKind || (int)LLVMCountStructElementTypes(t) != n) {
    cg_fail(cg, in, "libdevice result of unexpected type");
    return NULL;
  }
  LLVMValueRef v = LLVMGetPoison(t);
  for (int i = 0; i < n; i++)
    v = LLVMBuildInsertValue(cg->b, v, el[i], (unsigned)i, "");
  return v;
}

LLVMValueRef cg_lower_libdevice(Cg *cg, const Inst *in) {
  if (in->ival < 0 || in->ival >= LD__COUNT || in->nargs != ir_libdevice_nparams((int)in->ival)) {
    cg_fail(cg, in, "malformed libdevice call");
    return NULL;
  }
  const LibdeviceInfo *li = &ir_libdevice_info[in->ival];
  LLVMValueRef args[6], slots[4];
  LLVMTypeRef tys[6], slot_ty[4];
  int n = 0, k = 0, nslots = 0;
  for (const char *c = li->args; *c && n < 6; c++, n++) {
    if (*c == '*') {
      slot_ty[nslots] = letter_type(cg, *++c);
      slots[nslots] = cg_entry_alloca(cg, slot_ty[nslots], "ld.out");
      args[n] = slots[nslots++];
      tys[n] = cg->t_ptr;
      continue;
    }
    if (!(args[n] = cg_arg(cg, in, k++)))
      return NULL;
    tys[n] = letter_type(cg, *c);
    if (LLVMTypeOf(args[n]) != tys[n]) {
      cg_fail(cg, in, "libdevice operand %d has an unexpected type", k);
      return NULL;
    }
  }
  char name[64];
  snprintf(name, sizeof name, "__nv_%s", li->name);
  LLVMTypeRef fty = LLVMFunctionType(letter_type(cg, li->ret[0]), tys, (unsigned)n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, name);
  if (!fn)
    fn = LLVMAddFunction(cg->mod, name, fty);
  else if (LLVMGlobalGetValueType(fn) != fty) {
    cg_fail(cg, in, "conflicting declarations of %s", name);
    return NULL;
  }
  LLVMValueRef r = LLVMBuildCall2(cg->b, fty, fn, args, (unsigned)n, "");
  return gather(cg, in, li->ret[0] == 'v' ? NULL : r, slots, slot_ty, nslots);
}
