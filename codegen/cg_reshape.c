/* cg_reshape.c - a.reshape(shape) (ARRAY_RESHAPE): a C view of the data.
 *
 * The operand is a C array (typing allows no other), so the view keeps its
 * data pointer and takes the new shape with C strides.  As NumPy/Numba's
 * normalize_reshape_value: one negative entry is inferred from the array's
 * size; a shape whose product differs from the size (Numba raises
 * ValueError, which a CUDA kernel without debug ignores) gives an empty
 * view (every extent 0), so no access through it leaves the array. */
#include "codegen/cg_internal.h"

/* The shape's n values (i64) from in's operands 1.. (ints or one tuple). */
static bool shape_values(Cg *cg, const Inst *in, LLVMValueRef *dims, int n) {
  const Type *t1 = cg_arg_type(cg, in, 1);
  LLVMValueRef v1 = cg_arg(cg, in, 1);
  if (!t1 || !v1)
    return false;
  for (int k = 0; k < n; k++) {
    dims[k] = t1->kind == TY_TUPLE ? LLVMBuildExtractValue(cg->b, v1, (unsigned)k, "")
                                   : cg_arg(cg, in, k + 1);
    if (!dims[k])
      return false;
  }
  return true;
}

/* Product of the array's extents. */
static LLVMValueRef array_size(Cg *cg, LLVMValueRef arr, int ndim) {
  LLVMValueRef size = cg_const_i64(cg, 1);
  for (int k = 0; k < ndim; k++) {
    LLVMValueRef ext = LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, arr, 1, ""), (unsigned)k, "");
    size = LLVMBuildMul(cg->b, size, ext, "");
  }
  return size;
}

/* Resolves one negative entry (size / product of the others) and zeroes
 * every extent when the shape does not hold exactly `size` elements or
 * has two negative entries. */
static void normalize(Cg *cg, LLVMValueRef *dims, int n, LLVMValueRef size) {
  LLVMValueRef zero = cg_const_i64(cg, 0), one = cg_const_i64(cg, 1);
  LLVMValueRef known = one, nneg = zero;
  for (int k = 0; k < n; k++) {
    LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, dims[k], zero, "");
    nneg = LLVMBuildAdd(cg->b, nneg, LLVMBuildZExt(cg->b, neg, cg->t_i64, ""), "");
    known = LLVMBuildMul(cg->b, known, LLVMBuildSelect(cg->b, neg, one, dims[k], ""), "");
  }
  LLVMValueRef kz = LLVMBuildICmp(cg->b, LLVMIntEQ, known, zero, "");
  LLVMValueRef safe = LLVMBuildSelect(cg->b, kz, one, known, "");
  LLVMValueRef inferred = LLVMBuildSelect(cg->b, kz, zero, LLVMBuildSDiv(cg->b, size, safe, ""), "");
  LLVMValueRef total = known;
  for (int k = 0; k < n; k++) {
    LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, dims[k], zero, "");
    dims[k] = LLVMBuildSelect(cg->b, neg, inferred, dims[k], "");
  }
  LLVMValueRef has_neg = LLVMBuildICmp(cg->b, LLVMIntEQ, nneg, one, "");
  total = LLVMBuildSelect(cg->b, has_neg, LLVMBuildMul(cg->b, known, inferred, ""), known, "");
  LLVMValueRef ok = LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntULE, nneg, one, ""),
                                 LLVMBuildICmp(cg->b, LLVMIntEQ, total, size, ""), "");
  for (int k = 0; k < n; k++)
    dims[k] = LLVMBuildSelect(cg->b, ok, dims[k], zero, "reshape.dim");
}

/* carray/farray(p, shape): the pointer with the shape as given (Numba's
 * carray checks nothing), strides in C or (ival 2) Fortran order. */
static LLVMValueRef carray(Cg *cg, const Inst *in) {
  LLVMValueRef p = cg_arg(cg, in, 0);
  const Type *rt = in->type;
  if (!p || !rt || rt->kind != TY_ARRAY) {
    cg_fail(cg, in, "carray of a non-pointer");
    return NULL;
  }
  LLVMValueRef dims[TY_MAX_NDIM], strides[TY_MAX_NDIM];
  if (!shape_values(cg, in, dims, rt->ndim))
    return NULL;
  LLVMValueRef st = cg_const_i64(cg, cg_size(rt->elem));
  for (int i = 0; i < rt->ndim; i++) {
    int k = in->ival == 2 ? i : rt->ndim - 1 - i;
    strides[k] = st;
    st = LLVMBuildMul(cg->b, st, dims[k], "");
  }
  return cg_make_array(cg, rt->ndim, p, dims, strides);
}

LLVMValueRef cg_lower_array_reshape(Cg *cg, const Inst *in) {
  if (in->ival > 0)
    return carray(cg, in);
  LLVMValueRef arr = cg_arg(cg, in, 0);
  const Type *at = cg_arg_type(cg, in, 0), *rt = in->type;
  if (!arr || !at || at->kind != TY_ARRAY || at->layout != LAYOUT_C || !rt ||
      rt->kind != TY_ARRAY || rt->ndim < 1 || rt->ndim > TY_MAX_NDIM) {
    cg_fail(cg, in, "array.reshape of a non-C array");
    return NULL;
  }
  LLVMValueRef dims[TY_MAX_NDIM], strides[TY_MAX_NDIM];
  if (!shape_values(cg, in, dims, rt->ndim))
    return NULL;
  normalize(cg, dims, rt->ndim, array_size(cg, arr, at->ndim));
  LLVMValueRef st = cg_const_i64(cg, cg_size(rt->elem));
  for (int k = rt->ndim - 1; k >= 0; k--) {
    strides[k] = st;
    st = LLVMBuildMul(cg->b, st, dims[k], "");
  }
  return cg_make_array(cg, rt->ndim, LLVMBuildExtractValue(cg->b, arr, 0, ""), dims, strides);
}
