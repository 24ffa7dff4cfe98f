/* cg_fill.c - ARRAY_FILL, `a[slices] = v` (lower/lower_expr.c): a number,
 * already converted to the dtype, stored into every element of the view,
 * or an array broadcast onto the view (NumPy's rule, as Numba's setitem
 * applies it: the source's dimensions aligned on the right, each equal to
 * the view's or 1) and converted element by element.
 *
 * One loop k = 0 .. size-1 over the view in C index order, element k's
 * indices peeled off k by the extents (as cg_reduce.c reads), so any
 * layout is written in place.  A source that overlaps the view and starts
 * below it is copied from the last element down, as memmove does, so
 * `a[1:] = a[:-1]` shifts the values as NumPy's copy does.  A shape that
 * does not broadcast raises Numba's ValueError: the thread ends, reported
 * where bounds checks are on (debug=True or boundscheck=True). */
#include "codegen/cg_internal.h"

static LLVMValueRef extent(Cg *cg, LLVMValueRef arr, int d) {
  return LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, arr, 1, ""), (unsigned)d, "");
}

/* The source's shape must broadcast onto the view's; else the raise. */
static void check_shapes(Cg *cg, const Inst *in, LLVMValueRef dst, int nd, LLVMValueRef src, int ns) {
  LLVMValueRef bad = LLVMConstInt(cg->t_i1, 0, 0), one = cg_const_i64(cg, 1);
  for (int d = 0; d < ns; d++) {
    LLVMValueRef s = extent(cg, src, d), t = extent(cg, dst, d + nd - ns);
    LLVMValueRef fits = LLVMBuildOr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, s, t, ""),
                                    LLVMBuildICmp(cg->b, LLVMIntEQ, s, one, ""), "");
    bad = LLVMBuildOr(cg->b, bad, LLVMBuildNot(cg->b, fits, ""), "");
  }
  LLVMBasicBlockRef raise = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "fill.shape");
  LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "fill.ok");
  LLVMBuildCondBr(cg->b, bad, raise, ok);
  LLVMPositionBuilderAtEnd(cg->b, raise);
  cg_raise_text(cg, in, "ValueError: cannot assign slice from input of different size",
                cg->f->opts.debug || cg->f->opts.boundscheck);
  LLVMBuildUnreachable(cg->b); /* end_thread left a block nothing reaches */
  LLVMPositionBuilderAtEnd(cg->b, ok);
}

/* The source's element for the view's indices idx (broadcast: index 0
 * along an extent of 1), converted to the view's dtype. */
static LLVMValueRef source_elem(Cg *cg, const Inst *in, LLVMValueRef src, const Type *st,
                                const LLVMValueRef *idx, int nd, const Type *to) {
  LLVMValueRef sidx[TY_MAX_NDIM], zero = cg_const_i64(cg, 0), one = cg_const_i64(cg, 1);
  for (int d = 0; d < st->ndim; d++) {
    LLVMValueRef bc = LLVMBuildICmp(cg->b, LLVMIntEQ, extent(cg, src, d), one, "");
    sidx[d] = LLVMBuildSelect(cg->b, bc, zero, idx[d + nd - st->ndim], "");
  }
  LLVMValueRef p = cg_array_elem_ptr(cg, in, src, st, sidx, st->ndim);
  LLVMValueRef v = LLVMBuildLoad2(cg->b, cg_mem_type(cg, st->elem), p, "");
  if (st->elem->kind == TY_BOOL)
    v = LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstInt(cg->t_i8, 0, 0), "");
  return cg_convert(cg, v, st->elem, to);
}

/* Element j of the view (C order) gets the value. */
static void store_elem(Cg *cg, const Inst *in, LLVMValueRef dst, const Type *dt, LLVMValueRef j,
                       LLVMValueRef src, const Type *st) {
  LLVMValueRef idx[TY_MAX_NDIM], rest = j;
  for (int d = dt->ndim - 1; d >= 0; d--) {
    LLVMValueRef sh = extent(cg, dst, d);
    idx[d] = d ? LLVMBuildURem(cg->b, rest, sh, "") : rest;
    if (d)
      rest = LLVMBuildUDiv(cg->b, rest, sh, "");
  }
  LLVMValueRef v = st->kind == TY_ARRAY ? source_elem(cg, in, src, st, idx, dt->ndim, dt->elem) : src;
  if (!v)
    return;
  LLVMValueRef p = cg_array_elem_ptr(cg, in, dst, dt, idx, dt->ndim);
  if (dt->elem->kind == TY_BOOL)
    v = LLVMBuildZExt(cg->b, v, cg->t_i8, "");
  LLVMSetAlignment(LLVMBuildStore(cg->b, v, p), (unsigned)cg_size(dt->elem));
}

/* Whether to copy from the last element down: the source's data starts
 * below the view's (an overlap is then safe, as in memmove). */
static LLVMValueRef backwards(Cg *cg, LLVMValueRef dst, LLVMValueRef src) {
  LLVMValueRef a = LLVMBuildPtrToInt(cg->b, LLVMBuildExtractValue(cg->b, src, 0, ""), cg->t_i64, "");
  LLVMValueRef b = LLVMBuildPtrToInt(cg->b, LLVMBuildExtractValue(cg->b, dst, 0, ""), cg->t_i64, "");
  return LLVMBuildICmp(cg->b, LLVMIntULT, a, b, "");
}

bool cg_lower_array_fill(Cg *cg, const Inst *in) {
  LLVMValueRef dst = cg_arg(cg, in, 0), src = cg_arg(cg, in, 1);
  const Type *dt = cg_arg_type(cg, in, 0), *st = cg_arg_type(cg, in, 1);
  if (!dst || !src || !dt || !st)
    return false;
  if (dt->kind != TY_ARRAY || dt->ndim > TY_MAX_NDIM || (st->kind != TY_ARRAY && LLVMTypeOf(src) != cg_type(cg, dt->elem))) {
    cg_fail(cg, in, "slice assignment of unexpected types");
    return false;
  }
  bool from_array = st->kind == TY_ARRAY;
  if (from_array)
    check_shapes(cg, in, dst, dt->ndim, src, st->ndim);
  LLVMValueRef n = cg_const_i64(cg, 1);
  for (int d = 0; d < dt->ndim; d++)
    n = LLVMBuildMul(cg->b, n, extent(cg, dst, d), "");
  LLVMValueRef back = from_array ? backwards(cg, dst, src) : LLVMConstInt(cg->t_i1, 0, 0);
  LLVMBuilderRef B = cg->b;
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "fill");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "fill.body");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "fill.done");
  LLVMBuildBr(B, head);
  LLVMPositionBuilderAtEnd(B, head);
  LLVMValueRef k = LLVMBuildPhi(B, cg->t_i64, "");
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, k, n, ""), body, done);
  LLVMPositionBuilderAtEnd(B, body);
  LLVMValueRef last = LLVMBuildSub(B, LLVMBuildSub(B, n, k, ""), cg_const_i64(cg, 1), "");
  store_elem(cg, in, dst, dt, LLVMBuildSelect(B, back, last, k, ""), src, st);
  LLVMValueRef k1 = LLVMBuildAdd(B, k, cg_const_i64(cg, 1), "");
  LLVMBasicBlockRef end = LLVMGetInsertBlock(B);
  LLVMBuildBr(B, head);
  LLVMValueRef kv[2] = {cg_const_i64(cg, 0), k1};
  LLVMBasicBlockRef from[2] = {pre, end};
  LLVMAddIncoming(k, kv, from, 2);
  LLVMPositionBuilderAtEnd(B, done);
  return !cg->failed;
}
