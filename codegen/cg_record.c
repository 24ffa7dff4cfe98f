/* cg_record.c - record (structured dtype) fields: REC_GET and REC_SET.
 *
 * A record value is a pointer to its bytes (an element of a record array,
 * a record argument passed by reference, or a record inside a record), so
 * a field is the byte offset from it.  Numbers load and store with their
 * natural alignment where every element of the array keeps it (the
 * itemsize is a multiple of it; typing/infer_record.c has already refused
 * misaligned offsets), else byte-aligned, which LLVM splits into safe
 * narrower accesses.  Bools are bytes in memory as in arrays.  A string
 * field is only ever stored into, from a constant. */
#include <stdlib.h>

#include "codegen/cg_internal.h"
#include "common/xalloc.h"

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

/* One UTF-8 sequence at *s (of the lexer's decoded text) as a code point;
 * advances *s.  A malformed byte stands for itself. */
static uint32_t next_code(const unsigned char **s, const unsigned char *end) {
  const unsigned char *p = *s;
  int n = p[0] >= 0xF0 ? 3 : p[0] >= 0xE0 ? 2 : p[0] >= 0xC0 ? 1 : 0;
  uint32_t c = n == 3 ? p[0] & 0x07u : n == 2 ? p[0] & 0x0Fu : n == 1 ? p[0] & 0x1Fu : p[0];
  if (p + n >= end) /* truncated: the lead byte alone */
    n = 0, c = p[0];
  for (int i = 1; i <= n; i++)
    c = c << 6 | (p[i] & 0x3Fu);
  *s = p + 1 + n;
  return c;
}

/* r.s = 'abc' into a string field: Numba's casts (unicode to UnicodeCharSeq,
 * Bytes to CharSeq) copy min(len, n) characters and zero the rest, so the
 * field's bytes are a constant, stored at once. */
static bool store_charseq(Cg *cg, const Inst *in, LLVMValueRef p, const Type *rec,
                          const Type *ft) {
  const Inst *c = &cg->f->insts.data[in->args[1]];
  if (c->op != OP_CONST_STR) {
    cg_fail(cg, in, "a string field takes a string constant");
    return false;
  }
  int width = ft->align, count = ft->size / width, k = 0;
  unsigned char *bytes = xcalloc((size_t)ft->size, 1);
  const unsigned char *s = (const unsigned char *)(c->str ? c->str : ""), *end = s + c->ival;
  while (s < end && k < count) {
    uint32_t code = width == 1 ? *s++ : next_code(&s, end);
    for (int b = 0; b < width; b++) /* little-endian, as NumPy's '<U' */
      bytes[k * width + b] = (unsigned char)(code >> (8 * b));
    k++;
  }
  LLVMValueRef *elems = xmalloc(sizeof *elems * (size_t)ft->size);
  for (int i = 0; i < ft->size; i++)
    elems[i] = LLVMConstInt(cg->t_i8, bytes[i], 0);
  LLVMValueRef v = LLVMConstArray2(cg->t_i8, elems, (uint64_t)ft->size);
  LLVMSetAlignment(LLVMBuildStore(cg->b, v, p), field_align(rec, ft));
  free(elems);
  free(bytes);
  return true;
}

bool cg_lower_rec_set(Cg *cg, const Inst *in) {
  const Type *rec;
  LLVMValueRef p = field_ptr(cg, in, &rec), v = cg_arg(cg, in, 1);
  if (!p || !v)
    return false;
  const Type *ft = rec->elems[in->ival];
  if (ft->kind == TY_CHARSEQ)
    return store_charseq(cg, in, p, rec, ft);
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
