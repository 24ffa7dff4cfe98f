/* cg_record.c - record (structured dtype) fields: REC_GET and REC_SET.
 *
 * A record value is a pointer to its bytes (an element of a record array,
 * a record argument passed by reference, or a record inside a record), so
 * a field is the byte offset from it.  Numbers load and store with their
 * natural alignment where every element of the array keeps it (the
 * itemsize is a multiple of it; typing/infer_record.c has already refused
 * misaligned offsets), else byte-aligned, which LLVM splits into safe
 * narrower accesses.  Bools are bytes in memory as in arrays. */
#include "codegen/cg_internal.h"

/* The record operand and the address of field in->ival; NULL after a diag. */
static LLVMValueRef field_ptr(Cg *cg, const Inst *in, const Type **rec) {
  LLVMValueRef r = cg_arg(cg, in, 0);
  *rec = cg_arg_type(cg, in, 0);
  if (!r || !*rec || (*rec)->kind != TY_RECORD || in->ival < 0 || in->ival >= (*rec)->nelems) {
    if (!cg->failed)
      cg_fail(cg, in, "record field of a value that is not a record");
    return NULL;
  }
  LLVMValueRef off = cg_const_i64(cg, (*rec)->offsets[in->ival]);
  return LLVMBuildGEP2(cg->b, cg->t_i8, r, &off, 1, "");
}

static unsigned field_align(const Type *rec, const Type *ft) {
  int a = ty_align(ft);
  return rec->size % a == 0 ? (unsigned)a : 1u;
}

/* A nested array field read as a C array viewing the record's bytes. */
static LLVMValueRef nested_view(Cg *cg, LLVMValueRef p, const Type *ft) {
  LLVMValueRef shape[TY_MAX_NDIM], strides[TY_MAX_NDIM];
  int64_t st = ty_size(ft->elem);
  for (int k = ft->ndim - 1; k >= 0; st *= ft->dims[k], k--) {
    shape[k] = cg_const_i64(cg, ft->dims[k]);
    strides[k] = cg_const_i64(cg, st);
  }
  return cg_make_array(cg, ft->ndim, p, shape, strides);
}

LLVMValueRef cg_lower_rec_get(Cg *cg, const Inst *in) {
  const Type *rec;
  LLVMValueRef p = field_ptr(cg, in, &rec);
  if (!p)
    return NULL;
  const Type *ft = rec->elems[in->ival];
  if (ft->kind == TY_RECORD)
    return p;
  if (ft->kind == TY_NESTED)
    return nested_view(cg, p, ft);
  LLVMValueRef v = LLVMBuildLoad2(cg->b, cg_mem_type(cg, ft), p, "");
  LLVMSetAlignment(v, field_align(rec, ft));
  if (ft->kind == TY_BOOL)
    v = LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstInt(cg->t_i8, 0, 0), "");
  return v;
}

bool cg_lower_rec_set(Cg *cg, const Inst *in) {
  const Type *rec;
  LLVMValueRef p = field_ptr(cg, in, &rec), v = cg_arg(cg, in, 1);
  if (!p || !v)
    return false;
  const Type *ft = rec->elems[in->ival];
  if (ft->kind == TY_RECORD) { /* r.sub = other.sub: the bytes are copied */
    LLVMBuildMemMove(cg->b, p, 1, v, 1, cg_const_i64(cg, ft->size));
    return true;
  }
  if (ft->kind == TY_NESTED) { /* r.v = arr: the field's elements, from arr's data (Numba's
                                  record_setattr copies them without checking arr's size) */
    LLVMValueRef data = LLVMBuildExtractValue(cg->b, v, 0, "");
    LLVMBuildMemMove(cg->b, p, 1, data, 1, cg_const_i64(cg, ft->size));
    return true;
  }
  if (LLVMTypeOf(v) != cg_type(cg, ft)) {
    cg_fail(cg, in, "stored value does not have the field's type");
    return false;
  }
  if (ft->kind == TY_BOOL)
    v = LLVMBuildZExt(cg->b, v, cg->t_i8, "");
  LLVMSetAlignment(LLVMBuildStore(cg->b, v, p), field_align(rec, ft));
  return true;
}
