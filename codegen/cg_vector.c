/* cg_vector.c - OP_VECTOR: a CUDA vector type built from numbers (already
 * of its base type after typing) and smaller vectors, whose elements are
 * copied in order.  A vector is an LLVM struct of its elements, as tuples. */
#include "codegen/cg_internal.h"

LLVMValueRef cg_lower_vector(Cg *cg, const Inst *in) {
  LLVMTypeRef t = cg_type(cg, in->type);
  if (!t || LLVMGetTypeKind(t) != LLVMStructTypeKind) {
    cg_fail(cg, in, "vector of unexpected type");
    return NULL;
  }
  unsigned n = LLVMCountStructElementTypes(t), pos = 0;
  LLVMValueRef v = LLVMGetPoison(t);
  for (int k = 0; k < in->nargs; k++) {
    LLVMValueRef a = cg_arg(cg, in, k);
    if (!a)
      return NULL;
    bool whole = LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMStructTypeKind;
    unsigned m = whole ? LLVMCountStructElementTypes(LLVMTypeOf(a)) : 1;
    for (unsigned i = 0; i < m && pos < n; i++, pos++) {
      LLVMValueRef e = whole ? LLVMBuildExtractValue(cg->b, a, i, "") : a;
      if (LLVMTypeOf(e) != LLVMStructGetTypeAtIndex(t, pos)) {
        cg_fail(cg, in, "vector element %u has the wrong type", pos);
        return NULL;
      }
      v = LLVMBuildInsertValue(cg->b, v, e, pos, "");
    }
  }
  if (pos != n)
    cg_fail(cg, in, "vector with %u of %u elements", pos, n);
  return pos == n ? v : NULL;
}
