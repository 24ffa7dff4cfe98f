/* cg_mem.c - arrays (element addresses, attributes), shared/local arrays,
 * atomics and print.
 *
 * An array value is the struct {ptr data, [N x i64] shape, [N x i64] strides}
 * (strides in bytes).  Element address: each index wraps when negative
 * (Numba), then C layout uses the row-major linear index and a typed GEP,
 * any layout the byte offset sum(i_k * strides[k]).  Bools are i8 in memory.
 * With debug=True (or boundscheck=True) every wrapped index is checked
 * against its extent first; without it no check is emitted at all.
 * Where memory lives (shared, dynamic shared) and how printf is called is
 * the target's business (CgTargetHooks). */
#include "codegen/cg_internal.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* ----------------------------------------------------------- addresses -- */

/* Collect the index values starting at operand `first` (one tuple operand
 * expands to its elements); returns the count or -1 after a diagnostic. */
static int gather_indices(Cg *cg, const Inst *in, int first, int n, LLVMValueRef *out, int max) {
  if (n == 1 && cg_arg_type(cg, in, first) && cg_arg_type(cg, in, first)->kind == TY_TUPLE) {
    const Type *tt = cg_arg_type(cg, in, first);
    LLVMValueRef t = cg_arg(cg, in, first);
    if (!t || tt->nelems > max)
      return -1;
    for (int k = 0; k < tt->nelems; k++) {
      out[k] = cg_convert(cg, LLVMBuildExtractValue(cg->b, t, (unsigned)k, ""), tt->elems[k], cg_scalar(TY_I64));
      if (!out[k]) {
        cg_fail(cg, in, "non-integer index");
        return -1;
      }
    }
    return tt->nelems;
  }
  if (n > max)
    return -1;
  for (int k = 0; k < n; k++) {
    LLVMValueRef v = cg_arg(cg, in, first + k);
    const Type *t = cg_arg_type(cg, in, first + k);
    if (v && LLVMTypeOf(v) != cg->t_i64)
      v = cg_is_int(t) || (t && t->kind == TY_BOOL) ? cg_convert(cg, v, t, cg_scalar(TY_I64)) : NULL;
    if (!v) {
      if (!cg->failed)
        cg_fail(cg, in, "index %d is not an integer", k);
      return -1;
    }
    out[k] = v;
  }
  return n;
}

static LLVMValueRef array_field(Cg *cg, LLVMValueRef arr, unsigned field, int k) {
  unsigned idx[2] = {field, (unsigned)k};
  LLVMValueRef f = LLVMBuildExtractValue(cg->b, arr, idx[0], "");
  return LLVMBuildExtractValue(cg->b, f, idx[1], "");
}

/* The offset of an element under the launch fact fits32 (docs/internals.md):
 * every array's span is below 2^31 bytes, so the offset of an element inside
 * it, and each partial sum of the row-major sum, fits int32 (nsw).  The sum
 * is computed in 32 bits as CUDA C's int indices are (mad.lo.s32, then one
 * mul.wide.s32 into the address); the freeze keeps LLVM's instcombine from
 * re-widening the expression to 64 bits.  An index outside the array is
 * undefined in Numba as in CUDA C. */
static LLVMValueRef trunc32(Cg *cg, LLVMValueRef v) { return LLVMBuildTrunc(cg->b, v, cg->t_i32, ""); }

static LLVMValueRef offset32(Cg *cg, LLVMValueRef arr, LLVMValueRef *idx, int n, bool c_layout) {
  LLVMValueRef off = NULL;
  for (int k = 0; k < n; k++) {
    LLVMValueRef i = trunc32(cg, idx[k]);
    if (c_layout) { /* ((i0 * s1 + i1) * s2 + i2)...: elements */
      off = k == 0 ? i
                   : LLVMBuildNSWAdd(cg->b, LLVMBuildNSWMul(cg->b, off, trunc32(cg, array_field(cg, arr, 1, k)), ""),
                                     i, "");
      continue;
    }
    LLVMValueRef t = LLVMBuildNSWMul(cg->b, i, trunc32(cg, array_field(cg, arr, 2, k)), ""); /* bytes */
    off = k == 0 ? t : LLVMBuildNSWAdd(cg->b, off, t, "");
  }
  return LLVMBuildSExt(cg->b, LLVMBuildFreeze(cg->b, off, ""), cg->t_i64, "");
}

/* data + the (wrapped) indices' offset: C layout by a row-major linear
 * index and a typed GEP, any layout by sum(i_k * strides[k]) bytes. */
static LLVMValueRef element_offset(Cg *cg, const Type *at, LLVMValueRef arr, LLVMValueRef data,
                                   LLVMValueRef *idx, int n, bool narrow) {
  if (narrow && (n > 1 || at->layout != LAYOUT_C)) {
    bool c = at->layout == LAYOUT_C;
    LLVMValueRef off = offset32(cg, arr, idx, n, c);
    return LLVMBuildGEP2(cg->b, c ? cg_mem_type(cg, at->elem) : cg->t_i8, data, &off, 1, "");
  }
  if (at->layout == LAYOUT_C) {
    LLVMValueRef lin = idx[0];
    for (int k = 1; k < n; k++)
      lin = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, lin, array_field(cg, arr, 1, k), ""), idx[k], "");
    return LLVMBuildGEP2(cg->b, cg_mem_type(cg, at->elem), data, &lin, 1, "");
  }
  LLVMValueRef off = LLVMBuildMul(cg->b, idx[0], array_field(cg, arr, 2, 0), "");
  for (int k = 1; k < n; k++)
    off = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, idx[k], array_field(cg, arr, 2, k), ""), "");
  return LLVMBuildGEP2(cg->b, cg->t_i8, data, &off, 1, "");
}

/* ------------------------------------------------------- bounds checks -- */

static bool checks_on(const Cg *cg) { return cg->f->opts.debug || cg->f->opts.boundscheck; }

/* The source name of the indexed array: the local operand 0 was loaded from. */
const char *cg_array_name(const Cg *cg, const Inst *in) {
  const Inst *a = &cg->f->insts.data[in->args[0]];
  if (a->op != OP_LOAD || a->local < 0 || a->local >= cg->f->locals.len)
    return "<array>";
  const char *name = cg->f->locals.data[a->local].name;
  return name && name[0] != '$' ? name : "<array>";
}

/* Branches to a failure block unless 0 <= idx < extent (one unsigned
 * compare); returns whether the failure block falls through to `skip`. */
static bool check_axis(Cg *cg, const Inst *in, LLVMValueRef arr, LLVMValueRef idx, int axis,
                       LLVMBasicBlockRef skip) {
  LLVMValueRef ext = array_field(cg, arr, 1, axis);
  LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "oob");
  LLVMBasicBlockRef good = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "inbounds");
  LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntULT, idx, ext, ""), good, bad);
  LLVMPositionBuilderAtEnd(cg->b, bad);
  bool goes_on = cg->hooks->index_error(cg, in, cg_array_name(cg, in), idx, axis, ext);
  if (goes_on)
    LLVMBuildBr(cg->b, skip);
  LLVMPositionBuilderAtEnd(cg->b, good);
  return goes_on;
}

/* p, or where the thread goes on after an index error, a zeroed scratch
 * slot (loads read 0, stores and atomics land there and are lost). */
static LLVMValueRef checked_ptr(Cg *cg, const Inst *in, LLVMValueRef arr, LLVMValueRef *idx, int n,
                                LLVMValueRef p) {
  LLVMBasicBlockRef skip = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "oob.skip");
  bool goes_on = false;
  for (int k = 0; k < n; k++)
    goes_on |= check_axis(cg, in, arr, idx[k], k, skip);
  if (!goes_on) {
    LLVMDeleteBasicBlock(skip);
    return p;
  }
  LLVMBasicBlockRef ok = LLVMGetInsertBlock(cg->b);
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "oob.join");
  LLVMBuildBr(cg->b, join);
  LLVMPositionBuilderAtEnd(cg->b, skip);
  const Type *et = cg_arg_type(cg, in, 0)->elem; /* 16: the largest number (complex128) */
  uint64_t sz = et && cg_size(et) > 16 ? (uint64_t)cg_size(et) : 16;
  LLVMTypeRef st = LLVMArrayType2(cg->t_i8, sz);
  LLVMValueRef scratch = cg_entry_alloca(cg, st, "oob.scratch");
  LLVMSetAlignment(scratch, 16);
  LLVMSetAlignment(LLVMBuildStore(cg->b, LLVMConstNull(st), scratch), 16);
  LLVMBuildBr(cg->b, join);
  LLVMPositionBuilderAtEnd(cg->b, join);
  LLVMValueRef phi = LLVMBuildPhi(cg->b, cg->t_ptr, "");
  LLVMValueRef vals[2] = {p, scratch};
  LLVMBasicBlockRef bbs[2] = {ok, skip};
  LLVMAddIncoming(phi, vals, bbs, 2);
  return phi;
}

/* A load or store generated by kjit itself (a ufunc kernel, lower/ufunc.h)
 * whose indices are known to be in bounds: no negative-index wraparound. */
static bool trusted_access(const Inst *in) {
  return (in->op == OP_ARRAY_LOAD || in->op == OP_ARRAY_STORE) && in->ival > 0;
}

/* The access's alignment: the element's size, or more where the generated
 * code knows it (ival), so adjacent accesses can merge into vector ones. */
static unsigned access_align(const Inst *in, const Type *et) {
  unsigned a = (unsigned)cg_size(et);
  return trusted_access(in) && (unsigned)in->ival > a ? (unsigned)in->ival : a;
}

/* Address of arr[indices]; arr is operand 0, indices operands first.. */
static LLVMValueRef element_ptr(Cg *cg, const Inst *in, int first, int nidx) {
  LLVMValueRef arr = cg_arg(cg, in, 0);
  const Type *at = cg_arg_type(cg, in, 0);
  if (!arr)
    return NULL;
  if (at && at->kind == TY_PTR && nidx == 1) { /* p[i]: Numba's gep, no wraparound */
    LLVMValueRef i = cg_arg(cg, in, first);
    return i ? LLVMBuildGEP2(cg->b, cg_mem_type(cg, at->elem), arr, &i, 1, "") : NULL;
  }
  if (!at || at->kind != TY_ARRAY || LLVMTypeOf(arr) != cg_array_struct(cg, at->ndim)) {
    cg_fail(cg, in, "indexing a value that is not an array");
    return NULL;
  }
  LLVMValueRef idx[TY_MAX_NDIM];
  int n = gather_indices(cg, in, first, nidx, idx, TY_MAX_NDIM);
  if (n < 0)
    return NULL;
  if (n != at->ndim) {
    cg_unsupported(cg, in, "indexing with fewer indices than dimensions (slicing)");
    return NULL;
  }
  return cg_array_elem_ptr(cg, in, arr, at, idx, n);
}

/* Where 32-bit offsets pay (under fits32): not for shared, local and
 * constant arrays, whose constant extents LLVM folds into 64-bit offsets
 * well (immediate offsets; transpose benchmark), and not in loops, where
 * LLVM's strength reduction turns 64-bit offsets into pointer increments
 * but cannot see through the freeze (matmul benchmark: two more integer
 * operations per iteration).  A choice of speed only: 32-bit offsets are
 * valid everywhere under the fact. */
static bool fixed_shape(const Cg *cg, const Inst *in);

static bool offsets32(const Cg *cg, const Inst *in) {
  bool loop = cg->in_loop && cg->cur_block >= 0 && cg->cur_block < cg->f->blocks.len &&
              cg->in_loop[cg->cur_block];
  return cg->fits32 && !loop && !fixed_shape(cg, in);
}

static bool fixed_shape(const Cg *cg, const Inst *in) {
  if (in->nargs < 1 || in->args[0] < 0 || in->args[0] >= cg->f->insts.len)
    return false;
  const Inst *a = &cg->f->insts.data[in->args[0]];
  if (a->op == OP_LOAD && a->local >= 0 && a->local < cg->f->locals.len)
    return cg->fixed_shape && cg->fixed_shape[a->local];
  return a->op == OP_SHARED_ARRAY || a->op == OP_LOCAL_ARRAY || a->op == OP_CONST_ARRAY;
}

/* The constant c of an index x + c or x - c (c != 0), else 0 (*x = v). */
static long long split_const(LLVMValueRef v, LLVMValueRef *x) {
  *x = v;
  if (!LLVMIsAInstruction(v))
    return 0;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (op != LLVMAdd && op != LLVMSub)
    return 0;
  LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
  if (op == LLVMAdd && LLVMIsAConstantInt(a) && !LLVMIsAConstantInt(b)) {
    LLVMValueRef t = a;
    a = b;
    b = t;
  }
  if (!LLVMIsAConstantInt(b) || LLVMIsAConstantInt(a))
    return 0;
  long long c = LLVMConstIntGetSExtValue(b);
  if (c == 0 || c > (1 << 15) || c < -(1 << 15))
    return 0;
  *x = a;
  return op == LLVMAdd ? c : -c;
}

/* Under the 32-bit offsets of a C-layout array, a constant term of the
 * last index, a[i, j - 1] and a[i, j + 1], is kept out of the 32-bit sum
 * and added to the address: both then share one i * s + j (one
 * mul.wide.s32) and address [p-4] and [p+4], as nvcc's int indices do.
 * Valid because with itemsize >= 2 every element offset is below 2^30, so
 * offset - c (|c| <= 2^15) still fits int32; the wraparound of a negative
 * index is unchanged: (x + c) wrapped = (x wrapped by the sign of x + c) + c.
 * Not with bounds checks, which test the whole index. */
static bool peel_ok(Cg *cg, const Inst *in, const Type *at, int n) {
  return n >= 2 && at->layout == LAYOUT_C && ty_size(at->elem) >= 2 && !checks_on(cg) && offsets32(cg, in);
}

LLVMValueRef cg_array_elem_ptr(Cg *cg, const Inst *in, LLVMValueRef arr, const Type *at,
                               LLVMValueRef *idx, int n) {
  LLVMValueRef zero = cg_const_i64(cg, 0), data = LLVMBuildExtractValue(cg->b, arr, 0, "");
  LLVMValueRef last = n > 0 ? idx[n - 1] : NULL; /* the last index less c */
  long long c = peel_ok(cg, in, at, n) ? split_const(idx[n - 1], &last) : 0;
  /* trusted accesses (lower/lower_ufunc.c) and kjit's own generated kernels
   * (lower/reduce.c) never index from the end */
  for (int k = 0; k < n && !trusted_access(in) && !cg->f->generated; k++) {
    LLVMValueRef x = k == n - 1 ? last : idx[k];
    LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, idx[k], zero, "");
    LLVMValueRef w = LLVMBuildAdd(cg->b, x, array_field(cg, arr, 1, k), "");
    idx[k] = LLVMBuildSelect(cg->b, neg, w, x, "");
    if (k == n - 1)
      last = idx[k];
  }
  if (n > 0)
    idx[n - 1] = last;
  LLVMValueRef p = element_offset(cg, at, arr, data, idx, n, offsets32(cg, in));
  if (c) {
    LLVMValueRef cv = cg_const_i64(cg, c);
    p = LLVMBuildGEP2(cg->b, cg_mem_type(cg, at->elem), p, &cv, 1, "");
  }
  return checks_on(cg) ? checked_ptr(cg, in, arr, idx, n, p) : p;
}

/* ---------------------------------------------- cache-hinted accesses -- */

/* cuda.ldca & co. on the GPU: ld.global.<op>.b<w> / st.global.<op>.b<w> as
 * inline PTX on the element's address (as numba-cuda emits them); the
 * value travels as an integer of the dtype's width, bytes in a 16-bit
 * register.  The host target has no caches to steer: plain accesses. */
static unsigned bits_of(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t);
  case LLVMHalfTypeKind: return 16;
  case LLVMFloatTypeKind: return 32;
  default: return 64; /* double: typing admits nothing else */
  }
}

static LLVMTypeRef hint_reg(Cg *cg, unsigned w, const char **cons) {
  *cons = w == 64 ? "l" : w == 32 ? "r" : "h";
  return w == 64 ? cg->t_i64 : w == 32 ? cg->t_i32 : cg->t_i16;
}

static LLVMValueRef hinted_load(Cg *cg, const Inst *in, LLVMTypeRef mt, LLVMValueRef p) {
  unsigned w = bits_of(mt);
  const char *c;
  LLVMTypeRef reg = hint_reg(cg, w, &c);
  char text[48], cons[16];
  snprintf(text, sizeof text, "ld.global.%s.b%u $0, [$1];", in->str, w);
  snprintf(cons, sizeof cons, "=%s,l", c);
  LLVMTypeRef pt = LLVMTypeOf(p), fty = LLVMFunctionType(reg, &pt, 1, 0);
  LLVMValueRef ia = LLVMGetInlineAsm(fty, text, strlen(text), cons, strlen(cons), 1, 0,
                                     LLVMInlineAsmDialectATT, 0);
  LLVMValueRef v = LLVMBuildCall2(cg->b, fty, ia, &p, 1, "");
  LLVMTypeRef iw = LLVMIntTypeInContext(cg->ctx, w);
  if (w == 8)
    v = LLVMBuildTrunc(cg->b, v, iw, "");
  return LLVMBuildBitCast(cg->b, v, mt, "");
}

static void hinted_store(Cg *cg, const Inst *in, LLVMValueRef v, LLVMValueRef p) {
  LLVMTypeRef vt = LLVMTypeOf(v);
  unsigned w = bits_of(vt);
  const char *c;
  LLVMTypeRef reg = hint_reg(cg, w, &c);
  v = LLVMBuildBitCast(cg->b, v, LLVMIntTypeInContext(cg->ctx, w), "");
  if (w == 8)
    v = LLVMBuildZExt(cg->b, v, reg, "");
  char text[48], cons[16];
  snprintf(text, sizeof text, "st.global.%s.b%u [$0], $1;", in->str, w);
  snprintf(cons, sizeof cons, "l,%s,~{memory}", c);
  LLVMTypeRef ps[2] = {LLVMTypeOf(p), reg}, fty = LLVMFunctionType(cg->t_void, ps, 2, 0);
  LLVMValueRef ia = LLVMGetInlineAsm(fty, text, strlen(text), cons, strlen(cons), 1, 0,
                                     LLVMInlineAsmDialectATT, 0);
  LLVMValueRef args[2] = {p, v};
  LLVMBuildCall2(cg->b, fty, ia, args, 2, "");
}

LLVMValueRef cg_lower_array_load(Cg *cg, const Inst *in) {
  LLVMValueRef p = element_ptr(cg, in, 1, in->nargs - 1);
  if (!p)
    return NULL;
  const Type *et = cg_arg_type(cg, in, 0)->elem;
  if (et->kind == TY_RECORD) /* a[i] of a record array: a reference to it */
    return p;
  if (in->str && cg->target->kind == CG_NVPTX)
    return hinted_load(cg, in, cg_mem_type(cg, et), p);
  LLVMValueRef v = LLVMBuildLoad2(cg->b, cg_mem_type(cg, et), p, "");
  LLVMSetAlignment(v, access_align(in, et));
  if (et->kind == TY_BOOL)
    v = LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstInt(cg->t_i8, 0, 0), "");
  return v;
}

bool cg_lower_array_store(Cg *cg, const Inst *in) {
  LLVMValueRef p = element_ptr(cg, in, 2, in->nargs - 2);
  LLVMValueRef v = cg_arg(cg, in, 1);
  if (!p || !v)
    return false;
  const Type *et = cg_arg_type(cg, in, 0)->elem;
  if (et->kind == TY_RECORD) { /* a[i] = r: the record's bytes are copied */
    unsigned al = et->size % et->align == 0 ? (unsigned)et->align : 1u;
    LLVMBuildMemMove(cg->b, p, al, v, al, cg_const_i64(cg, et->size));
    return true;
  }
  if (LLVMTypeOf(v) != cg_type(cg, et)) {
    cg_fail(cg, in, "stored value does not have the array's dtype");
    return false;
  }
  if (et->kind == TY_BOOL)
    v = LLVMBuildZExt(cg->b, v, cg->t_i8, "");
  if (in->str && cg->target->kind == CG_NVPTX) {
    hinted_store(cg, in, v, p);
    return true;
  }
  LLVMSetAlignment(LLVMBuildStore(cg->b, v, p), access_align(in, et));
  return true;
}

/* ---------------------------------------------------------- attributes -- */

static LLVMValueRef dims_tuple(Cg *cg, const Inst *in, LLVMValueRef arr, unsigned field, int ndim) {
  LLVMTypeRef tt = cg_type(cg, in->type);
  if (!tt || LLVMGetTypeKind(tt) != LLVMStructTypeKind || (int)LLVMCountStructElementTypes(tt) != ndim) {
    cg_fail(cg, in, "shape/strides tuple of unexpected type");
    return NULL;
  }
  LLVMValueRef v = LLVMGetPoison(tt);
  for (int k = 0; k < ndim; k++)
    v = LLVMBuildInsertValue(cg->b, v, array_field(cg, arr, field, k), (unsigned)k, "");
  return v;
}

LLVMValueRef cg_lower_array_attr(Cg *cg, const Inst *in) {
  LLVMValueRef arr = cg_arg(cg, in, 0);
  const Type *at = cg_arg_type(cg, in, 0);
  if (!arr)
    return NULL;
  if (!at || at->kind != TY_ARRAY) {
    cg_fail(cg, in, "%s of a non-array", ir_op_info[in->op].name);
    return NULL;
  }
  unsigned field = in->op == OP_ARRAY_STRIDE ? 2 : 1;
  switch (in->op) {
  case OP_ARRAY_NDIM: return cg_const_i64(cg, at->ndim);
  case OP_ARRAY_SIZE: {
    LLVMValueRef s = array_field(cg, arr, 1, 0);
    for (int k = 1; k < at->ndim; k++)
      s = LLVMBuildMul(cg->b, s, array_field(cg, arr, 1, k), "");
    return s;
  }
  default:
    if (in->ival < 0)
      return dims_tuple(cg, in, arr, field, at->ndim);
    if (in->ival >= at->ndim) {
      cg_fail(cg, in, "dimension %lld out of range", (long long)in->ival);
      return NULL;
    }
    return array_field(cg, arr, field, (int)in->ival);
  }
}

/* ------------------------------------------------- shared/local arrays -- */

LLVMValueRef cg_lower_array_alloc(Cg *cg, const Inst *in) {
  const Type *at = in->tyimm ? in->tyimm : in->type;
  if (!at || at->kind != TY_ARRAY || at->ndim < 1 || at->ndim > TY_MAX_NDIM || !in->shape) {
    cg_fail(cg, in, "%s without an array type and shape", ir_op_info[in->op].name);
    return NULL;
  }
  LLVMTypeRef et = cg_mem_type(cg, at->elem);
  int64_t isz = cg_size(at->elem), total = 1;
  LLVMValueRef shape[TY_MAX_NDIM], strides[TY_MAX_NDIM], data;
  for (int k = 0; k < at->ndim; k++)
    total *= in->shape[k];
  for (int k = at->ndim - 1, st = (int)isz; k >= 0; st *= (int)in->shape[k], k--) {
    shape[k] = cg_const_i64(cg, in->shape[k]);
    strides[k] = cg_const_i64(cg, st);
  }
  if (in->op == OP_SHARED_ARRAY && at->ndim == 1 && in->shape[0] == 0) {
    LLVMValueRef bytes;
    data = cg->hooks->dyn_shared(cg, &bytes);
    shape[0] = LLVMBuildUDiv(cg->b, bytes, cg_const_i64(cg, isz), "");
  } else if (in->op == OP_SHARED_ARRAY) {
    data = cg->hooks->shared_alloc(cg, et, total, in->ival);
  } else {
    data = cg_entry_alloca(cg, LLVMArrayType2(et, (uint64_t)total), CG_LOCAL_ARRAY_NAME);
    LLVMSetAlignment(data, 16);
  }
  return data ? cg_make_array(cg, at->ndim, data, shape, strides) : NULL;
}

/* ------------------------------------------------------------- atomics -- */

static LLVMAtomicRMWBinOp rmw_op(AtomicKind k, const Type *t, bool *ok) {
  bool fl = cg_is_float(t), sg = cg_is_signed(t);
  *ok = true;
  switch (k) {
  case AK_ADD: return fl ? LLVMAtomicRMWBinOpFAdd : LLVMAtomicRMWBinOpAdd;
  case AK_SUB: return fl ? LLVMAtomicRMWBinOpFSub : LLVMAtomicRMWBinOpSub;
  case AK_AND: *ok = !fl; return LLVMAtomicRMWBinOpAnd;
  case AK_OR: *ok = !fl; return LLVMAtomicRMWBinOpOr;
  case AK_XOR: *ok = !fl; return LLVMAtomicRMWBinOpXor;
  case AK_MAX: *ok = !fl; return sg ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax; /* floats: float_minmax */
  case AK_MIN: *ok = !fl; return sg ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin;
  case AK_EXCH: return LLVMAtomicRMWBinOpXchg;
  case AK_INC: *ok = !fl; return LLVMAtomicRMWBinOpUIncWrap;
  case AK_DEC: *ok = !fl; return LLVMAtomicRMWBinOpUDecWrap;
  default: *ok = false; return LLVMAtomicRMWBinOpXchg;
  }
}

/* Float max/min, all four of Numba's (nvvm.py's atomic min/max template):
 * read the element, and only while the value would change it try a
 * compare-and-swap.  A value that cannot win costs one load and no atomic
 * (an atomicrmw fmax is a CAS loop that always writes: 10x slower on a
 * contended max).  The early exit and the retry test are Numba's:
 *   max/min:       NaN value or NaN element: no change (the NaN stays);
 *                  retry while element <  value (max) / > value (min);
 *   nanmax/nanmin: NaN value: no change; a NaN element takes the value
 *                  (unordered compare).
 * Unlike Numba's template, a successful swap ends the loop (Numba's tries
 * once more and fails).  Result: the element's value before this update,
 * or the one that stopped it. */
typedef struct FloatMinMax {
  AtomicKind kind;
  bool nan_elem_exits; /* an element that is NaN also ends it */
  LLVMRealPredicate retry;
} FloatMinMax;

static const FloatMinMax float_minmax[] = {
    {AK_MAX, true, LLVMRealOLT},
    {AK_MIN, true, LLVMRealOGT},
    {AK_NANMAX, false, LLVMRealULT},
    {AK_NANMIN, false, LLVMRealUGT},
};

static const FloatMinMax *float_minmax_rule(AtomicKind k) {
  for (size_t i = 0; i < sizeof float_minmax / sizeof float_minmax[0]; i++)
    if (float_minmax[i].kind == k)
      return &float_minmax[i];
  return NULL;
}

static LLVMValueRef atomic_float_minmax(Cg *cg, LLVMValueRef p, LLVMValueRef v, const FloatMinMax *r) {
  LLVMBuilderRef B = cg->b;
  LLVMTypeRef ft = LLVMTypeOf(v), it = LLVMIntTypeInContext(cg->ctx, LLVMGetTypeKind(ft) == LLVMFloatTypeKind ? 32
                                                                      : LLVMGetTypeKind(ft) == LLVMHalfTypeKind ? 16 : 64);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
  LLVMBasicBlockRef check = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "minmax.check");
  LLVMBasicBlockRef attempt = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "minmax.cas");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "minmax.done");
  LLVMValueRef first = LLVMBuildLoad2(B, it, p, "");
  LLVMSetVolatile(first, 1); /* re-read at every call, never cached */
  LLVMValueRef firstf = LLVMBuildBitCast(B, first, ft, "");
  LLVMValueRef early = LLVMBuildFCmp(B, LLVMRealUNO, v, r->nan_elem_exits ? firstf : v, "");
  LLVMBuildCondBr(B, early, done, check);

  LLVMPositionBuilderAtEnd(B, check);
  LLVMValueRef cur = LLVMBuildPhi(B, it, "");
  LLVMValueRef curf = LLVMBuildBitCast(B, cur, ft, "");
  LLVMBuildCondBr(B, LLVMBuildFCmp(B, r->retry, curf, v, ""), attempt, done);

  LLVMPositionBuilderAtEnd(B, attempt);
  LLVMValueRef pair = LLVMBuildAtomicCmpXchg(B, p, cur, LLVMBuildBitCast(B, v, it, ""),
                                             LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingMonotonic, 0);
  LLVMValueRef seen = LLVMBuildExtractValue(B, pair, 0, "");
  LLVMBuildCondBr(B, LLVMBuildExtractValue(B, pair, 1, ""), done, check);
  LLVMValueRef cur_v[2] = {first, seen};
  LLVMBasicBlockRef cur_b[2] = {pre, attempt};
  LLVMAddIncoming(cur, cur_v, cur_b, 2);

  LLVMPositionBuilderAtEnd(B, done);
  LLVMValueRef old = LLVMBuildPhi(B, ft, "");
  LLVMValueRef old_v[3] = {firstf, curf, curf};
  LLVMBasicBlockRef old_b[3] = {pre, check, attempt};
  LLVMAddIncoming(old, old_v, old_b, 3);
  return old;
}

static LLVMValueRef atomic_cas(Cg *cg, const Inst *in, LLVMValueRef p, LLVMValueRef cmp, const Type *t) {
  LLVMValueRef nv = cg_arg(cg, in, 3);
  if (!nv || LLVMTypeOf(nv) != LLVMTypeOf(cmp)) {
    if (nv)
      cg_fail(cg, in, "atomic CAS operands of different types");
    return NULL;
  }
  LLVMTypeRef vt = LLVMTypeOf(cmp);
  if (cg_is_float(t)) {
    LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, (unsigned)cg_bits(t));
    cmp = LLVMBuildBitCast(cg->b, cmp, it, "");
    nv = LLVMBuildBitCast(cg->b, nv, it, "");
  }
  LLVMValueRef pair = LLVMBuildAtomicCmpXchg(cg->b, p, cmp, nv, LLVMAtomicOrderingMonotonic,
                                             LLVMAtomicOrderingMonotonic, 0);
  LLVMValueRef old = LLVMBuildExtractValue(cg->b, pair, 0, "");
  return cg_is_float(t) ? LLVMBuildBitCast(cg->b, old, vt, "") : old;
}

/* Result = the old value.  Ordering is `monotonic` (PTX atom without .sem
 * is relaxed, as Numba's atomics are); scope is the whole system. */
LLVMValueRef cg_lower_atomic(Cg *cg, const Inst *in) {
  const Type *at = cg_arg_type(cg, in, 0);
  if (in->nargs < 3 || !at || at->kind != TY_ARRAY) {
    cg_fail(cg, in, "atomic operation without an array, index and value");
    return NULL;
  }
  const Type *t = at->elem;
  if (!cg_is_int(t) && !cg_is_float(t)) {
    cg_unsupported(cg, in, "atomics on this dtype");
    return NULL;
  }
  LLVMValueRef p = element_ptr(cg, in, 1, 1), v = cg_arg(cg, in, 2);
  if (!p || !v)
    return NULL;
  if (LLVMTypeOf(v) != cg_type(cg, t)) {
    cg_fail(cg, in, "atomic value does not have the array's dtype");
    return NULL;
  }
  AtomicKind k = (AtomicKind)in->ival;
  if (k == AK_CAS)
    return atomic_cas(cg, in, p, v, t);
  if (k == AK_NANMAX || k == AK_NANMIN) {
    if (!cg_is_float(t))
      k = k == AK_NANMAX ? AK_MAX : AK_MIN;
  }
  if (cg_is_float(t) && float_minmax_rule(k))
    return atomic_float_minmax(cg, p, v, float_minmax_rule(k));
  if ((k == AK_INC || k == AK_DEC) && cg_bits(t) == 32 && cg->hooks->atomic_incdec)
    return cg->hooks->atomic_incdec(cg, k == AK_INC, p, v);
  bool ok;
  LLVMAtomicRMWBinOp op = rmw_op(k, t, &ok);
  if (!ok) {
    cg_unsupported(cg, in, "this atomic operation on this dtype");
    return NULL;
  }
  return LLVMBuildAtomicRMW(cg->b, op, p, v, LLVMAtomicOrderingMonotonic, 0);
}

/* --------------------------------------------------------------- print -- */

typedef struct PrintBuf {
  StrBuf fmt;
  LLVMValueRef args[32]; /* vprintf's limit, as CUDA C's printf */
  int nargs;
} PrintBuf;

static void put_escaped(StrBuf *sb, const char *s) {
  for (; *s; s++) {
    if (*s == '%')
      sb_putc(sb, '%');
    sb_putc(sb, *s);
  }
}

/* Append one value's format and promoted argument; false if unsupported. */
static bool print_value(Cg *cg, PrintBuf *pb, LLVMValueRef v, const Type *t) {
  if (pb->nargs >= 32) /* typing refuses more than 32 items; a Dim3 takes 3 */
    return false;
  if (t->kind == TY_BOOL) {
    LLVMValueRef ts = cg_cstring(cg, "True", ".true"), fs = cg_cstring(cg, "False", ".false");
    sb_puts(&pb->fmt, "%s");
    pb->args[pb->nargs++] = LLVMBuildSelect(cg->b, v, ts, fs, "");
  } else if (cg_is_int(t)) {
    sb_puts(&pb->fmt, cg_is_signed(t) ? "%lld" : "%llu");
    pb->args[pb->nargs++] = cg_convert(cg, v, t, cg_is_signed(t) ? cg_scalar(TY_I64) : cg_scalar(TY_U64));
  } else if (cg_is_float(t)) {
    sb_puts(&pb->fmt, "%f");
    pb->args[pb->nargs++] = cg_convert(cg, v, t, cg_scalar(TY_F64));
  } else if (t->kind == TY_NONE) {
    sb_puts(&pb->fmt, "None");
  } else if (t->kind == TY_TUPLE) {
    sb_putc(&pb->fmt, '(');
    for (int i = 0; i < t->nelems; i++) {
      if (i)
        sb_puts(&pb->fmt, ", ");
      if (!print_value(cg, pb, LLVMBuildExtractValue(cg->b, v, (unsigned)i, ""), t->elems[i]))
        return false;
    }
    sb_puts(&pb->fmt, t->nelems == 1 ? ",)" : ")");
  } else {
    return false;
  }
  return true;
}

bool cg_lower_print(Cg *cg, const Inst *in) {
  PrintBuf pb = {0};
  bool ok = true;
  sb_init(&pb.fmt);
  for (int i = 0; i < in->nargs && ok; i++) {
    const Inst *a = &cg->f->insts.data[in->args[i]];
    if (i)
      sb_putc(&pb.fmt, ' ');
    if (a->op == OP_CONST_STR) {
      put_escaped(&pb.fmt, a->str ? a->str : "");
      continue;
    }
    LLVMValueRef v = cg_arg(cg, in, i);
    if (!v || !a->type)
      ok = false;
    else if (!print_value(cg, &pb, v, a->type)) {
      cg_unsupported(cg, in, "printing a value of this type");
      ok = false;
    }
  }
  sb_putc(&pb.fmt, '\n');
  if (ok)
    cg->hooks->print(cg, cg_cstring(cg, pb.fmt.data, ".fmt"), pb.args, pb.nargs);
  sb_free(&pb.fmt);
  return ok;
}
