/* const_array.c - module-level NumPy array literals folded into constant
 * arrays: `COEFFS = np.array([1.0, 2.0], dtype=np.float32)`.
 *
 * The literal (nested lists or tuples of constant numbers, 1 to 4
 * dimensions) is folded once per program into packed element bytes in the
 * program's arena; kernels see it as a read-only C-contiguous array
 * (OP_CONST_ARRAY), placed in constant memory on the GPU.  Without dtype=
 * the dtype is NumPy's default: bool if every element is a bool, float64 if
 * any is a float, else int64; elements that all share one NumPy scalar type
 * (np.float32(...)) keep it; any complex element makes it complex128, and an
 * empty literal (np.array([]), np.zeros(0)) is float64 with no elements, as
 * NumPy has them.  With a structured dtype (dtype=[('x', float), ...]) the
 * literal is a list of tuples, one per record, packed at the fields'
 * offsets.  A failure is recorded with the offending
 * node, and only reported if a kernel uses the global (host code may hold
 * any np.array). */
#include "lower/lower_internal.h"

#define CONST_MEMORY_BYTES 65536 /* CUDA's constant memory per module */

typedef struct Walk {
  LowerProg *lp;
  int ndim;
  int64_t shape[4];
  Vec(IrGlobal) vals;   /* the elements in row-major order */
  NdFail *fail;
} Walk;

static bool fail_at(Walk *w, const Node *n, const char *hint, const char *why) {
  w->fail->loc = n->loc;
  w->fail->hint = hint;
  w->fail->why = why;
  return false;
}

static bool is_seq(const Node *n) { return n && (n->kind == ND_LIST || n->kind == ND_TUPLE); }

/* The extents, read along the first element of each level. */
static bool find_shape(Walk *w, const Node *data) {
  const Node *n = data;
  for (w->ndim = 0; is_seq(n); n = n->args.data[0]) {
    if (w->ndim == 4)
      return fail_at(w, n, NULL, "constant arrays have 1 to 4 dimensions");
    w->shape[w->ndim++] = n->args.len;
    if (n->args.len == 0)
      break; /* np.array([]): extent 0, nothing below */
  }
  if (w->ndim == 0)
    return fail_at(w, data, "write the elements as a list: np.array([1.0, 2.0])",
                   "np.array() of a scalar (a 0-d array) is not supported");
  return true;
}

static bool walk(Walk *w, const Node *n, int depth) {
  if (depth < w->ndim) {
    if (!is_seq(n) || n->args.len != w->shape[depth]) {
      const char *why = arena_printf(
          w->lp->a, "ragged nested sequence: expected %lld elements at depth %d, got %s",
          (long long)w->shape[depth], depth + 1,
          is_seq(n) ? arena_printf(w->lp->a, "%d", n->args.len) : "a scalar");
      return fail_at(w, n, "every row of a constant array must have the same length", why);
    }
    for (int i = 0; i < n->args.len; i++)
      if (!walk(w, n->args.data[i], depth + 1))
        return false;
    return true;
  }
  if (is_seq(n))
    return fail_at(w, n, "every row of a constant array must have the same length",
                   "ragged nested sequence: a sequence where a number was expected");
  IrGlobal g;
  const char *why = NULL;
  if (!ir_fold(w->lp, NULL, n, &g, &why) || !g.type || !ty_is_number(g.type))
    return fail_at(w, n,
                   "elements must be int, float, complex or bool literals, module constants or "
                   "arithmetic on them",
                   arena_printf(w->lp->a, "array element is not a constant number%s%s%s",
                                why ? " (" : "", why ? why : "", why ? ")" : ""));
  vec_push(w->lp->a, &w->vals, g);
  return true;
}

/* NumPy's choice without dtype=: one shared type, else bool < int64 < float64. */
static const Type *default_dtype(const Walk *w) {
  if (w->vals.len == 0)
    return TY_F64_T; /* np.array([]) */
  const Type *same = w->vals.data[0].type;
  bool any_float = false, all_bool = true, any_complex = false;
  for (int i = 0; i < w->vals.len; i++) {
    const Type *t = w->vals.data[i].type;
    same = t == same ? same : NULL;
    any_float |= ty_is_float(t);
    any_complex |= ty_is_complex(t);
    all_bool &= t == TY_BOOL_T;
  }
  if (same)
    return same;
  return any_complex ? TY_C128_T : any_float ? TY_F64_T : all_bool ? TY_BOOL_T : TY_I64_T;
}

/* An element converted to dtype t, as NumPy converts on construction; a
 * complex value only into a complex dtype (NumPy would drop the imaginary
 * part with a ComplexWarning). */
static bool convert_elem(const IrGlobal *g, const Type *t, IrGlobal *out, const char **why) {
  if (ty_is_complex(t)) {
    bool c = ty_is_complex(g->type);
    double re = c || ty_is_float(g->type) ? g->fval : (double)g->ival, im = c ? g->fimag : 0.0;
    if (g->type == TY_BOOL_T || (ty_is_int(g->type) && !ty_is_signed(g->type)))
      re = g->type == TY_BOOL_T ? (double)(g->ival != 0) : (double)(uint64_t)g->ival;
    *out = *g;
    out->type = t;
    out->fval = t == TY_C64_T ? (double)(float)re : re;
    out->fimag = t == TY_C64_T ? (double)(float)im : im;
    return true;
  }
  if (ty_is_complex(g->type)) {
    *why = "a complex value needs a complex dtype (complex64 or complex128)";
    return false;
  }
  return ir_const_cast(g, t, out, why);
}

/* dtype= as NumPy accepts it: np.float32, 'float32', numba types, and the
 * Python builtins float/int/bool. */
static const Type *dtype_arg(Walk *w, const Node *n) {
  const Type *t = ir_dtype_of(w->lp, NULL, n);
  if (!t && n->kind == ND_NAME && !ir_global_find(w->lp->p, n->name) && !ir_import_path(w->lp, n->name)) {
    if (strcmp(n->name, "float") == 0)
      t = TY_F64_T;
    else if (strcmp(n->name, "int") == 0)
      t = TY_I64_T;
    else if (strcmp(n->name, "bool") == 0)
      t = TY_BOOL_T;
  }
  if (t && t->kind == TY_F16)
    t = NULL;
  if (!t) {
    const char *what = n->kind == ND_STR && n->str ? n->str : ir_dotted(w->lp->a, n);
    fail_at(w, n, "use bool, an integer type (np.int32...), float32/float64 or complex64/complex128",
            arena_printf(w->lp->a, "unsupported dtype '%s'", what));
  }
  return t;
}

static void store_elem(uint8_t *p, const Type *t, const IrGlobal *v) {
  switch (t->kind) {
  case TY_BOOL: case TY_I8: case TY_U8: *p = (uint8_t)v->ival; break;
  case TY_I16: case TY_U16: { uint16_t x = (uint16_t)v->ival; memcpy(p, &x, 2); break; }
  case TY_I32: case TY_U32: { uint32_t x = (uint32_t)v->ival; memcpy(p, &x, 4); break; }
  case TY_F32: { float x = (float)v->fval; memcpy(p, &x, 4); break; }
  case TY_F64: memcpy(p, &v->fval, 8); break;
  case TY_C64: { float x[2] = {(float)v->fval, (float)v->fimag}; memcpy(p, x, 8); break; }
  case TY_C128: { double x[2] = {v->fval, v->fimag}; memcpy(p, x, 16); break; }
  default: memcpy(p, &v->ival, 8); break; /* int64, uint64 */
  }
}

/* Convert the elements to dtype t and pack them. */
static bool pack(Walk *w, const Node *call, const Type *t, IrGlobal *out) {
  int64_t isz = ty_size(t), n = w->vals.len;
  if (n * isz > CONST_MEMORY_BYTES)
    return fail_at(w, call->lhs, "constant memory holds 64 KiB per module: pass the data as an argument",
                   arena_printf(w->lp->a, "its %lld bytes exceed the %d bytes of constant memory",
                                (long long)(n * isz), CONST_MEMORY_BYTES));
  uint8_t *data = arena_alloc(w->lp->a, (size_t)(n * isz) + 1); /* + 1: an empty array's */
  for (int64_t i = 0; i < n; i++) {
    IrGlobal c;
    const char *why = NULL;
    if (!convert_elem(&w->vals.data[i], t, &c, &why))
      return fail_at(w, call, NULL, arena_printf(w->lp->a, "element %lld: %s", (long long)i, why));
    store_elem(data + i * isz, t, &c);
  }
  int64_t *shape = arena_alloc(w->lp->a, sizeof(int64_t) * (size_t)w->ndim);
  memcpy(shape, w->shape, sizeof(int64_t) * (size_t)w->ndim);
  memset(out, 0, sizeof *out);
  out->type = ty_array_readonly(w->lp->p->types, t, w->ndim, LAYOUT_C);
  out->shape = shape;
  out->data = data;
  return true;
}

static bool is_np_array(LowerProg *lp, const Node *n) {
  if (!n || n->kind != ND_CALL)
    return false;
  const char *path = ir_resolve_path(lp, NULL, n->lhs);
  return path && strcmp(path, "numpy.array") == 0;
}

bool ir_is_ndarray_call(LowerProg *lp, const Node *n) {
  return is_np_array(lp, n) || ir_is_array_expr(lp, n);
}

bool ir_pack_const_array(LowerProg *lp, const Node *at, const ArrVal *v, IrGlobal *out, NdFail *fail) {
  Walk w = {.lp = lp, .fail = fail, .ndim = v->ndim};
  memcpy(w.shape, v->shape, sizeof w.shape);
  w.vals.data = v->vals;
  w.vals.len = (int)v->n;
  return pack(&w, at, v->dtype, out);
}

/* np.array(data[, dtype], dtype=...): its dtype, shape and elements. */
bool ir_ndarray_literal(LowerProg *lp, const Node *call, ArrVal *out, NdFail *fail) {
  Walk w = {.lp = lp, .fail = fail};
  const Node *dt = call->args.len > 1 ? call->args.data[1] : NULL;
  for (int i = 0; i < call->args2.len; i++) {
    const Node *kw = call->args2.data[i];
    if (kw->name && strcmp(kw->name, "dtype") == 0 && !dt)
      dt = kw->lhs;
    else
      return fail_at(&w, kw, "constant arrays take the data and a dtype",
                     arena_printf(lp->a, "np.array() argument '%s' is not supported here",
                                  kw->name ? kw->name : "**"));
  }
  if (call->args.len < 1 || call->args.len > 2)
    return fail_at(&w, call, NULL, "np.array() takes the data and an optional dtype");
  if (!find_shape(&w, call->args.data[0]) || !walk(&w, call->args.data[0], 0))
    return false;
  const Type *t = dt ? dtype_arg(&w, dt) : default_dtype(&w);
  if (!t)
    return false;
  *out = (ArrVal){.dtype = t, .ndim = w.ndim, .vals = w.vals.data, .n = w.vals.len};
  memcpy(out->shape, w.shape, sizeof out->shape);
  for (int64_t i = 0; i < out->n; i++) { /* NumPy converts on construction */
    const char *why = NULL;
    if (!convert_elem(&w.vals.data[i], t, &out->vals[i], &why))
      return fail_at(&w, call, NULL, arena_printf(lp->a, "element %lld: %s", (long long)i, why));
  }
  return true;
}

/* ------------------------------------------------------ record arrays -- */

/* The dtype= of an np.array call, or NULL. */
static const Node *dtype_node(const Node *call) {
  if (call->args.len > 1)
    return call->args.data[1];
  for (int i = 0; i < call->args2.len; i++)
    if (call->args2.data[i]->name && strcmp(call->args2.data[i]->name, "dtype") == 0)
      return call->args2.data[i]->lhs;
  return NULL;
}

/* A structured dtype: a field list, np.dtype([...]), numba.from_dtype(...),
 * or a variable bound to one. */
static bool is_record_dtype(LowerProg *lp, const Node *dt) {
  const Node *v = dt ? ir_sig_resolve(lp->p, dt) : NULL;
  return v && (v->kind == ND_LIST || ir_is_record_expr(lp->p, v));
}

/* One record: a tuple of its fields' values, in the fields' order. */
static bool pack_record(Walk *w, const Node *n, const Type *rt, uint8_t *p) {
  if (!n || n->kind != ND_TUPLE || n->args.len != rt->nelems)
    return fail_at(w, n, "write each record as a tuple of its fields' values: (1.0, 2)",
                   arena_printf(w->lp->a, "a record of %d fields needs a tuple of %d values",
                                rt->nelems, rt->nelems));
  for (int f = 0; f < rt->nelems; f++) {
    const Type *ft = rt->elems[f];
    IrGlobal g, c;
    const char *why = NULL;
    char tn[128];
    if (!ty_is_number(ft))
      return fail_at(w, n, "pass the records as an argument",
                     arena_printf(w->lp->a, "constant record arrays hold number fields; field '%s' "
                                  "is %s", rt->fnames[f], ty_name(ft, tn, sizeof tn)));
    if (!ir_fold(w->lp, NULL, n->args.data[f], &g, &why) || !g.type || !ty_is_number(g.type) ||
        !convert_elem(&g, ft, &c, &why))
      return fail_at(w, n->args.data[f], NULL,
                     arena_printf(w->lp->a, "field '%s' is not a constant number%s%s%s",
                                  rt->fnames[f], why ? " (" : "", why ? why : "", why ? ")" : ""));
    store_elem(p + rt->offsets[f], ft, &c);
  }
  return true;
}

/* The records of nested lists (NumPy: lists are dimensions, tuples records). */
static bool walk_records(Walk *w, const Node *n, int depth, const Type *rt, uint8_t *data,
                         int64_t *k) {
  if (depth == w->ndim)
    return pack_record(w, n, rt, data + (*k)++ * rt->size);
  if (!n || n->kind != ND_LIST || n->args.len != w->shape[depth])
    return fail_at(w, n, "every row of a constant array must have the same length",
                   "ragged nested sequence of records");
  for (int i = 0; i < n->args.len; i++)
    if (!walk_records(w, n->args.data[i], depth + 1, rt, data, k))
      return false;
  return true;
}

/* np.array([(1.0, 2), ...], dtype=[('x', float), ('y', int)]): a record
 * array folded into its bytes, as Numba freezes one (cuda.const.array_like
 * of a record array; np.array([], dtype=...) has no records). */
static bool record_array(LowerProg *lp, const Node *call, const Node *dt, IrGlobal *out,
                         NdFail *fail) {
  Walk w = {.lp = lp, .fail = fail};
  Diags d;
  diags_init(&d, lp->a);
  const Type *rt = ir_record_from_ast(lp->p, dt, &d);
  if (!rt) {
    const Diag *g = d.list.len ? &d.list.data[0] : NULL;
    w.fail->loc = g ? g->loc : dt->loc;
    w.fail->hint = g ? g->hint : NULL;
    w.fail->why = g ? g->msg : "malformed structured dtype";
    return false;
  }
  if (call->args.len < 1 || call->args2.len + call->args.len > 2)
    return fail_at(&w, call, NULL, "np.array() of records takes the data and a dtype");
  const Node *data = call->args.data[0];
  int64_t count = 1, k = 0;
  for (const Node *n = data; n && n->kind == ND_LIST; n = n->args.len ? n->args.data[0] : NULL) {
    if (w.ndim == 4)
      return fail_at(&w, n, NULL, "constant arrays have 1 to 4 dimensions");
    count *= w.shape[w.ndim++] = n->args.len;
  }
  if (w.ndim == 0)
    return fail_at(&w, data, "write the records as a list: np.array([(1.0, 2)], dtype=dt)",
                   "np.array() of one record (a 0-d array) is not supported");
  if (count * rt->size > CONST_MEMORY_BYTES)
    return fail_at(&w, call->lhs, "constant memory holds 64 KiB per module: pass the data as an argument",
                   "the record array is too large for constant memory");
  uint8_t *bytes = arena_alloc(lp->a, (size_t)(count * rt->size) + 1);
  memset(bytes, 0, (size_t)(count * rt->size) + 1); /* padding reads as NumPy's zeros */
  if (count > 0 && !walk_records(&w, data, 0, rt, bytes, &k))
    return false;
  int64_t *shape = arena_alloc(lp->a, sizeof(int64_t) * (size_t)w.ndim);
  memcpy(shape, w.shape, sizeof(int64_t) * (size_t)w.ndim);
  memset(out, 0, sizeof *out);
  out->type = ty_array_readonly(lp->p->types, rt, w.ndim, LAYOUT_C);
  out->shape = shape;
  out->data = bytes;
  return true;
}

/* A folded array: np.array(...) itself, or an expression of the array
 * constructors (const_array_expr.c). */
bool ir_fold_ndarray(LowerProg *lp, const Node *call, IrGlobal *out, NdFail *fail) {
  ArrVal v;
  if (is_np_array(lp, call) && is_record_dtype(lp, dtype_node(call)))
    return record_array(lp, call, dtype_node(call), out, fail);
  if (is_np_array(lp, call))
    return ir_ndarray_literal(lp, call, &v, fail) && ir_pack_const_array(lp, call, &v, out, fail);
  return ir_fold_array_expr(lp, call, out, fail);
}
