/* cg_reduce.c - ARRAY_REDUCE: a whole-array reduction (lower/lower_array.c)
 * as loops over the elements in C index order, as Numba's np.nditer loops
 * run, so float sums round as Numba's do.
 *
 * A pass is one loop k = 0 .. size-1 with up to three accumulators carried
 * in phis; element k's indices are peeled off k by the extents (the last
 * axis fastest), so any layout (C, strided, reversed) is read in place.
 * The variances take two passes (the mean first), as Numba computes them;
 * min/max and their arg and nan forms are one search (search()). */
#include "codegen/cg_internal.h"

typedef struct Pass {
  Cg *cg;
  const Inst *in;        /* the ARRAY_REDUCE (operand 0: the array) */
  LLVMValueRef arr;
  const Type *at;        /* the array type */
  LLVMValueRef n;        /* its size */
  ArrayReduceKind kind;
  LLVMValueRef mean;     /* second pass of a variance: the mean (f64) */
} Pass;

/* Element k as its value type (bool: i1). */
static LLVMValueRef load_flat(Pass *p, LLVMValueRef k) {
  Cg *cg = p->cg;
  LLVMValueRef idx[TY_MAX_NDIM], rest = k;
  for (int d = p->at->ndim - 1; d >= 0; d--) {
    LLVMValueRef sh = LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, p->arr, 1, ""),
                                            (unsigned)d, "");
    idx[d] = d ? LLVMBuildURem(cg->b, rest, sh, "") : rest;
    if (d)
      rest = LLVMBuildUDiv(cg->b, rest, sh, "");
  }
  LLVMValueRef ptr = cg_array_elem_ptr(cg, p->in, p->arr, p->at, idx, p->at->ndim);
  const Type *et = p->at->elem;
  LLVMValueRef v = LLVMBuildLoad2(cg->b, cg_mem_type(cg, et), ptr, "");
  if (et->kind == TY_BOOL)
    v = LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstInt(cg->t_i8, 0, 0), "");
  return v;
}

static bool is_nan_kind(ArrayReduceKind k) {
  return k == AR_NANSUM || k == AR_NANPROD || k == AR_NANMEAN || k == AR_NANVAR ||
         k == AR_NANSTD;
}

/* The accumulator type of a pass: what Numba's loop variable holds. */
static const Type *acc_type(const Pass *p) {
  const Type *e = p->at->elem;
  switch (p->kind) {
  case AR_SUM: case AR_PROD: case AR_NANSUM: case AR_NANPROD: return p->in->type;
  case AR_MEAN: case AR_VAR: case AR_STD: /* Numba's mean sums in float32 for float32 */
    return p->mean ? TY_F64_T : e->kind == TY_F32 ? TY_F32_T : TY_F64_T;
  default: return TY_F64_T;
  }
}

static LLVMValueRef add(Cg *cg, LLVMValueRef a, LLVMValueRef b, const Type *t) {
  return cg_is_float(t) ? cg_fp(cg, LLVMBuildFAdd(cg->b, a, b, "")) : LLVMBuildAdd(cg->b, a, b, "");
}

/* One step: acc[0] (value), acc[1] (count of elements taken, nan kinds)
 * from element v. */
static void step(Pass *p, LLVMValueRef v, LLVMValueRef *acc, LLVMValueRef *next) {
  Cg *cg = p->cg;
  const Type *et = p->at->elem, *t = acc_type(p);
  LLVMValueRef truth = cg_truth(cg, v, et);
  next[1] = acc[1];
  switch (p->kind) {
  case AR_ALL: next[0] = LLVMBuildAnd(cg->b, acc[0], truth, ""); return;
  case AR_ANY: next[0] = LLVMBuildOr(cg->b, acc[0], truth, ""); return;
  case AR_COUNT_NONZERO:
    next[0] = LLVMBuildAdd(cg->b, acc[0], LLVMBuildZExt(cg->b, truth, cg->t_i64, ""), "");
    return;
  default: break;
  }
  LLVMValueRef x = cg_convert(cg, v, et, t);
  if (p->mean) { /* (x - mean)^2 */
    LLVMValueRef d = cg_fp(cg, LLVMBuildFSub(cg->b, x, p->mean, ""));
    x = cg_fp(cg, LLVMBuildFMul(cg->b, d, d, ""));
  }
  bool prod = p->kind == AR_PROD || p->kind == AR_NANPROD;
  LLVMValueRef r = !prod ? add(cg, acc[0], x, t)
                   : cg_is_float(t) ? cg_fp(cg, LLVMBuildFMul(cg->b, acc[0], x, ""))
                                    : LLVMBuildMul(cg->b, acc[0], x, "");
  next[1] = LLVMBuildAdd(cg->b, acc[1], cg_const_i64(cg, 1), "");
  if (is_nan_kind(p->kind) && cg_is_float(et)) { /* NaN elements are skipped */
    LLVMValueRef nan = LLVMBuildFCmp(cg->b, LLVMRealUNO, v, v, "");
    r = LLVMBuildSelect(cg->b, nan, acc[0], r, "");
    next[1] = LLVMBuildSelect(cg->b, nan, acc[1], next[1], "");
  }
  next[0] = r;
}

/* The loop: acc[0..2) start at init and come back final. */
static void run_pass(Pass *p, LLVMValueRef *acc) {
  Cg *cg = p->cg;
  LLVMBuilderRef B = cg->b;
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "reduce");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "reduce.body");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "reduce.done");
  LLVMBuildBr(B, head);
  LLVMPositionBuilderAtEnd(B, head);
  LLVMValueRef k = LLVMBuildPhi(B, cg->t_i64, "");
  LLVMValueRef phi[2] = {LLVMBuildPhi(B, LLVMTypeOf(acc[0]), ""), LLVMBuildPhi(B, cg->t_i64, "")};
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, k, p->n, ""), body, done);
  LLVMPositionBuilderAtEnd(B, body);
  LLVMValueRef next[2];
  step(p, load_flat(p, k), phi, next);
  LLVMValueRef k1 = LLVMBuildAdd(B, k, cg_const_i64(cg, 1), "");
  LLVMBasicBlockRef end = LLVMGetInsertBlock(B);
  LLVMBuildBr(B, head);
  LLVMBasicBlockRef from[2] = {pre, end};
  LLVMValueRef kv[2] = {cg_const_i64(cg, 0), k1};
  LLVMAddIncoming(k, kv, from, 2);
  for (int i = 0; i < 2; i++) {
    LLVMValueRef v[2] = {acc[i], next[i]};
    LLVMAddIncoming(phi[i], v, from, 2);
  }
  LLVMPositionBuilderAtEnd(B, done);
  acc[0] = phi[0];
  acc[1] = phi[1];
}

static LLVMValueRef start(Pass *p) {
  Cg *cg = p->cg;
  const Type *t = acc_type(p);
  switch (p->kind) {
  case AR_ALL: return LLVMConstInt(cg->t_i1, 1, 0);
  case AR_ANY: return LLVMConstInt(cg->t_i1, 0, 0);
  case AR_COUNT_NONZERO: return cg_const_i64(cg, 0);
  case AR_PROD: case AR_NANPROD:
    return cg_is_float(t) ? LLVMConstReal(cg_type(cg, t), 1.0) : LLVMConstInt(cg_type(cg, t), 1, 0);
  default: return LLVMConstNull(cg_type(cg, t));
  }
}

/* One pass; for the means and variances the sum divided by the count (the
 * size, or the elements that are not NaN), in float64. */
static LLVMValueRef pass_value(Pass *p) {
  Cg *cg = p->cg;
  LLVMValueRef acc[2] = {start(p), cg_const_i64(cg, 0)};
  run_pass(p, acc);
  if (p->kind <= AR_PROD || p->kind == AR_NANSUM || p->kind == AR_NANPROD ||
      p->kind == AR_COUNT_NONZERO)
    return acc[0];
  LLVMValueRef cnt = is_nan_kind(p->kind) ? acc[1] : p->n;
  LLVMValueRef s = cg_convert(cg, acc[0], acc_type(p), TY_F64_T);
  return cg_fp(cg, LLVMBuildFDiv(cg->b, s, LLVMBuildSIToFP(cg->b, cnt, cg->t_f64, ""), ""));
}

/* np.min/max/argmin/argmax/nanmin/nanmax: one loop keeping the element
 * taken and its index, as Numba's arraymath loops do: min/max and
 * argmin/argmax stop at the first NaN (its value, its index); nanmin/nanmax
 * skip NaNs (all NaN: NaN); ties keep the first.  An empty array gives 0. */
static LLVMValueRef search(Pass *p) {
  Cg *cg = p->cg;
  LLVMBuilderRef B = cg->b;
  ArrayReduceKind k = p->kind;
  const Type *et = p->at->elem;
  bool is_max = k == AR_MAX || k == AR_ARGMAX || k == AR_NANMAX, fl = cg_is_float(et);
  bool nan_skip = k == AR_NANMIN || k == AR_NANMAX;
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "search");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "search.body");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "search.done");
  LLVMBuildBr(B, head);
  LLVMPositionBuilderAtEnd(B, head);
  LLVMValueRef i = LLVMBuildPhi(B, cg->t_i64, ""), best = LLVMBuildPhi(B, cg_type(cg, et), "");
  LLVMValueRef at = LLVMBuildPhi(B, cg->t_i64, "");
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, p->n, ""), body, done);
  LLVMPositionBuilderAtEnd(B, body);
  LLVMValueRef v = load_flat(p, i);
  LLVMValueRef better = fl ? LLVMBuildFCmp(B, is_max ? LLVMRealOGT : LLVMRealOLT, v, best, "")
                           : LLVMBuildICmp(B, is_max ? (cg_is_signed(et) ? LLVMIntSGT : LLVMIntUGT)
                                                     : (cg_is_signed(et) ? LLVMIntSLT : LLVMIntULT),
                                           v, best, "");
  LLVMValueRef take = better;
  if (fl) {
    LLVMValueRef vnan = LLVMBuildFCmp(B, LLVMRealUNO, v, v, "");
    LLVMValueRef bnan = LLVMBuildFCmp(B, LLVMRealUNO, best, best, "");
    take = nan_skip ? LLVMBuildAnd(B, LLVMBuildNot(B, vnan, ""), LLVMBuildOr(B, bnan, better, ""), "")
                    : LLVMBuildAnd(B, LLVMBuildNot(B, bnan, ""), LLVMBuildOr(B, vnan, better, ""), "");
  }
  take = LLVMBuildOr(B, take, LLVMBuildICmp(B, LLVMIntEQ, i, cg_const_i64(cg, 0), ""), "");
  LLVMValueRef best2 = LLVMBuildSelect(B, take, v, best, "");
  LLVMValueRef at2 = LLVMBuildSelect(B, take, i, at, "");
  LLVMValueRef i2 = LLVMBuildAdd(B, i, cg_const_i64(cg, 1), "");
  LLVMBasicBlockRef end = LLVMGetInsertBlock(B);
  LLVMBuildBr(B, head);
  LLVMBasicBlockRef from[2] = {pre, end};
  LLVMValueRef iv[2] = {cg_const_i64(cg, 0), i2}, bv[2] = {LLVMConstNull(cg_type(cg, et)), best2};
  LLVMValueRef av[2] = {cg_const_i64(cg, 0), at2};
  LLVMAddIncoming(i, iv, from, 2);
  LLVMAddIncoming(best, bv, from, 2);
  LLVMAddIncoming(at, av, from, 2);
  LLVMPositionBuilderAtEnd(B, done);
  return k == AR_ARGMIN || k == AR_ARGMAX ? at : best;
}

LLVMValueRef cg_lower_array_reduce(Cg *cg, const Inst *in) {
  LLVMValueRef arr = cg_arg(cg, in, 0);
  const Type *at = cg_arg_type(cg, in, 0);
  if (!arr || !at || at->kind != TY_ARRAY) {
    cg_fail(cg, in, "reduction of a non-array");
    return NULL;
  }
  Pass p = {cg, in, arr, at, cg_const_i64(cg, 1), (ArrayReduceKind)in->ival, NULL};
  for (int d = 0; d < at->ndim; d++)
    p.n = LLVMBuildMul(cg->b, p.n,
                       LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, arr, 1, ""),
                                             (unsigned)d, ""), "");
  ArrayReduceKind k = p.kind;
  if (k >= AR_MIN && k <= AR_NANMAX)
    return search(&p);
  bool var = k == AR_VAR || k == AR_STD || k == AR_NANVAR || k == AR_NANSTD;
  if (var) /* the mean first: np.mean / np.nanmean */
    p.kind = k == AR_VAR || k == AR_STD ? AR_MEAN : AR_NANMEAN;
  LLVMValueRef r = pass_value(&p);
  if (!var)
    return r;
  p.kind = k == AR_VAR || k == AR_STD ? AR_VAR : AR_NANVAR;
  p.mean = r;
  r = pass_value(&p);
  if (k == AR_STD || k == AR_NANSTD) {
    LLVMTypeRef t = cg->t_f64;
    r = cg_intrinsic(cg, "llvm.sqrt", &t, 1, &r, 1);
  }
  return r;
}
