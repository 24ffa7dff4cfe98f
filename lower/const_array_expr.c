/* const_array_expr.c - module-level array expressions folded into constant
 * arrays, as Numba freezes a global NumPy array into the kernel:
 *   np.arange([start,] stop[, step][, dtype])    np.linspace(a, b[, num])
 *   np.zeros / np.ones(shape[, dtype])           np.full(shape, v[, dtype])   np.eye(n[, m, k])
 *   x.astype(dtype)   x.reshape(shape)   x.copy()   np.ascontiguousarray(x)   np.asarray(x)
 *   cuda.to_device(x)   x OP scalar, scalar OP x (+ - * / //), -x
 * where x is one of these or an np.array literal (const_array.c).  Values
 * follow NumPy: arange of ints is int64, with a float float64; zeros/ones
 * are float64; full takes its value's type; an operation with a Python
 * scalar keeps the array's dtype unless the scalar is a float and the array
 * integer (float64), `/` gives floats; each result is rounded to its dtype.
 * Complex arrays and scalars fold + - * / in the dtype's precision, as
 * NumPy's loops compute them (complex64 in float, / by Smith's method).
 * cuda.to_device(x) is frozen too, read-only: kernels may read it (writes
 * are type errors, as for every constant array).  Anything else (an array
 * op array, np.empty, np.asfortranarray, np.random) stays non-constant. */
#include <math.h>

#include "lower/lower_internal.h"

#define MAX_ELEMS 65536 /* constant memory holds 64 KiB: no more 1-byte elements */

typedef struct Ev {
  LowerProg *lp;
  NdFail *fail;
} Ev;

static bool fail_at(Ev *e, const Node *n, const char *hint, const char *why) {
  e->fail->loc = n->loc;
  e->fail->hint = hint;
  e->fail->why = why;
  return false;
}

static const char *path_of(Ev *e, const Node *call) {
  return call && call->kind == ND_CALL ? ir_resolve_path(e->lp, NULL, call->lhs) : NULL;
}

static const char *method_of(const Node *call) {
  return call && call->kind == ND_CALL && call->lhs && call->lhs->kind == ND_ATTR ? call->lhs->name : NULL;
}

static bool is_ctor(const char *p) {
  static const char *const ctors[] = {"numpy.array", "numpy.arange", "numpy.zeros", "numpy.ones",
                                      "numpy.full", "numpy.linspace", "numpy.ascontiguousarray", "numpy.eye", "numpy.asarray",
                                      "numba.cuda.to_device", NULL};
  for (int i = 0; p && ctors[i]; i++)
    if (strcmp(p, ctors[i]) == 0)
      return true;
  return false;
}

static bool is_method(const char *m) {
  return m && (strcmp(m, "astype") == 0 || strcmp(m, "reshape") == 0 || strcmp(m, "copy") == 0);
}

/* np.float64([1.0, 2.0]): a NumPy scalar type called on a list is
 * np.array(list, dtype=that type). */
static bool is_dtype_ctor(Ev *e, const Node *n) {
  const char *p = path_of(e, n);
  return p && ir_path_dtype(p) && n->args.len == 1 && !n->args2.len &&
         n->args.data[0]->kind == ND_LIST;
}

/* X[::-1], X[1:, ::2]: slices (constant bounds) of a constant array. */
static bool is_slice_of(const Node *n) {
  if (!n || n->kind != ND_SUBSCRIPT || !n->rhs)
    return false;
  if (n->rhs->kind == ND_SLICE)
    return true;
  if (n->rhs->kind != ND_TUPLE || n->rhs->args.len == 0)
    return false;
  for (int i = 0; i < n->rhs->args.len; i++)
    if (n->rhs->args.data[i]->kind != ND_SLICE)
      return false;
  return true;
}

bool ir_is_array_expr(LowerProg *lp, const Node *n) {
  Ev e = {lp, NULL};
  if (!n)
    return false;
  if (n->kind == ND_CALL && is_dtype_ctor(&e, n))
    return true;
  if (is_slice_of(n))
    return ir_is_array_expr(lp, n->lhs);
  const IrGlobal *g = n->kind == ND_NAME ? ir_global_find(lp->p, n->name) : NULL;
  if (g && g->type && g->type->kind == TY_ARRAY && g->data)
    return true; /* an array folded before */
  if (n->kind == ND_CALL && is_ctor(path_of(&e, n)))
    return true;
  if (n->kind == ND_CALL && is_method(method_of(n)))
    return ir_is_array_expr(lp, n->lhs->lhs);
  if (n->kind == ND_BINOP)
    return ir_is_array_expr(lp, n->lhs) || ir_is_array_expr(lp, n->rhs);
  if (n->kind == ND_UNARY && n->op == AOP_NEG)
    return ir_is_array_expr(lp, n->lhs);
  return false;
}

/* ------------------------------------------------------------ arguments -- */

/* Positional argument i, or keyword `name`; NULL when absent. */
static const Node *arg(const Node *call, int i, const char *name) {
  for (int k = 0; k < call->args2.len; k++) {
    const Node *kw = call->args2.data[k];
    if (kw->name && strcmp(kw->name, name) == 0)
      return kw->lhs;
  }
  return i >= 0 && i < call->args.len ? call->args.data[i] : NULL;
}

/* Every keyword of call is one of `allowed` (NULL-terminated). */
static bool check_keywords(Ev *e, const Node *call, const char *const *allowed) {
  for (int k = 0; k < call->args2.len; k++) {
    const Node *kw = call->args2.data[k];
    bool ok = false;
    for (int i = 0; kw->name && allowed[i]; i++)
      ok |= strcmp(kw->name, allowed[i]) == 0;
    if (!ok)
      return fail_at(e, kw, NULL, arena_printf(e->lp->a, "argument '%s' is not supported in a constant array",
                                              kw->name ? kw->name : "**"));
  }
  return true;
}

static bool scalar(Ev *e, const Node *n, IrGlobal *g) {
  const char *why = NULL;
  if (ir_fold(e->lp, NULL, n, g, &why) && g->type && ty_is_number(g->type) && !ty_is_complex(g->type))
    return true;
  return fail_at(e, n, "use int, float or bool constants",
                 arena_printf(e->lp->a, "not a constant number%s%s%s", why ? " (" : "", why ? why : "",
                              why ? ")" : ""));
}

static const Type *dtype(Ev *e, const Node *n) {
  const Type *t = ir_dtype_of(e->lp, NULL, n);
  if (!t && n->kind == ND_NAME && !ir_global_find(e->lp->p, n->name))
    t = strcmp(n->name, "float") == 0 ? TY_F64_T : strcmp(n->name, "int") == 0 ? TY_I64_T
        : strcmp(n->name, "bool") == 0 ? TY_BOOL_T : NULL;
  if (t && t->kind != TY_F16)
    return t;
  fail_at(e, n, "use bool, an integer type (np.int32...), float32/float64 or complex64/complex128",
          arena_printf(e->lp->a, "unsupported dtype '%s'", ir_dotted(e->lp->a, n)));
  return NULL;
}

/* A shape: an int or a tuple of 1 to 4 ints (one may be -1 when `size`
 * >= 0 names the element count to keep: reshape). */
static bool shape_of(Ev *e, const Node *at, const Node *n, ArrVal *v, int64_t size) {
  IrGlobal g;
  const char *why = NULL;
  if (!n)
    return fail_at(e, at, NULL, "the shape is missing");
  if (!ir_fold(e->lp, NULL, n, &g, &why) || !g.type)
    return fail_at(e, n, NULL, "the shape is not a constant");
  int nd = g.type && g.type->kind == TY_TUPLE ? g.nelems : 1;
  if (nd < 1 || nd > 4)
    return fail_at(e, n, NULL, "constant arrays have 1 to 4 dimensions");
  int64_t known = 1, neg = -1;
  for (int d = 0; d < nd; d++) {
    const IrGlobal *x = g.type->kind == TY_TUPLE ? &g.elems[d] : &g;
    if (!x->type || !ty_is_int(x->type))
      return fail_at(e, n, NULL, "a shape holds integers");
    v->shape[d] = x->ival;
    if (x->ival == -1 && size >= 0 && neg < 0)
      neg = d;
    else if (x->ival < 0)
      return fail_at(e, n, NULL, "negative dimensions are not allowed");
    else if (x->ival > MAX_ELEMS || (known *= x->ival) > MAX_ELEMS)
      return fail_at(e, n, "constant memory holds 64 KiB per module: pass the data as an argument",
                     "the array is too large for constant memory");
  }
  if (neg >= 0)
    v->shape[neg] = known ? size / known : 0;
  v->ndim = nd;
  v->n = known * (neg >= 0 ? v->shape[neg] : 1);
  if (size >= 0 && v->n != size)
    return fail_at(e, n, NULL, arena_printf(e->lp->a, "cannot reshape an array of size %lld into this shape",
                                            (long long)size));
  return true;
}

static IrGlobal *alloc_vals(Ev *e, int64_t n) {
  return arena_alloc(e->lp->a, sizeof(IrGlobal) * (size_t)(n > 0 ? n : 1));
}

static bool cast_all(Ev *e, const Node *at, ArrVal *v, const Type *t) {
  for (int64_t i = 0; i < v->n; i++) {
    const char *why = NULL;
    if (!ir_const_cast(&v->vals[i], t, &v->vals[i], &why))
      return fail_at(e, at, NULL, arena_printf(e->lp->a, "element %lld: %s", (long long)i, why));
  }
  v->dtype = t;
  return true;
}

static IrGlobal num(const Type *t, double f, int64_t i) {
  IrGlobal g = {0};
  g.type = t;
  g.fval = t == TY_F32_T ? (double)(float)f : f;
  g.ival = i;
  return g;
}

static double as_f(const IrGlobal *g) { return ty_is_float(g->type) ? g->fval : (double)g->ival; }

/* --------------------------------------------------------- constructors -- */

static bool eval(Ev *e, const Node *n, ArrVal *v);

/* np.zeros / np.ones / np.full */
static bool fill(Ev *e, const Node *call, const char *p, ArrVal *v) {
  static const char *const kws[] = {"shape", "dtype", "fill_value", NULL};
  bool full = strcmp(p, "numpy.full") == 0;
  const Node *dt = arg(call, full ? 2 : 1, "dtype"), *fv = full ? arg(call, 1, "fill_value") : NULL;
  IrGlobal g = num(TY_F64_T, strcmp(p, "numpy.ones") == 0 ? 1.0 : 0.0, 0);
  if (full && !fv)
    return fail_at(e, call, NULL, "np.full() needs a fill value");
  if (!check_keywords(e, call, kws) || !shape_of(e, call, arg(call, 0, "shape"), v, -1) ||
      (fv && !scalar(e, fv, &g)))
    return false;
  v->dtype = g.type; /* np.full: the value's own type, as np.array(v) */
  v->vals = alloc_vals(e, v->n);
  for (int64_t i = 0; i < v->n; i++)
    v->vals[i] = g;
  const Type *t = dt ? dtype(e, dt) : NULL;
  return !dt || (t && cast_all(e, dt, v, t));
}

/* np.arange([start,] stop[, step], dtype=...) */
static bool arange(Ev *e, const Node *call, ArrVal *v) {
  static const char *const kws[] = {"start", "stop", "step", "dtype", NULL};
  int np = call->args.len;
  const Node *dt = arg(call, np == 4 ? 3 : -1, "dtype");
  if (!check_keywords(e, call, kws) || np < 1 || np > 4)
    return fail_at(e, call, NULL, "np.arange() takes stop, or start, stop[, step]");
  IrGlobal a = num(TY_I64_T, 0, 0), b, s = num(TY_I64_T, 1, 1);
  if ((np >= 2 && !scalar(e, call->args.data[0], &a)) || !scalar(e, call->args.data[np >= 2 ? 1 : 0], &b) ||
      (np >= 3 && !scalar(e, call->args.data[2], &s)))
    return false;
  bool fl = ty_is_float(a.type) || ty_is_float(b.type) || ty_is_float(s.type);
  if (as_f(&s) == 0)
    return fail_at(e, call, NULL, "np.arange() step cannot be zero");
  double len = ceil((as_f(&b) - as_f(&a)) / as_f(&s));
  int64_t n = len > 0 ? (int64_t)len : 0;
  if (n > MAX_ELEMS)
    return fail_at(e, call, "constant memory holds 64 KiB per module: pass the data as an argument",
                   "the array is too large for constant memory");
  *v = (ArrVal){.dtype = fl ? TY_F64_T : TY_I64_T, .ndim = 1, .shape = {n}, .n = n, .vals = alloc_vals(e, n)};
  for (int64_t i = 0; i < n; i++)
    v->vals[i] = fl ? num(TY_F64_T, as_f(&a) + (double)i * as_f(&s), 0)
                    : num(TY_I64_T, 0, a.ival + i * s.ival);
  const Type *t = dt ? dtype(e, dt) : NULL;
  return !dt || (t && cast_all(e, dt, v, t));
}

/* np.linspace(start, stop, num=50, endpoint=True, dtype=None) */
static bool linspace(Ev *e, const Node *call, ArrVal *v) {
  static const char *const kws[] = {"start", "stop", "num", "endpoint", "dtype", NULL};
  IrGlobal a, b, num_g = num(TY_I64_T, 0, 50), ep = num(TY_BOOL_T, 0, 1);
  const Node *nn = arg(call, 2, "num"), *en = arg(call, 3, "endpoint"), *dt = arg(call, 5, "dtype");
  if (!check_keywords(e, call, kws) || !arg(call, 0, "start") || !arg(call, 1, "stop"))
    return fail_at(e, call, NULL, "np.linspace() takes start, stop[, num]");
  if (!scalar(e, arg(call, 0, "start"), &a) || !scalar(e, arg(call, 1, "stop"), &b) ||
      (nn && !scalar(e, nn, &num_g)) || (en && !scalar(e, en, &ep)))
    return false;
  int64_t n = num_g.ival;
  if (!ty_is_int(num_g.type) || n < 1 || n > MAX_ELEMS)
    return fail_at(e, nn ? nn : call, NULL, "np.linspace() num must be an integer from 1 to 65536");
  double div = ep.ival ? (double)(n - 1) : (double)n, step = div > 0 ? (as_f(&b) - as_f(&a)) / div : 0;
  *v = (ArrVal){.dtype = TY_F64_T, .ndim = 1, .shape = {n}, .n = n, .vals = alloc_vals(e, n)};
  for (int64_t i = 0; i < n; i++)
    v->vals[i] = num(TY_F64_T, (double)i * step + as_f(&a), 0);
  if (ep.ival && n > 1)
    v->vals[n - 1] = num(TY_F64_T, as_f(&b), 0);
  const Type *t = dt ? dtype(e, dt) : NULL;
  return !dt || (t && cast_all(e, dt, v, t));
}

/* np.eye(N[, M][, k][, dtype]): ones on diagonal k, float64 unless dtype. */
static bool eye(Ev *e, const Node *call, ArrVal *v) {
  static const char *const kws[] = {"N", "M", "k", "dtype", NULL};
  const Node *nn = arg(call, 0, "N"), *mm = arg(call, 1, "M"), *kk = arg(call, 2, "k");
  const Node *dt = arg(call, 3, "dtype");
  IrGlobal n, m, k = num(TY_I64_T, 0, 0);
  if (!check_keywords(e, call, kws) || !nn || !scalar(e, nn, &n) || (mm && !scalar(e, mm, &m)) ||
      (kk && !scalar(e, kk, &k)) || !ty_is_int(n.type) || (mm && !ty_is_int(m.type)) ||
      n.ival < 0 || (mm && m.ival < 0) || n.ival * (mm ? m.ival : n.ival) > MAX_ELEMS)
    return fail_at(e, call, NULL, "np.eye() takes constant sizes N[, M][, k]");
  v->ndim = 2;
  v->shape[0] = n.ival;
  v->shape[1] = mm ? m.ival : n.ival;
  v->n = v->shape[0] * v->shape[1];
  v->dtype = TY_F64_T;
  v->vals = alloc_vals(e, v->n);
  for (int64_t i = 0; i < v->n; i++)
    v->vals[i] = num(TY_F64_T, i % v->shape[1] - i / v->shape[1] == k.ival ? 1.0 : 0.0, 0);
  const Type *t = dt ? dtype(e, dt) : NULL;
  return !dt || (t && cast_all(e, dt, v, t));
}

/* np.ascontiguousarray(x[, dtype]), np.asarray(x[, dtype]) and
 * cuda.to_device(x): x itself (a list or tuple: np.array's). */
static bool passthrough(Ev *e, const Node *call, ArrVal *v) {
  static const char *const kws[] = {"dtype", "stream", "copy", NULL};
  if (!check_keywords(e, call, kws) || call->args.len < 1)
    return fail_at(e, call, NULL, "give the array to convert");
  NodeKind k = call->args.data[0]->kind;
  if (k == ND_LIST || k == ND_TUPLE) /* np.ascontiguousarray([1.0, 2.0], dtype=...): np.array's */
    return ir_ndarray_literal(e->lp, call, v, e->fail);
  if (!eval(e, call->args.data[0], v))
    return false;
  const Node *dt = strcmp(path_of(e, call), "numba.cuda.to_device") != 0 ? arg(call, 1, "dtype") : NULL;
  const Type *t = dt ? dtype(e, dt) : NULL;
  return !dt || (t && cast_all(e, dt, v, t));
}

static bool method(Ev *e, const Node *call, const char *m, ArrVal *v) {
  if (!eval(e, call->lhs->lhs, v))
    return false;
  if (strcmp(m, "copy") == 0)
    return true;
  if (strcmp(m, "astype") == 0) {
    const Node *dt = arg(call, 0, "dtype");
    const Type *t = dt ? dtype(e, dt) : NULL;
    return t ? cast_all(e, dt, v, t) : (dt ? false : fail_at(e, call, NULL, "astype() needs a dtype"));
  }
  if (call->args.len == 1) /* reshape((a, b)) or reshape(n) */
    return shape_of(e, call, call->args.data[0], v, v->n);
  if (call->args.len < 1 || call->args.len > 4)
    return fail_at(e, call, NULL, "reshape() takes 1 to 4 dimensions");
  /* reshape(a, b, ...): the same as a tuple */
  Node tup = *call;
  tup.kind = ND_TUPLE;
  return shape_of(e, call, &tup, v, v->n);
}

/* --------------------------------------------------------- arithmetic -- */

/* The result dtype of array (dtype a) OP Python scalar s (NumPy 2: the
 * scalar is weak unless a float meets an integer array, or a complex a
 * real array: float32 -> complex64, others -> complex128). */
static const Type *op_dtype(const Type *a, const Type *s, AstOp op) {
  if (ty_is_complex(a))
    return a;
  if (ty_is_complex(s))
    return a == TY_F32_T ? TY_C64_T : TY_C128_T;
  if (op == AOP_DIV)
    return ty_is_float(a) ? a : TY_F64_T;
  if (ty_is_float(a))
    return a;
  if (ty_is_float(s))
    return TY_F64_T;
  return a == TY_BOOL_T ? TY_I64_T : a;
}

static void parts(const IrGlobal *g, double *re, double *im) {
  *re = ty_is_complex(g->type) ? g->fval : as_f(g);
  *im = ty_is_complex(g->type) ? g->fimag : 0;
}

/* NumPy's complex loops, in the dtype's precision (complex64 in float):
 * + - * by components, / by Smith's method as numpy's loops.c has it. */
#define COMPLEX_OP(T, op, ar, ai, br, bi, re, im)                                  \
  do {                                                                             \
    T a_ = (T)(ar), b_ = (T)(ai), c_ = (T)(br), d_ = (T)(bi), r_, i_;              \
    if ((op) == AOP_ADD) r_ = a_ + c_, i_ = b_ + d_;                               \
    else if ((op) == AOP_SUB) r_ = a_ - c_, i_ = b_ - d_;                          \
    else if ((op) == AOP_MUL) {                                                    \
      T p1 = a_ * c_, p2 = b_ * d_, p3 = a_ * d_, p4 = b_ * c_;                    \
      r_ = p1 - p2, i_ = p3 + p4;                                                  \
    } else if ((T)fabs((double)c_) >= (T)fabs((double)d_)) {                       \
      if (c_ == 0 && d_ == 0) r_ = a_ / (T)fabs((double)c_), i_ = b_ / (T)fabs((double)d_); \
      else {                                                                       \
        T rat = d_ / c_, scl = (T)1.0 / (c_ + d_ * rat);                           \
        r_ = (a_ + b_ * rat) * scl, i_ = (b_ - a_ * rat) * scl;                    \
      }                                                                            \
    } else {                                                                       \
      T rat = c_ / d_, scl = (T)1.0 / (d_ + c_ * rat);                             \
      r_ = (a_ * rat + b_) * scl, i_ = (b_ * rat - a_) * scl;                      \
    }                                                                              \
    *(re) = (double)r_, *(im) = (double)i_;                                        \
  } while (0)

static bool apply_complex(Ev *e, const Node *n, IrGlobal *x, const IrGlobal *y, bool swap, const Type *t) {
  if (n->op != AOP_ADD && n->op != AOP_SUB && n->op != AOP_MUL && n->op != AOP_DIV)
    return fail_at(e, n, "use +, -, * or / with a complex number",
                   arena_printf(e->lp->a, "operator '%s' of complex numbers is not supported in a constant array",
                                ast_op_str(n->op)));
  double ar, ai, br, bi, re, im;
  parts(swap ? y : x, &ar, &ai);
  parts(swap ? x : y, &br, &bi);
  if (t == TY_C64_T)
    COMPLEX_OP(float, n->op, ar, ai, br, bi, &re, &im);
  else
    COMPLEX_OP(double, n->op, ar, ai, br, bi, &re, &im);
  *x = (IrGlobal){.type = t, .fval = re, .fimag = im};
  return true;
}

static bool apply(Ev *e, const Node *n, IrGlobal *x, const IrGlobal *y, bool swap, const Type *t) {
  if (ty_is_complex(t))
    return apply_complex(e, n, x, y, swap, t);
  double a = as_f(x), b = as_f(y);
  if (swap) { double c = a; a = b; b = c; }
  int64_t ia = swap ? y->ival : x->ival, ib = swap ? x->ival : y->ival;
  bool fl = ty_is_float(t);
  switch (n->op) {
  case AOP_ADD: *x = fl ? num(t, a + b, 0) : num(t, 0, (int64_t)((uint64_t)ia + (uint64_t)ib)); break;
  case AOP_SUB: *x = fl ? num(t, a - b, 0) : num(t, 0, (int64_t)((uint64_t)ia - (uint64_t)ib)); break;
  case AOP_MUL: *x = fl ? num(t, a * b, 0) : num(t, 0, (int64_t)((uint64_t)ia * (uint64_t)ib)); break;
  case AOP_DIV: *x = num(t, a / b, 0); break;
  case AOP_FLOORDIV:
    if (!fl && ib == 0)
      return fail_at(e, n, NULL, "integer division by zero");
    *x = fl ? num(t, floor(a / b), 0) : num(t, 0, ia / ib - ((ia % ib != 0) && ((ia < 0) != (ib < 0))));
    break;
  default:
    return fail_at(e, n, "use +, -, *, / or // with a number",
                   arena_printf(e->lp->a, "operator '%s' is not supported in a constant array", ast_op_str(n->op)));
  }
  const char *why = NULL;
  return ir_const_cast(x, t, x, &why) || fail_at(e, n, NULL, why);
}

static bool binop(Ev *e, const Node *n, ArrVal *v) {
  bool left = ir_is_array_expr(e->lp, n->lhs);
  if (left && ir_is_array_expr(e->lp, n->rhs))
    return fail_at(e, n, "combine an array with a number", "arithmetic between two arrays is not folded");
  IrGlobal s;
  const char *why = NULL;
  const Node *sn = left ? n->rhs : n->lhs;
  if (!eval(e, left ? n->lhs : n->rhs, v))
    return false;
  if (!(ir_fold(e->lp, NULL, sn, &s, &why) && s.type && ty_is_complex(s.type)) && !scalar(e, sn, &s))
    return false;
  const Type *t = op_dtype(v->dtype, s.type, n->op);
  for (int64_t i = 0; i < v->n; i++)
    if (!apply(e, n, &v->vals[i], &s, !left, t))
      return false;
  v->dtype = t;
  return true;
}

static bool negate(Ev *e, const Node *n, ArrVal *v) {
  if (!eval(e, n->lhs, v))
    return false;
  if (ty_is_complex(v->dtype)) { /* NumPy's negative: both signs flip (-0.0 too) */
    for (int64_t i = 0; i < v->n; i++)
      v->vals[i].fval = -v->vals[i].fval, v->vals[i].fimag = -v->vals[i].fimag;
    return true;
  }
  IrGlobal zero = num(TY_I64_T, 0, 0);
  Node sub = *n;
  sub.kind = ND_BINOP;
  sub.op = AOP_SUB;
  const Type *t = v->dtype == TY_BOOL_T ? TY_I64_T : v->dtype;
  for (int64_t i = 0; i < v->n; i++)
    if (!apply(e, &sub, &v->vals[i], &zero, true, t))
      return false;
  v->dtype = t;
  return true;
}

/* A module global already folded into an array: its elements back. */
static bool unpack(Ev *e, const IrGlobal *g, ArrVal *v) {
  const Type *t = g->type->elem;
  int64_t isz = ty_size(t);
  *v = (ArrVal){.dtype = t, .ndim = g->type->ndim, .n = 1};
  for (int d = 0; d < v->ndim; d++)
    v->n *= v->shape[d] = g->shape[d];
  v->vals = alloc_vals(e, v->n);
  const uint8_t *p = g->data;
  for (int64_t i = 0; i < v->n; i++, p += isz) {
    int64_t iv = 0;
    double fv = 0;
    if (t == TY_F32_T) { float f; memcpy(&f, p, 4); fv = f; }
    else if (t == TY_F64_T) memcpy(&fv, p, 8);
    else if (isz == 1) iv = ty_is_signed(t) ? (int8_t)*p : *p;
    else if (isz == 2) { int16_t x; memcpy(&x, p, 2); iv = ty_is_signed(t) ? (int64_t)x : (int64_t)(uint16_t)x; }
    else if (isz == 4) { int32_t x; memcpy(&x, p, 4); iv = ty_is_signed(t) ? (int64_t)x : (int64_t)(uint32_t)x; }
    else memcpy(&iv, p, 8);
    v->vals[i] = num(t, fv, iv);
  }
  return true;
}

/* np.float64(data): as np.array(data, dtype=np.float64). */
static bool dtype_ctor(Ev *e, const Node *n, ArrVal *v) {
  Node call = *n;
  call.args.data = arena_alloc(e->lp->a, sizeof(Node *) * 2);
  call.args.data[0] = n->args.data[0];
  call.args.data[1] = n->lhs;
  call.args.len = 2;
  return ir_ndarray_literal(e->lp, &call, v, e->fail);
}

/* One slice bound: a constant int or absent (NULL: *out untouched). */
static bool bound(Ev *e, const Node *n, int64_t *out) {
  IrGlobal g;
  if (!n)
    return true;
  if (!scalar(e, n, &g) || !ty_is_int(g.type))
    return fail_at(e, n, NULL, "a slice bound of a constant array must be a constant int");
  *out = g.ival;
  return true;
}

/* Python's slice.indices(n): the first index, step and count. */
static bool slice_axis(Ev *e, const Node *sl, int64_t n, int64_t *start, int64_t *step,
                       int64_t *count) {
  int64_t st = 1;
  if (!bound(e, sl->third, &st))
    return false;
  if (st == 0)
    return fail_at(e, sl, NULL, "slice step cannot be zero");
  int64_t lo = st > 0 ? 0 : n - 1, hi = st > 0 ? n : -1, a = lo, b = hi;
  if (!bound(e, sl->lhs, &a) || !bound(e, sl->rhs, &b))
    return false;
  if (sl->lhs)
    a = a < 0 ? (a + n < 0 ? (st > 0 ? 0 : -1) : a + n) : (a >= n ? (st > 0 ? n : n - 1) : a);
  if (sl->rhs)
    b = b < 0 ? (b + n < 0 ? (st > 0 ? 0 : -1) : b + n) : (b >= n ? (st > 0 ? n : n - 1) : b);
  *start = a;
  *step = st;
  *count = st > 0 ? (b > a ? (b - a + st - 1) / st : 0) : (a > b ? (a - b - st - 1) / -st : 0);
  return true;
}

/* The elements a slice selects, copied in C order (the frozen copy is
 * C-contiguous, whatever view the slice would be in NumPy). */
static bool slice(Ev *e, const Node *n, ArrVal *v) {
  ArrVal src;
  if (!eval(e, n->lhs, &src))
    return false;
  const Node *idx = n->rhs;
  int k = idx->kind == ND_SLICE ? 1 : idx->args.len;
  if (k > src.ndim)
    return fail_at(e, idx, NULL, "too many indices for the constant array");
  int64_t start[4] = {0}, step[4] = {1, 1, 1, 1}, cnt[4], inner[4];
  for (int d = 0; d < src.ndim; d++) {
    cnt[d] = src.shape[d];
    if (d < k && !slice_axis(e, idx->kind == ND_SLICE ? idx : idx->args.data[d], src.shape[d],
                             &start[d], &step[d], &cnt[d]))
      return false;
  }
  *v = (ArrVal){.dtype = src.dtype, .ndim = src.ndim, .n = 1};
  for (int d = src.ndim - 1, m = 1; d >= 0; m *= (int)src.shape[d], d--)
    inner[d] = m;
  for (int d = 0; d < src.ndim; d++)
    v->n *= v->shape[d] = cnt[d];
  if (v->n == 0)
    return fail_at(e, n, "give the array at least one element",
                   "empty constant arrays are not supported");
  v->vals = alloc_vals(e, v->n);
  for (int64_t i = 0; i < v->n; i++) {
    int64_t rest = i, off = 0;
    for (int d = src.ndim - 1; d >= 0; d--) {
      off += (start[d] + (rest % cnt[d]) * step[d]) * inner[d];
      rest /= cnt[d];
    }
    v->vals[i] = src.vals[off];
  }
  return true;
}

static bool eval(Ev *e, const Node *n, ArrVal *v) {
  const char *p = path_of(e, n), *m = method_of(n);
  if (n->kind == ND_CALL && is_dtype_ctor(e, n))
    return dtype_ctor(e, n, v);
  if (is_slice_of(n))
    return slice(e, n, v);
  const IrGlobal *g = n->kind == ND_NAME ? ir_global_find(e->lp->p, n->name) : NULL;
  if (g && g->type && g->type->kind == TY_ARRAY && g->data)
    return unpack(e, g, v);
  if (p && strcmp(p, "numpy.array") == 0)
    return ir_ndarray_literal(e->lp, n, v, e->fail);
  if (p && strcmp(p, "numpy.arange") == 0)
    return arange(e, n, v);
  if (p && strcmp(p, "numpy.linspace") == 0)
    return linspace(e, n, v);
  if (p && (strcmp(p, "numpy.zeros") == 0 || strcmp(p, "numpy.ones") == 0 || strcmp(p, "numpy.full") == 0))
    return fill(e, n, p, v);
  if (p && (strcmp(p, "numpy.ascontiguousarray") == 0 || strcmp(p, "numpy.asarray") == 0 ||
            strcmp(p, "numba.cuda.to_device") == 0))
    return passthrough(e, n, v);
  if (p && strcmp(p, "numpy.eye") == 0)
    return eye(e, n, v);
  if (!p && is_method(m))
    return method(e, n, m, v);
  if (n->kind == ND_BINOP)
    return binop(e, n, v);
  if (n->kind == ND_UNARY && n->op == AOP_NEG)
    return negate(e, n, v);
  return fail_at(e, n, "build it from np.array, np.arange, np.zeros, np.ones, np.full or np.linspace",
                 arena_printf(e->lp->a, "%s is not a constant array", ir_dotted(e->lp->a, n)));
}

bool ir_fold_array_expr(LowerProg *lp, const Node *n, IrGlobal *out, NdFail *fail) {
  Ev e = {lp, fail};
  ArrVal v;
  return eval(&e, n, &v) && ir_pack_const_array(lp, n, &v, out, fail);
}
