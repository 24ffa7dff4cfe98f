/* cg_view.c - array views (ARRAY_VIEW, ARRAY_T) and tuples indexed at run
 * time (TUPLE_INDEX).
 *
 * A view is a new array struct {data, shape, strides} over the same memory:
 * integer positions move the data pointer (after Numba's negative-index
 * wraparound), slices clamp as Python's slice.indices does and give an
 * extent and a stride (a negative step a negative stride), and the axes
 * after the last position are copied.  Nothing is read, so no index of a
 * view reaches outside the array: a clamped slice may be empty, never
 * larger.  A step of 0 known only at run time gives an empty view
 * (docs/language.md).  With debug/boundscheck an integer position outside
 * its axis is reported as an element access would be; where the thread goes
 * on (CPU) the view is empty. */
#include "codegen/cg_internal.h"

static LLVMValueRef field(Cg *cg, LLVMValueRef arr, unsigned f, int k) {
  return LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, arr, f, ""), (unsigned)k, "");
}

static LLVMValueRef sel(Cg *cg, LLVMIntPredicate p, LLVMValueRef a, LLVMValueRef b,
                        LLVMValueRef t, LLVMValueRef f) {
  return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, p, a, b, ""), t, f, "");
}

/* Shape and byte strides of an array value; a C array's strides are
 * computed from its shape (the ABI lets them be implied). */
static void dims(Cg *cg, const Type *at, LLVMValueRef arr, LLVMValueRef *shape, LLVMValueRef *strides) {
  for (int k = 0; k < at->ndim; k++)
    shape[k] = field(cg, arr, 1, k);
  LLVMValueRef st = cg_const_i64(cg, cg_size(at->elem));
  for (int k = at->ndim - 1; k >= 0; k--) {
    strides[k] = at->layout == LAYOUT_C ? st : field(cg, arr, 2, k);
    st = LLVMBuildMul(cg->b, st, shape[k], "");
  }
}

/* Slice part k of in: its i64 value, or NULL when omitted (none). */
static LLVMValueRef part(Cg *cg, const Inst *in, int k) {
  const Type *t = cg_arg_type(cg, in, k);
  return t && t->kind == TY_NONE ? NULL : cg_arg(cg, in, k);
}

/* One bound clamped as slice.indices does: negative counts from the end,
 * then into [lower, upper]. */
static LLVMValueRef clamp(Cg *cg, LLVMValueRef v, LLVMValueRef len, LLVMValueRef lower,
                          LLVMValueRef upper) {
  LLVMValueRef zero = cg_const_i64(cg, 0);
  LLVMValueRef wrapped = LLVMBuildAdd(cg->b, v, len, "");
  wrapped = sel(cg, LLVMIntSLT, wrapped, lower, lower, wrapped);
  LLVMValueRef high = sel(cg, LLVMIntSGT, v, upper, upper, v);
  return sel(cg, LLVMIntSLT, v, zero, wrapped, high);
}

/* start[:stop[:step]] over an axis of `len` elements: *first, *count, *step. */
static void slice_indices(Cg *cg, const Inst *in, int k, LLVMValueRef len, LLVMValueRef *first,
                          LLVMValueRef *count, LLVMValueRef *stepv) {
  LLVMValueRef zero = cg_const_i64(cg, 0), one = cg_const_i64(cg, 1), m1 = cg_const_i64(cg, -1);
  LLVMValueRef start = part(cg, in, k), stop = part(cg, in, k + 1), step = part(cg, in, k + 2);
  LLVMValueRef bad = step ? LLVMBuildICmp(cg->b, LLVMIntEQ, step, zero, "") : NULL;
  step = step ? LLVMBuildSelect(cg->b, bad, one, step, "") : one;
  LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, step, zero, "");
  LLVMValueRef lower = LLVMBuildSelect(cg->b, neg, m1, zero, "");
  LLVMValueRef upper = LLVMBuildSelect(cg->b, neg, LLVMBuildAdd(cg->b, len, m1, ""), len, "");
  start = start ? clamp(cg, start, len, lower, upper) : LLVMBuildSelect(cg->b, neg, upper, lower, "");
  stop = stop ? clamp(cg, stop, len, lower, upper) : LLVMBuildSelect(cg->b, neg, lower, upper, "");
  /* count = ceil(|stop - start| / |step|) when the range is not empty */
  LLVMValueRef span = LLVMBuildSelect(cg->b, neg, LLVMBuildSub(cg->b, start, stop, ""),
                                      LLVMBuildSub(cg->b, stop, start, ""), "");
  LLVMValueRef astep = LLVMBuildSelect(cg->b, neg, LLVMBuildNeg(cg->b, step, ""), step, "");
  LLVMValueRef n = LLVMBuildAdd(cg->b, LLVMBuildSDiv(cg->b, LLVMBuildSub(cg->b, span, one, ""), astep, ""), one, "");
  n = sel(cg, LLVMIntSGT, span, zero, n, zero);
  *count = bad ? LLVMBuildSelect(cg->b, bad, zero, n, "") : n;
  *first = start;
  *stepv = step;
}

/* debug/boundscheck: report idx outside [0, extent) of axis; returns the
 * in-bounds flag (the thread goes on past a report only on the CPU). */
static LLVMValueRef check_index(Cg *cg, const Inst *in, LLVMValueRef idx, LLVMValueRef ext, int axis) {
  LLVMValueRef ok = LLVMBuildICmp(cg->b, LLVMIntULT, idx, ext, "");
  LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "view.oob");
  LLVMBasicBlockRef good = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "view.ok");
  LLVMBuildCondBr(cg->b, ok, good, bad);
  LLVMPositionBuilderAtEnd(cg->b, bad);
  if (cg->hooks->index_error(cg, in, cg_array_name(cg, in), idx, axis, ext))
    LLVMBuildBr(cg->b, good);
  LLVMPositionBuilderAtEnd(cg->b, good);
  return ok;
}

static bool is_slice(const Inst *in, int p) { return p < 62 && (in->ival >> p & 1); }

LLVMValueRef cg_lower_array_view(Cg *cg, const Inst *in) {
  LLVMValueRef arr = cg_arg(cg, in, 0);
  const Type *at = cg_arg_type(cg, in, 0), *rt = in->type;
  if (!arr || !at || at->kind != TY_ARRAY || !rt || rt->kind != TY_ARRAY) {
    cg_fail(cg, in, "array.view of a non-array");
    return NULL;
  }
  bool checks = cg->f->opts.debug || cg->f->opts.boundscheck;
  LLVMValueRef shape[TY_MAX_NDIM], strides[TY_MAX_NDIM], oshape[TY_MAX_NDIM], ostrides[TY_MAX_NDIM];
  LLVMValueRef off = cg_const_i64(cg, 0), ok = NULL, zero = cg_const_i64(cg, 0);
  dims(cg, at, arr, shape, strides);
  int p = 0, nd = 0;
  for (int k = 1; k < in->nargs && p < at->ndim; p++) {
    LLVMValueRef first;
    if (is_slice(in, p)) {
      LLVMValueRef step;
      slice_indices(cg, in, k, shape[p], &first, &oshape[nd], &step);
      ostrides[nd++] = LLVMBuildMul(cg->b, strides[p], step, "");
      k += 3;
    } else {
      first = cg_arg(cg, in, k++);
      if (!first)
        return NULL;
      first = sel(cg, LLVMIntSLT, first, zero, LLVMBuildAdd(cg->b, first, shape[p], ""), first);
      if (checks) {
        LLVMValueRef c = check_index(cg, in, first, shape[p], p);
        ok = ok ? LLVMBuildAnd(cg->b, ok, c, "") : c;
      }
    }
    off = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, first, strides[p], ""), "");
  }
  for (; p < at->ndim; p++, nd++)
    oshape[nd] = shape[p], ostrides[nd] = strides[p];
  if (nd != rt->ndim) {
    cg_fail(cg, in, "array.view gives %d dimensions, its type %d", nd, rt->ndim);
    return NULL;
  }
  for (int k = 0; ok && k < nd; k++) /* a reported index: an empty view */
    oshape[k] = LLVMBuildSelect(cg->b, ok, oshape[k], zero, "");
  if (ok)
    off = LLVMBuildSelect(cg->b, ok, off, zero, "");
  LLVMValueRef data = LLVMBuildExtractValue(cg->b, arr, 0, "");
  data = LLVMBuildGEP2(cg->b, cg->t_i8, data, &off, 1, "view");
  return cg_make_array(cg, nd, data, oshape, ostrides);
}

/* a.real / a.imag of a complex array (typing/infer_num.c): the same shape
 * and byte strides over the floats of each element, the imaginary parts
 * one float further on.  .real of a real array is the array. */
LLVMValueRef cg_array_part(Cg *cg, const Inst *in, LLVMValueRef arr, bool imag) {
  const Type *at = cg_arg_type(cg, in, 0), *rt = in->type;
  if (!arr || !at || at->kind != TY_ARRAY || !rt || rt->kind != TY_ARRAY || rt->ndim != at->ndim) {
    cg_fail(cg, in, "array.real/imag of a non-array");
    return NULL;
  }
  if (!ty_is_complex(at->elem))
    return arr;
  LLVMValueRef shape[TY_MAX_NDIM], strides[TY_MAX_NDIM];
  dims(cg, at, arr, shape, strides);
  LLVMValueRef data = LLVMBuildExtractValue(cg->b, arr, 0, "");
  if (imag)
    data = LLVMBuildGEP2(cg->b, cg->t_i8, data, (LLVMValueRef[]){cg_const_i64(cg, cg_size(rt->elem))}, 1, "imag");
  return cg_make_array(cg, at->ndim, data, shape, strides);
}

LLVMValueRef cg_lower_array_t(Cg *cg, const Inst *in) {
  LLVMValueRef arr = cg_arg(cg, in, 0);
  const Type *at = cg_arg_type(cg, in, 0);
  if (!arr || !at || at->kind != TY_ARRAY) {
    cg_fail(cg, in, "array.T of a non-array");
    return NULL;
  }
  if (at->ndim == 1)
    return arr;
  LLVMValueRef shape[TY_MAX_NDIM], strides[TY_MAX_NDIM], rs[TY_MAX_NDIM], rst[TY_MAX_NDIM];
  dims(cg, at, arr, shape, strides);
  for (int k = 0; k < at->ndim; k++)
    rs[k] = shape[at->ndim - 1 - k], rst[k] = strides[at->ndim - 1 - k];
  return cg_make_array(cg, at->ndim, LLVMBuildExtractValue(cg->b, arr, 0, ""), rs, rst);
}

/* Element i of a homogeneous tuple: a chain of selects (tuples are short). */
LLVMValueRef cg_lower_tuple_index(Cg *cg, const Inst *in) {
  LLVMValueRef t = cg_arg(cg, in, 0), i = cg_arg(cg, in, 1);
  const Type *tt = cg_arg_type(cg, in, 0);
  if (!t || !i || !tt || tt->kind != TY_TUPLE || tt->nelems < 1) {
    cg_fail(cg, in, "tuple.index of a non-tuple");
    return NULL;
  }
  LLVMValueRef n = cg_const_i64(cg, tt->nelems);
  i = sel(cg, LLVMIntSLT, i, cg_const_i64(cg, 0), LLVMBuildAdd(cg->b, i, n, ""), i);
  LLVMValueRef v = LLVMConstNull(cg_type(cg, tt->elems[0]));
  for (int k = tt->nelems - 1; k >= 0; k--)
    v = sel(cg, LLVMIntEQ, i, cg_const_i64(cg, k), LLVMBuildExtractValue(cg->b, t, (unsigned)k, ""), v);
  return v;
}
