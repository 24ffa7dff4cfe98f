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
 * where bounds checks are on (debug=True or boundscheck=True).
 *
 * ARRAY_UFUNC, `np.sin(x, out)`, is the same loop over out: each operand's
 * element (broadcast the same way) or number converted to the loop type,
 * the ufunc computed (cg_npmath.c), the result converted to out's dtype. */
#include "codegen/cg_internal.h"
#include "ir/npmath.h"

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

/* The indices of element j of array a (type at) in C order. */
static void unravel(Cg *cg, LLVMValueRef a, const Type *at, LLVMValueRef j, LLVMValueRef *idx) {
  LLVMValueRef rest = j;
  for (int d = at->ndim - 1; d >= 0; d--) {
    LLVMValueRef sh = extent(cg, a, d);
    idx[d] = d ? LLVMBuildURem(cg->b, rest, sh, "") : rest;
    if (d)
      rest = LLVMBuildUDiv(cg->b, rest, sh, "");
  }
}

static void store_at(Cg *cg, const Inst *in, LLVMValueRef dst, const Type *dt, LLVMValueRef *idx,
                     LLVMValueRef v) {
  LLVMValueRef p = cg_array_elem_ptr(cg, in, dst, dt, idx, dt->ndim);
  if (dt->elem->kind == TY_BOOL)
    v = LLVMBuildZExt(cg->b, v, cg->t_i8, "");
  LLVMSetAlignment(LLVMBuildStore(cg->b, v, p), (unsigned)cg_size(dt->elem));
}

/* Element j of the view (C order) gets the value. */
static void store_elem(Cg *cg, const Inst *in, LLVMValueRef dst, const Type *dt, LLVMValueRef j,
                       LLVMValueRef src, const Type *st) {
  LLVMValueRef idx[TY_MAX_NDIM];
  unravel(cg, dst, dt, j, idx);
  LLVMValueRef v = st->kind == TY_ARRAY ? source_elem(cg, in, src, st, idx, dt->ndim, dt->elem) : src;
  if (v)
    store_at(cg, in, dst, dt, idx, v);
}

/* A loop k = 0 .. n-1: loop_begin leaves the builder in its body. */
typedef struct ElemLoop {
  LLVMBasicBlockRef pre, head, done;
  LLVMValueRef k;
} ElemLoop;

static LLVMValueRef loop_begin(Cg *cg, ElemLoop *l, LLVMValueRef n) {
  LLVMBuilderRef B = cg->b;
  l->pre = LLVMGetInsertBlock(B);
  l->head = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "fill");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "fill.body");
  l->done = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "fill.done");
  LLVMBuildBr(B, l->head);
  LLVMPositionBuilderAtEnd(B, l->head);
  l->k = LLVMBuildPhi(B, cg->t_i64, "");
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, l->k, n, ""), body, l->done);
  LLVMPositionBuilderAtEnd(B, body);
  return l->k;
}

static void loop_end(Cg *cg, ElemLoop *l) {
  LLVMBuilderRef B = cg->b;
  LLVMValueRef k1 = LLVMBuildAdd(B, l->k, cg_const_i64(cg, 1), "");
  LLVMBasicBlockRef end = LLVMGetInsertBlock(B);
  LLVMBuildBr(B, l->head);
  LLVMValueRef kv[2] = {cg_const_i64(cg, 0), k1};
  LLVMBasicBlockRef from[2] = {l->pre, end};
  LLVMAddIncoming(l->k, kv, from, 2);
  LLVMPositionBuilderAtEnd(B, l->done);
}

static LLVMValueRef array_size(Cg *cg, LLVMValueRef a, const Type *at) {
  LLVMValueRef n = cg_const_i64(cg, 1);
  for (int d = 0; d < at->ndim; d++)
    n = LLVMBuildMul(cg->b, n, extent(cg, a, d), "");
  return n;
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
  LLVMValueRef n = array_size(cg, dst, dt);
  LLVMValueRef back = from_array ? backwards(cg, dst, src) : LLVMConstInt(cg->t_i1, 0, 0);
  ElemLoop l;
  LLVMValueRef k = loop_begin(cg, &l, n);
  LLVMValueRef last = LLVMBuildSub(cg->b, LLVMBuildSub(cg->b, n, k, ""), cg_const_i64(cg, 1), "");
  store_elem(cg, in, dst, dt, LLVMBuildSelect(cg->b, back, last, k, ""), src, st);
  loop_end(cg, &l);
  return !cg->failed;
}

bool cg_lower_array_ufunc(Cg *cg, const Inst *in) {
  LLVMValueRef dst = cg_arg(cg, in, 0), src[2];
  const Type *dt = cg_arg_type(cg, in, 0), *st[2], *lt = in->type;
  int nin = in->nargs - 1;
  if (!dst || !dt || dt->kind != TY_ARRAY || !lt || nin < 1 || nin > 2) {
    cg_fail(cg, in, "ufunc with an output of unexpected types");
    return false;
  }
  for (int i = 0; i < nin; i++) {
    if (!(src[i] = cg_arg(cg, in, i + 1)) || !(st[i] = cg_arg_type(cg, in, i + 1)))
      return false;
    if (st[i]->kind == TY_ARRAY)
      check_shapes(cg, in, dst, dt->ndim, src[i], st[i]->ndim);
  }
  ElemLoop l;
  LLVMValueRef k = loop_begin(cg, &l, array_size(cg, dst, dt)), idx[TY_MAX_NDIM], a[2];
  unravel(cg, dst, dt, k, idx);
  for (int i = 0; i < nin; i++)
    a[i] = st[i]->kind == TY_ARRAY ? source_elem(cg, in, src[i], st[i], idx, dt->ndim, lt)
                                   : cg_convert(cg, src[i], st[i], lt);
  int u = (int)in->ival;
  LLVMValueRef r = a[0] && (nin < 2 || a[1]) ? cg_npufunc_apply(cg, in, u, a, lt) : NULL;
  const Type *rt = ir_npufunc_info[u].pred ? cg_scalar(TY_BOOL) : lt;
  LLVMValueRef v = r ? cg_convert(cg, r, rt, dt->elem) : NULL;
  if (v)
    store_at(cg, in, dst, dt, idx, v);
  loop_end(cg, &l);
  return !cg->failed;
}
