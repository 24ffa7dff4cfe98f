/* cg_const.c - constant arrays (cuda.const.array_like, module-level
 * np.array literals) as LLVM globals.
 *
 * Each array is one internal constant global holding the packed elements,
 * in the target's constant address space (4 on NVPTX: `.const` in PTX; 0
 * on the host).  The array value handed to the rest of codegen is the usual
 * {data, shape, strides} struct with a generic data pointer; on NVPTX the
 * infer-address-spaces pass turns loads through it back into ld.const.
 * A record array's elements are their bytes.
 * Functions using the same array share the global (named by the array's
 * name and a hash of its bytes). */
#include "codegen/cg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"

/* A record element: its bytes as [size x i8] (cg_mem_type's). */
static LLVMValueRef record_const(LLVMTypeRef et, const Type *t, const uint8_t *p) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(LLVMGetTypeContext(et));
  LLVMValueRef *b = malloc(sizeof *b * (size_t)t->size);
  if (!b)
    return NULL;
  for (int i = 0; i < t->size; i++)
    b[i] = LLVMConstInt(i8, p[i], 0);
  LLVMValueRef v = LLVMConstArray2(i8, b, (uint64_t)t->size);
  free(b);
  return v;
}

static LLVMValueRef elem_const(LLVMTypeRef et, const Type *t, const uint8_t *p) {
  if (t->kind == TY_RECORD)
    return record_const(et, t, p);
  if (t->kind == TY_C64 || t->kind == TY_C128) { /* {re, im}, each of the part's width */
    double d[2];
    if (t->kind == TY_C64) {
      float f[2];
      memcpy(f, p, 8);
      d[0] = f[0], d[1] = f[1];
    } else {
      memcpy(d, p, 16);
    }
    LLVMTypeRef pt = LLVMStructGetTypeAtIndex(et, 0);
    LLVMValueRef parts[2] = {LLVMConstReal(pt, d[0]), LLVMConstReal(pt, d[1])};
    return LLVMConstStructInContext(LLVMGetTypeContext(et), parts, 2, 0);
  }
  if (cg_is_float(t)) {
    double d;
    if (t->kind == TY_F32) {
      float f;
      memcpy(&f, p, 4);
      d = f;
    } else {
      memcpy(&d, p, 8);
    }
    return LLVMConstReal(et, d);
  }
  uint64_t v = 0;
  memcpy(&v, p, (size_t)cg_size(t)); /* little-endian host, as packed */
  return LLVMConstInt(et, v, 0);
}

static LLVMValueRef const_global(Cg *cg, const Inst *in, LLVMTypeRef et, int64_t n) {
  const Type *t = in->tyimm->elem;
  size_t bytes = (size_t)(n * cg_size(t));
  char name[160];
  snprintf(name, sizeof name, "__kjit_const_%.100s_%016llx", in->str ? in->str : "array",
           (unsigned long long)hash_bytes(hash_u64(HASH_SEED, (uint64_t)t->kind), in->data, bytes));
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
  if (g)
    return g;
  LLVMValueRef *vals = malloc(sizeof *vals * (size_t)(n ? n : 1));
  if (!vals)
    return NULL;
  for (int64_t i = 0; i < n; i++)
    if (!(vals[i] = elem_const(et, t, (const uint8_t *)in->data + i * cg_size(t)))) {
      free(vals);
      return NULL;
    }
  LLVMValueRef init = LLVMConstArray2(et, vals, (uint64_t)n);
  free(vals);
  g = LLVMAddGlobalInAddressSpace(cg->mod, LLVMTypeOf(init), name, cg->hooks->const_addrspace);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetAlignment(g, 16);
  return g;
}

LLVMValueRef cg_lower_const_array(Cg *cg, const Inst *in) {
  const Type *at = in->tyimm;
  if (!at || at->kind != TY_ARRAY || !in->shape || !in->data) {
    cg_fail(cg, in, "constant array without a type, shape or data");
    return NULL;
  }
  int64_t n = 1, st = cg_size(at->elem);
  LLVMValueRef shape[TY_MAX_NDIM], strides[TY_MAX_NDIM];
  for (int k = 0; k < at->ndim; k++)
    n *= in->shape[k];
  for (int k = at->ndim - 1; k >= 0; st *= in->shape[k], k--) {
    shape[k] = cg_const_i64(cg, in->shape[k]);
    strides[k] = cg_const_i64(cg, st);
  }
  LLVMValueRef g = const_global(cg, in, cg_mem_type(cg, at->elem), n);
  if (!g)
    return NULL;
  if (cg->hooks->const_addrspace)
    g = LLVMConstAddrSpaceCast(g, cg->t_ptr);
  return cg_make_array(cg, at->ndim, g, shape, strides);
}

/* A device array global the host bound (typing/infer_host_global.c): its address is
 * embedded as Numba embeds a captured device array's pointer, a generic
 * pointer into the memory the host allocated, so kernels may write it. */
LLVMValueRef cg_lower_host_global(Cg *cg, const Inst *in) {
  const Type *at = in->tyimm;
  if (!at || at->kind != TY_ARRAY || !in->shape) {
    cg_fail(cg, in, "host global without a type or shape");
    return NULL;
  }
  LLVMValueRef shape[TY_MAX_NDIM], strides[TY_MAX_NDIM];
  for (int k = 0; k < at->ndim; k++) {
    shape[k] = cg_const_i64(cg, in->shape[k]);
    strides[k] = cg_const_i64(cg, in->shape[at->ndim + k]);
  }
  LLVMValueRef p = LLVMConstIntToPtr(cg_const_i64(cg, in->ival), cg->t_ptr);
  return cg_make_array(cg, at->ndim, p, shape, strides);
}
