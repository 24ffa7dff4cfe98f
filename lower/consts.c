/* consts.c - module-level names for lowering: import resolution to canonical
 * dotted paths ("cuda" -> "numba.cuda"), dtype names, and compile-time
 * folding of constants (module globals, shared-array shapes, option values).
 *
 * Folding follows Python semantics on int64/float64 (floor division and
 * modulo take the divisor's sign, int overflow and division by zero make a
 * value non-constant rather than wrap).  Values are IrGlobal records; an
 * np.float32(...)/np.int32(...) cast gives that type and later arithmetic
 * treats Python ints (and, with floats, f32) as weak, roughly as NumPy 2. */
#include <math.h>
#include <stdlib.h>

#include "common/suggest.h"
#include "lower/lower_internal.h"

bool ir_starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

const char *ir_dotted(Arena *a, const Node *n) {
  if (!n)
    return "?";
  if (n->kind == ND_NAME && n->name)
    return n->str ? n->str : n->name; /* str: as written, when lower/modlink.c renamed it */
  if (n->kind == ND_ATTR && n->name)
    return arena_printf(a, "%s.%s", ir_dotted(a, n->lhs), n->name);
  if (n->kind == ND_CALL)
    return arena_printf(a, "%s(...)", ir_dotted(a, n->lhs));
  if (n->kind == ND_SUBSCRIPT)
    return arena_printf(a, "%s[%s]", ir_dotted(a, n->lhs), ir_dotted(a, n->rhs));
  if (n->kind == ND_INT && !n->big)
    return arena_printf(a, "%lld", (long long)n->ival);
  return ast_kind_name(n->kind);
}

/* ------------------------------------------------------------ imports -- */

/* `import numba.cuda` binds "numba" (to the package); with an alias it
 * binds the alias to the full module; `from M import n` binds M.n. */
static const char *import_target(Arena *a, const Import *im) {
  /* CuPy used as NumPy (cp.float32, cp.nan, cp.pi): its names are NumPy's */
  if (ir_starts_with(im->module, "cupy") && (im->module[4] == '\0' || im->module[4] == '.')) {
    Import np = *im;
    np.module = arena_printf(a, "numpy%s", im->module + 4);
    return import_target(a, &np);
  }
  if (im->name)
    return arena_printf(a, "%s.%s", im->module, im->name);
  const char *dot = strchr(im->module, '.');
  if (dot && strlen(im->alias) == (size_t)(dot - im->module) &&
      strncmp(im->alias, im->module, (size_t)(dot - im->module)) == 0)
    return im->alias;
  return im->module;
}

/* numpy's canonical spelling is "numpy"; numba.cuda stays as written. */
const char *ir_import_target(const IrProgram *p, Arena *a, const char *name) {
  const Module *m = p->ast;
  for (int i = m ? m->imports.len - 1 : -1; i >= 0; i--) {
    const Import *im = &m->imports.data[i];
    if (im->alias && strcmp(im->alias, name) == 0)
      return import_target(a, im);
  }
  return NULL;
}

const char *ir_import_path(LowerProg *lp, const char *name) {
  return ir_import_target(lp->p, lp->a, name);
}

static bool is_module_func(const IrProgram *p, const char *name) {
  for (int i = 0; i < p->ast->funcs.len; i++)
    if (strcmp(p->ast->funcs.data[i]->name, name) == 0)
      return true;
  return false;
}

/* A bare name shadowed by a local, a module global or a def is not an import. */
static bool name_shadowed(LowerProg *lp, const IrFunc *f, const char *name) {
  if (f && ir_local_find(f, name) >= 0)
    return true;
  if (ir_global_find(lp->p, name) || ir_nonconst_find(lp, name))
    return true;
  return is_module_func(lp->p, name);
}

const char *ir_resolve_path(LowerProg *lp, const IrFunc *f, const Node *n) {
  if (!n)
    return NULL;
  if (n->kind == ND_NAME && n->name) {
    if (name_shadowed(lp, f, n->name))
      return NULL;
    return ir_import_path(lp, n->name);
  }
  if (n->kind == ND_ATTR && n->name) {
    const char *base = ir_resolve_path(lp, f, n->lhs);
    return base ? arena_printf(lp->a, "%s.%s", base, n->name) : NULL;
  }
  return NULL;
}

/* ------------------------------------------------------------- dtypes -- */

const Type *ir_path_dtype(const char *path) {
  static const char *const prefixes[] = {"numba.types.", "numba.core.types.",
                                         "numba.cuda.types.", "numba.cuda.", "numba.",
                                         "numpy."};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
    if (!ir_starts_with(path, prefixes[i]))
      continue;
    const char *rest = path + strlen(prefixes[i]);
    if (strchr(rest, '.'))
      return NULL;
    const Type *t = ty_from_name(rest);
    return t && ty_is_scalar(t) ? t : NULL;
  }
  return NULL;
}

/* The dtype argument of a module-level NumPy array constructor
 * (A = np.recarray(128, dtype=rec), np.empty(n, np.float32), np.full(n, v,
 * dtype=T)): what A.dtype is in Numba, which reads the host's array when it
 * compiles.  NULL for anything else. */
static const Type *constructor_dtype(LowerProg *lp, const Node *v) {
  static const struct { const char *name; int pos; } ctors[] = {
      {"numpy.empty", 1}, {"numpy.zeros", 1}, {"numpy.ones", 1}, {"numpy.full", 2},
      {"numpy.recarray", 1}, {"numpy.array", 1}, {"numpy.asarray", 1}, {"numpy.arange", -1}};
  const char *callee = v && v->kind == ND_CALL ? ir_resolve_path(lp, NULL, v->lhs) : NULL;
  for (size_t i = 0; callee && i < sizeof ctors / sizeof *ctors; i++) {
    if (strcmp(callee, ctors[i].name) != 0)
      continue;
    const Node *dt = NULL;
    for (int k = 0; k < v->args2.len; k++)
      if (v->args2.data[k]->name && strcmp(v->args2.data[k]->name, "dtype") == 0)
        dt = v->args2.data[k]->lhs;
    if (!dt && ctors[i].pos >= 0 && v->args.len > ctors[i].pos)
      dt = v->args.data[ctors[i].pos];
    return dt ? ir_dtype_of(lp, NULL, dt) : NULL;
  }
  return NULL;
}

const Type *ir_dtype_of(LowerProg *lp, const IrFunc *f, const Node *n) {
  if (!n)
    return NULL;
  if (n->kind == ND_NAME && n->name && !(f && ir_local_find(f, n->name) >= 0)) {
    const Node *v = ir_sig_resolve(lp->p, n); /* DT = np.float32 */
    if (v != n)
      return ir_dtype_of(lp, NULL, v);
  }
  if (n->kind == ND_ATTR && n->name && strcmp(n->name, "dtype") == 0 && n->lhs &&
      n->lhs->kind == ND_NAME && !(f && ir_local_find(f, n->lhs->name) >= 0)) {
    const IrGlobal *g = ir_global_find(lp->p, n->lhs->name); /* A.dtype of a constant array */
    if (g && g->type && g->type->kind == TY_ARRAY && ty_is_scalar(g->type->elem))
      return g->type->elem;
    return constructor_dtype(lp, ir_sig_resolve(lp->p, n->lhs)); /* A = np.empty(n, dtype=T) */
  }
  if (n->kind == ND_CALL && n->args.len == 1 && n->args.data[0]->kind != ND_KEYWORD &&
      n->lhs && n->lhs->name && strcmp(n->lhs->name, "from_dtype") == 0 &&
      ir_starts_with(ir_resolve_path(lp, f, n->lhs) ? ir_resolve_path(lp, f, n->lhs) : "", "numba.")) {
    const Type *t = ir_dtype_of(lp, f, n->args.data[0]); /* numba.from_dtype(np.int64) */
    if (t)
      return t;
  }
  if (n->kind == ND_CALL && ir_is_record_expr(lp->p, n)) { /* a structured dtype */
    Diags scratch; /* a malformed one is reported where a signature names it; */
    diags_init(&scratch, lp->p->arena); /* here it is only an unknown dtype */
    return ir_record_from_ast(lp->p, n, &scratch);
  }
  if (n->kind == ND_CALL && n->args.len == 1 && n->args.data[0]->kind != ND_KEYWORD) {
    const char *callee = ir_resolve_path(lp, f, n->lhs); /* np.dtype(np.float32) */
    if (callee && strcmp(callee, "numpy.dtype") == 0)
      return ir_dtype_of(lp, f, n->args.data[0]);
  }
  if (n->kind == ND_STR && n->str && !n->fstring) {
    const Type *t = ty_from_name(n->str);
    return t && ty_is_scalar(t) ? t : NULL;
  }
  const char *path = ir_resolve_path(lp, f, n);
  return path ? ir_path_dtype(path) : NULL;
}

/* ------------------------------------------------------ global lookup -- */

const IrGlobal *ir_member_global(LowerProg *lp, const IrFunc *f, const Node *n) {
  if (!n || n->kind != ND_ATTR || !n->name || !n->lhs)
    return NULL;
  if (strcmp(n->name, "value") == 0 && n->lhs->kind == ND_ATTR)
    return ir_member_global(lp, f, n->lhs); /* Color.RED.value */
  const Node *cls = n->lhs;
  if (cls->kind != ND_NAME || !cls->name || (f && ir_local_find(f, cls->name) >= 0))
    return NULL;
  return ir_global_find(lp->p, arena_printf(lp->a, "%s.%s", cls->name, n->name));
}

const IrGlobal *ir_global_find(const IrProgram *p, const char *name) {
  for (int i = 0; i < p->globals.len; i++)
    if (strcmp(p->globals.data[i].name, name) == 0)
      return &p->globals.data[i];
  return NULL;
}

const NonConst *ir_nonconst_find(LowerProg *lp, const char *name) {
  for (int i = 0; i < lp->nonconst.len; i++)
    if (strcmp(lp->nonconst.data[i].name, name) == 0)
      return &lp->nonconst.data[i];
  return NULL;
}

/* --------------------------------------------------------- did you mean -- */

/* The rule is common/suggest.c's, shared with the runtime. */
const char *ir_closest(const char *name, const char *const *cands, int n) {
  return suggest_closest(name, cands, n);
}

/* ---------------------------------------------------------- constants -- */

static IrGlobal make_int(const Type *t, int64_t v) {
  IrGlobal g = {0};
  g.type = t;
  g.ival = v;
  return g;
}

static IrGlobal make_float(const Type *t, double v) {
  IrGlobal g = {0};
  g.type = t;
  g.fval = t == TY_F32_T ? (double)(float)v : v;
  return g;
}

/* math.pi, numpy.inf, ...: the float constants a kernel may name. */
/* scipy.constants (CODATA 2022, SciPy >= 1.15): the names physics kernels
 * read (`from scipy.constants import c, m_e, epsilon_0`). */
static bool scipy_constant(const char *name, IrGlobal *out) {
  static const struct { const char *name; double v; } k[] = {
      {"c", 299792458.0},           {"speed_of_light", 299792458.0},
      {"h", 6.62607015e-34},        {"Planck", 6.62607015e-34},
      {"hbar", 1.0545718176461565e-34}, {"e", 1.602176634e-19},
      {"elementary_charge", 1.602176634e-19}, {"eV", 1.602176634e-19},
      {"electron_volt", 1.602176634e-19}, {"k", 1.380649e-23}, {"Boltzmann", 1.380649e-23},
      {"N_A", 6.02214076e23},       {"Avogadro", 6.02214076e23},
      {"R", 8.31446261815324},      {"gas_constant", 8.31446261815324},
      {"m_e", 9.1093837139e-31},    {"electron_mass", 9.1093837139e-31},
      {"m_p", 1.67262192595e-27},   {"proton_mass", 1.67262192595e-27},
      {"m_n", 1.67492750056e-27},   {"neutron_mass", 1.67492750056e-27},
      {"epsilon_0", 8.8541878188e-12}, {"mu_0", 1.25663706127e-06},
      {"G", 6.6743e-11},            {"gravitational_constant", 6.6743e-11},
      {"g", 9.80665},               {"pi", 3.14159265358979323846},
      {"sigma", 5.6703744191844314e-08}, {"Stefan_Boltzmann", 5.6703744191844314e-08},
      {"alpha", 0.0072973525643},   {"fine_structure", 0.0072973525643},
      {"atm", 101325.0},            {"atomic_mass", 1.66053906892e-27},
      {"u", 1.66053906892e-27},     {"m_u", 1.66053906892e-27},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (strcmp(name, k[i].name) == 0) {
      *out = make_float(TY_F64_T, k[i].v);
      return true;
    }
  return false;
}

bool ir_path_const(const char *path, IrGlobal *out) {
  static const struct { const char *name; double v; } k[] = {
      {"pi", 3.14159265358979323846}, {"e", 2.71828182845904523536},
      {"tau", 6.28318530717958647692}, {"inf", INFINITY}, {"nan", NAN},
  };
  const char *rest = NULL;
  if (ir_starts_with(path, "scipy.constants."))
    return scipy_constant(path + 16, out);
  if (ir_starts_with(path, "math."))
    rest = path + 5;
  else if (ir_starts_with(path, "numpy."))
    rest = path + 6;
  if (!rest)
    return false;
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    if (strcmp(rest, k[i].name) == 0 && !(path[0] == 'n' && i == 2)) {
      *out = make_float(TY_F64_T, k[i].v);
      return true;
    }
  }
  return false;
}

static bool is_intlike(const Type *t) { return t == TY_BOOL_T || ty_is_int(t); }
static bool is_scalar_const(const IrGlobal *g) {
  return g->type && (is_intlike(g->type) || ty_is_float(g->type));
}
static double as_double(const IrGlobal *g) {
  return ty_is_float(g->type) ? g->fval : (double)g->ival;
}

/* Wrap an int64 into the range of integer type t (two's complement). */
static int64_t wrap_int(const Type *t, int64_t v) {
  switch (t->kind) {
  case TY_BOOL: return v != 0;
  case TY_I8: return (int8_t)v;
  case TY_I16: return (int16_t)v;
  case TY_I32: return (int32_t)v;
  case TY_U8: return (uint8_t)v;
  case TY_U16: return (uint16_t)v;
  case TY_U32: return (uint32_t)v;
  default: return v;
  }
}

/* Convert a constant to scalar type t, as numpy's constructors do. */
static bool cast_const(const IrGlobal *g, const Type *t, IrGlobal *out, const char **why) {
  if (!is_scalar_const(g)) {
    *why = "only numbers can be converted";
    return false;
  }
  if (ty_is_float(t)) {
    *out = make_float(t, as_double(g));
    return true;
  }
  if (ty_is_complex(t)) { /* np.complex64(2.5): real part rounded to the width */
    *out = make_float(t == TY_C64_T ? TY_F32_T : TY_F64_T, as_double(g));
    out->type = t;
    return true;
  }
  if (!is_intlike(t)) {
    *why = "only integer, float and bool constants are supported";
    return false;
  }
  if (ty_is_float(g->type)) {
    if (!isfinite(g->fval) || fabs(g->fval) >= 9.2e18) {
      *why = "float value out of the integer range";
      return false;
    }
    *out = make_int(t, wrap_int(t, (int64_t)g->fval));
    return true;
  }
  *out = make_int(t, wrap_int(t, g->ival));
  return true;
}

bool ir_const_cast(const IrGlobal *g, const Type *t, IrGlobal *out, const char **why) {
  if (t == TY_BOOL_T && is_scalar_const(g)) {
    *out = make_int(TY_BOOL_T, ty_is_float(g->type) ? g->fval != 0.0 : g->ival != 0);
    return true;
  }
  return cast_const(g, t, out, why);
}

/* Result type of mixing two constants: Python ints (int64) and bools are
 * weak next to a sized numpy integer; f64 wins over f32 among floats. */
static const Type *mix_types(const Type *a, const Type *b) {
  if (ty_is_float(a) || ty_is_float(b)) {
    if (a == TY_F64_T || b == TY_F64_T)
      return TY_F64_T;
    return ty_is_float(a) && ty_is_float(b) && ty_bits(a) < ty_bits(b) ? b
           : ty_is_float(a)                                          ? a
                                                                     : b;
  }
  if (a == TY_BOOL_T)
    a = TY_I64_T;
  if (b == TY_BOOL_T)
    b = TY_I64_T;
  if (a == TY_I64_T)
    return b;
  if (b == TY_I64_T)
    return a;
  return ty_bits(a) >= ty_bits(b) ? a : b;
}

static bool fold_int_pow(int64_t a, int64_t b, int64_t *out) {
  int64_t r = 1;
  for (; b > 0; b--)
    if (__builtin_mul_overflow(r, a, &r))
      return false;
  *out = r;
  return true;
}

/* Python's int // and % (floor toward -inf, remainder takes divisor sign). */
static void int_divmod(int64_t a, int64_t b, int64_t *q, int64_t *r) {
  int64_t qq = a / b, rr = a % b;
  if (rr != 0 && ((rr < 0) != (b < 0))) {
    qq -= 1;
    rr += b;
  }
  *q = qq;
  *r = rr;
}

static void float_divmod(double a, double b, double *q, double *r) {
  double mod = fmod(a, b), div = (a - mod) / b;
  if (mod != 0.0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= 1.0;
    }
  } else {
    mod = copysign(0.0, b);
  }
  double fl = div != 0.0 ? floor(div) : copysign(0.0, a / b);
  if (div != 0.0 && div - fl > 0.5)
    fl += 1.0;
  *q = fl;
  *r = mod;
}

static bool fold_int_binop(AstOp op, int64_t a, int64_t b, int64_t *out, const char **why) {
  bool ovf = false;
  int64_t q, r;
  switch (op) {
  case AOP_ADD: ovf = __builtin_add_overflow(a, b, out); break;
  case AOP_SUB: ovf = __builtin_sub_overflow(a, b, out); break;
  case AOP_MUL: ovf = __builtin_mul_overflow(a, b, out); break;
  case AOP_FLOORDIV:
  case AOP_MOD:
    if (b == 0) {
      *why = "integer division by zero";
      return false;
    }
    if (a == INT64_MIN && b == -1) {
      ovf = op == AOP_FLOORDIV;
      *out = 0;
      break;
    }
    int_divmod(a, b, &q, &r);
    *out = op == AOP_FLOORDIV ? q : r;
    break;
  case AOP_POW: ovf = !fold_int_pow(a, b, out); break;
  case AOP_LSHIFT:
  case AOP_RSHIFT:
    if (b < 0) {
      *why = "negative shift count";
      return false;
    }
    if (op == AOP_RSHIFT) {
      *out = b >= 63 ? (a < 0 ? -1 : 0) : a >> b;
    } else {
      /* shift as unsigned: `a << b` is undefined for a negative a in C */
      ovf = b >= 63 ? a != 0 : ((int64_t)((uint64_t)a << b) >> b) != a;
      *out = b >= 63 ? 0 : (int64_t)((uint64_t)a << b);
    }
    break;
  case AOP_BITAND: *out = a & b; break;
  case AOP_BITOR: *out = a | b; break;
  case AOP_BITXOR: *out = a ^ b; break;
  default:
    *why = "operator not supported on constants";
    return false;
  }
  if (ovf)
    *why = "the value does not fit in int64";
  return !ovf;
}

static bool fold_float_binop(AstOp op, double a, double b, double *out, const char **why) {
  double q, r;
  switch (op) {
  case AOP_ADD: *out = a + b; return true;
  case AOP_SUB: *out = a - b; return true;
  case AOP_MUL: *out = a * b; return true;
  case AOP_DIV:
  case AOP_FLOORDIV:
  case AOP_MOD:
    if (b == 0.0) {
      *why = "float division by zero";
      return false;
    }
    if (op == AOP_DIV) {
      *out = a / b;
      return true;
    }
    float_divmod(a, b, &q, &r);
    *out = op == AOP_FLOORDIV ? q : r;
    return true;
  case AOP_POW: *out = pow(a, b); return true;
  default:
    *why = "operator not supported on float constants";
    return false;
  }
}

static bool fold_compare_op(AstOp op, const IrGlobal *a, const IrGlobal *b, bool *out) {
  if (ty_is_complex(a->type) || ty_is_complex(b->type))
    return false; /* left to the kernel, which types (and rejects) it */
  bool fl = ty_is_float(a->type) || ty_is_float(b->type);
  double x = as_double(a), y = as_double(b);
  int64_t i = a->ival, j = b->ival;
  switch (op) {
  case AOP_EQ: *out = fl ? x == y : i == j; return true;
  case AOP_NE: *out = fl ? x != y : i != j; return true;
  case AOP_LT: *out = fl ? x < y : i < j; return true;
  case AOP_LE: *out = fl ? x <= y : i <= j; return true;
  case AOP_GT: *out = fl ? x > y : i > j; return true;
  case AOP_GE: *out = fl ? x >= y : i >= j; return true;
  default: return false;
  }
}

/* Complex module constants (Z = 1 + 2j): + - * fold, as Python computes
 * them; the result is complex128 (Python's complex). */
static bool fold_complex_binop(AstOp op, const IrGlobal *a, const IrGlobal *b, IrGlobal *out,
                               const char **why) {
  bool ok = (is_scalar_const(a) || ty_is_complex(a->type)) &&
            (is_scalar_const(b) || ty_is_complex(b->type));
  double ar = ty_is_complex(a->type) ? a->fval : as_double(a), ai = ty_is_complex(a->type) ? a->fimag : 0;
  double br = ty_is_complex(b->type) ? b->fval : as_double(b), bi = ty_is_complex(b->type) ? b->fimag : 0;
  IrGlobal g = {0};
  g.type = TY_C128_T;
  switch (ok ? op : AOP_POW) {
  case AOP_ADD: g.fval = ar + br, g.fimag = ai + bi; break;
  case AOP_SUB: g.fval = ar - br, g.fimag = ai - bi; break;
  case AOP_MUL: g.fval = ar * br - ai * bi, g.fimag = ar * bi + ai * br; break;
  default:
    *why = "only + - * of complex constants are folded";
    return false;
  }
  *out = g;
  return true;
}

static bool fold_binop(AstOp op, const IrGlobal *a, const IrGlobal *b, IrGlobal *out,
                       const char **why) {
  if (ty_is_complex(a->type) || ty_is_complex(b->type))
    return fold_complex_binop(op, a, b, out, why);
  if (!is_scalar_const(a) || !is_scalar_const(b)) {
    *why = a->type == TY_NONE_T || b->type == TY_NONE_T
               ? "None has no arithmetic"
               : "arithmetic on tuples is not constant-folded";
    return false;
  }
  const Type *t = mix_types(a->type, b->type);
  bool both_bool = a->type == TY_BOOL_T && b->type == TY_BOOL_T;
  if (both_bool && (op == AOP_BITAND || op == AOP_BITOR || op == AOP_BITXOR))
    t = TY_BOOL_T;
  bool float_pow = op == AOP_POW && !ty_is_float(t) && b->ival < 0;
  if (ty_is_float(t) || op == AOP_DIV || float_pow) {
    const Type *ft = ty_is_float(t) ? t : TY_F64_T;
    double r;
    if (!fold_float_binop(op, as_double(a), as_double(b), &r, why))
      return false;
    *out = make_float(ft, r);
    return true;
  }
  int64_t r;
  if (!fold_int_binop(op, a->ival, b->ival, &r, why))
    return false;
  *out = make_int(t, wrap_int(t, r));
  return true;
}

static bool fold_unary(AstOp op, const IrGlobal *a, IrGlobal *out, const char **why) {
  if (ty_is_complex(a->type) && (op == AOP_NEG || op == AOP_POS)) {
    *out = *a;
    if (op == AOP_NEG)
      out->fval = -a->fval, out->fimag = -a->fimag;
    return true;
  }
  if (!is_scalar_const(a)) {
    *why = "unary operator on a tuple";
    return false;
  }
  bool fl = ty_is_float(a->type);
  const Type *it = a->type == TY_BOOL_T ? TY_I64_T : a->type;
  switch (op) {
  case AOP_NOT: *out = make_int(TY_BOOL_T, fl ? a->fval == 0.0 : a->ival == 0); return true;
  case AOP_POS: *out = fl ? *a : make_int(it, a->ival); return true;
  case AOP_NEG:
    if (!fl && a->ival == INT64_MIN) {
      *why = "the value does not fit in int64";
      return false;
    }
    *out = fl ? make_float(a->type, -a->fval) : make_int(it, wrap_int(it, -a->ival));
    return true;
  case AOP_INVERT:
    if (fl) {
      *why = "~ on a float";
      return false;
    }
    *out = make_int(it, wrap_int(it, ~a->ival));
    return true;
  default:
    *why = "operator not supported on constants";
    return false;
  }
}

static bool truthy(const IrGlobal *g) {
  if (g->nelems || (g->type && g->type->kind == TY_TUPLE))
    return g->nelems > 0;
  if (ty_is_complex(g->type))
    return g->fval != 0.0 || g->fimag != 0.0;
  return ty_is_float(g->type) ? g->fval != 0.0 : g->ival != 0;
}

/* A def of the file named by n (not shadowed): never None. */
static bool names_def(LowerProg *lp, const IrFunc *f, const Node *n) {
  return n->kind == ND_NAME && !(f && ir_local_find(f, n->name) >= 0) &&
         !ir_global_find(lp->p, n->name) && !ir_nonconst_find(lp, n->name) &&
         is_module_func(lp->p, n->name);
}

/* `X is None` / `X is not None` between constants (None is None) or with a
 * def of the file (a function is not None): Numba decides both when it
 * compiles, so a branch on them is pruned. */
static bool fold_is_none(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out) {
  if (n->args.len != 2 || (n->ops.data[0] != AOP_IS && n->ops.data[0] != AOP_ISNOT))
    return false;
  const Node *x = n->args.data[0], *y = n->args.data[1];
  IrGlobal a, b;
  bool same;
  if (ir_fold(lp, f, x, &a, NULL) && ir_fold(lp, f, y, &b, NULL) && a.type && b.type &&
      (a.type->kind == TY_NONE || b.type->kind == TY_NONE))
    same = a.type->kind == TY_NONE && b.type->kind == TY_NONE;
  else if ((x->kind == ND_NONE && names_def(lp, f, y)) || (y->kind == ND_NONE && names_def(lp, f, x)))
    same = false;
  else
    return false;
  *out = make_int(TY_BOOL_T, same == (n->ops.data[0] == AOP_IS));
  return true;
}

static bool fold_compare(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out,
                         const char **why) {
  IrGlobal a, b;
  if (fold_is_none(lp, f, n, out))
    return true;
  if (n->args.len < 2 || !ir_fold(lp, f, n->args.data[0], &a, why))
    return false;
  bool result = true;
  for (int i = 0; i < n->ops.len && i + 1 < n->args.len; i++) {
    if (!ir_fold(lp, f, n->args.data[i + 1], &b, why))
      return false;
    bool r;
    if (!is_scalar_const(&a) || !is_scalar_const(&b) ||
        !fold_compare_op((AstOp)n->ops.data[i], &a, &b, &r)) {
      *why = "comparison not supported on constants";
      return false;
    }
    result = result && r;
    a = b;
  }
  *out = make_int(TY_BOOL_T, result);
  return true;
}

/* Python `and`/`or` return an operand (all of them must still be constant). */
static bool fold_boolop(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out,
                        const char **why) {
  bool decided = false;
  for (int i = 0; i < n->args.len; i++) {
    IrGlobal v;
    if (!ir_fold(lp, f, n->args.data[i], &v, why))
      return false;
    if (!decided) {
      *out = v;
      decided = n->op == AOP_AND ? !truthy(&v) : truthy(&v);
    }
  }
  return n->args.len > 0;
}

static bool fold_tuple(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out,
                       const char **why) {
  int k = n->args.len;
  IrGlobal *elems = arena_alloc(lp->a, sizeof(IrGlobal) * (size_t)(k ? k : 1));
  const Type **types = arena_alloc(lp->a, sizeof(Type *) * (size_t)(k ? k : 1));
  for (int i = 0; i < k; i++) {
    const Node *e = n->args.data[i];
    if (!f && e->kind != ND_NAME && ir_is_ndarray_call(lp, e)) { /* (np.arange(4), ...) */
      NdFail nd = {0};
      if (!ir_fold_ndarray(lp, e, &elems[i], &nd)) {
        *why = nd.why ? nd.why : "not a constant array";
        return false;
      }
    } else if (!ir_fold(lp, f, e, &elems[i], why)) {
      return false;
    }
    types[i] = elems[i].type;
  }
  memset(out, 0, sizeof *out);
  out->type = ty_tuple(lp->p->types, types, k);
  out->nelems = k;
  out->elems = elems;
  return true;
}

/* Names the expression as written: "`a.shape[0]` is not ...". */
static bool not_const(LowerProg *lp, const Node *n, const char **why) {
  *why = arena_printf(lp->a, "`%s` is not a compile-time constant", ir_dotted(lp->a, n));
  return false;
}

static const Node *dict_entry(LowerProg *lp, const IrFunc *f, const Node *n);

/* Does the dict key k (a node of the literal) equal the index x? */
static bool same_key(LowerProg *lp, const IrFunc *f, const Node *k, const Node *x) {
  if (!k || !x)
    return false;
  if (k->kind == ND_STR || x->kind == ND_STR)
    return k->kind == ND_STR && x->kind == ND_STR && k->bytes == x->bytes &&
           k->strlen == x->strlen && memcmp(k->str, x->str, k->strlen) == 0;
  IrGlobal a, b;
  bool eq;
  return ir_fold(lp, NULL, k, &a, NULL) && ir_fold(lp, f, x, &b, NULL) && is_scalar_const(&a) &&
         is_scalar_const(&b) && fold_compare_op(AOP_EQ, &a, &b, &eq) && eq;
}

/* The module value n stands for when it is a dict literal, or an entry of
 * one (CFG['a']['b']), followed through module names; else n itself. */
static const Node *dict_entry(LowerProg *lp, const IrFunc *f, const Node *n) {
  if (n && n->kind == ND_NAME && !(f && ir_local_find(f, n->name) >= 0))
    return ir_sig_resolve(lp->p, n);
  if (!n || n->kind != ND_SUBSCRIPT)
    return n;
  const Node *d = dict_entry(lp, f, n->lhs);
  for (int i = 0; d && d->kind == ND_DICT && i < d->args.len; i++)
    if (same_key(lp, f, d->args.data[i], n->rhs))
      return dict_entry(lp, NULL, d->args2.data[i]);
  return n;
}

/* P['key'] of a module dict literal with constant keys (Numba freezes a
 * global dict's entries it reads), and X[()] of a 0-d array np.array(3.0):
 * the entry's or the scalar's value.  False when n is neither. */
static bool fold_dict_or_0d(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out,
                            const char **why) {
  const Node *base = dict_entry(lp, f, n->lhs);
  if (base && base->kind == ND_DICT) {
    const Node *v = dict_entry(lp, f, n);
    if (v == n) {
      *why = "the key is not in the dict";
      return true;
    }
    *why = NULL;
    if (!ir_fold(lp, NULL, v, out, why) && !*why)
      *why = "not a constant expression";
    return true;
  }
  if (!n->rhs || n->rhs->kind != ND_TUPLE || n->rhs->args.len || !base || base->kind != ND_CALL)
    return false;
  const char *path = ir_resolve_path(lp, NULL, base->lhs);
  if (!path || (strcmp(path, "numpy.array") && strcmp(path, "numpy.asarray")) || base->args.len < 1)
    return false;
  IrGlobal v;
  *why = NULL;
  if (!ir_fold(lp, NULL, base->args.data[0], &v, why) || !is_scalar_const(&v))
    return true; /* not a scalar: an ordinary array */
  const Node *dt = base->args.len > 1 ? base->args.data[1] : NULL;
  for (int i = 0; i < base->args2.len; i++)
    if (base->args2.data[i]->name && strcmp(base->args2.data[i]->name, "dtype") == 0)
      dt = base->args2.data[i]->lhs;
  const Type *t = dt ? ir_dtype_of(lp, NULL, dt) : NULL;
  if (dt && !t) {
    *why = "the 0-d array's dtype is not a constant dtype";
    return true;
  }
  if (!t) /* NumPy's: int64 for an int, float64 for a float */
    t = v.type == TY_BOOL_T ? TY_BOOL_T : ty_is_float(v.type) ? TY_F64_T : v.type;
  if (!cast_const(&v, t, out, why) && !*why)
    *why = "not a constant expression";
  return true;
}

static bool fold_subscript(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out,
                           const char **why) {
  IrGlobal base, idx;
  *why = NULL;
  if (fold_dict_or_0d(lp, f, n, out, why))
    return *why == NULL;
  if (!ir_fold(lp, f, n->lhs, &base, why))
    return n->lhs && n->lhs->kind == ND_ATTR ? not_const(lp, n, why) : false; /* a.shape[0] */
  if (!ir_fold(lp, f, n->rhs, &idx, why))
    return false;
  if (!base.type || base.type->kind != TY_TUPLE || !is_intlike(idx.type) ||
      idx.type == TY_BOOL_T) {
    *why = "only constant tuples can be indexed at compile time";
    return false;
  }
  int64_t i = idx.ival < 0 ? idx.ival + base.nelems : idx.ival;
  if (i < 0 || i >= base.nelems) {
    *why = "tuple index out of range";
    return false;
  }
  *out = base.elems[i];
  return true;
}

/* float("inf"), float("-nan"), np.float32("1.5"): Python's float() of a
 * string (surrounding blanks allowed, "infinity" spelled out too). */
static bool fold_float_str(LowerProg *lp, const Node *s, const Type *t, IrGlobal *out,
                           const char **why) {
  char *end;
  const char *p = s->str;
  while (*p == ' ' || *p == '\t' || *p == '\n')
    p++;
  double d = strtod(p, &end);
  while (*end == ' ' || *end == '\t' || *end == '\n')
    end++;
  if (end == p || *end || strlen(s->str) != s->strlen) {
    *why = arena_printf(lp->a, "could not convert string to float: '%s'", s->str);
    return false;
  }
  IrGlobal g = make_float(TY_F64_T, d);
  return cast_const(&g, t, out, why);
}

/* np.float32(1.5), numba.int32(7), int(3.5), float(2) on constants. */
/* math.* and np.* functions of float constants, evaluated as the host would
 * when the module is imported: `SQRT2 = math.sqrt(2.0)`, `np.exp(-0.5)`
 * (module constants only). */
static const struct {
  const char *name;
  double (*f1)(double);
  double (*f2)(double, double);
  bool int_result; /* math.floor/ceil/trunc return a Python int */
} host_math[] = {
    {"sqrt", sqrt, NULL, false},   {"exp", exp, NULL, false},     {"log", log, NULL, false},
    {"log2", log2, NULL, false},   {"log10", log10, NULL, false}, {"log1p", log1p, NULL, false},
    {"expm1", expm1, NULL, false}, {"sin", sin, NULL, false},     {"cos", cos, NULL, false},
    {"tan", tan, NULL, false},     {"asin", asin, NULL, false},   {"acos", acos, NULL, false},
    {"atan", atan, NULL, false},   {"sinh", sinh, NULL, false},   {"cosh", cosh, NULL, false},
    {"tanh", tanh, NULL, false},   {"fabs", fabs, NULL, false},   {"cbrt", cbrt, NULL, false},
    {"floor", floor, NULL, true},  {"ceil", ceil, NULL, true},    {"trunc", trunc, NULL, true},
    {"atan2", NULL, atan2, false}, {"pow", NULL, pow, false},     {"hypot", NULL, hypot, false},
    {"fmod", NULL, fmod, false},   {"copysign", NULL, copysign, false},
    {"power", NULL, pow, false},   {"arctan2", NULL, atan2, false},
    {"arcsin", asin, NULL, false}, {"arccos", acos, NULL, false}, {"arctan", atan, NULL, false},
};

static bool fold_host_math(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out,
                           const char **why) {
  if (f) /* in a kernel the device computes it (libdevice), as Numba's does */
    return false;
  const char *path = ir_resolve_path(lp, f, n->lhs);
  bool np = path && ir_starts_with(path, "numpy.");
  if (!path || !(np || ir_starts_with(path, "math.")) || n->args2.len)
    return false;
  const char *name = strchr(path, '.') + 1;
  for (size_t i = 0; i < sizeof host_math / sizeof *host_math; i++) {
    if (strcmp(name, host_math[i].name) != 0 || n->args.len != (host_math[i].f1 ? 1 : 2))
      continue;
    IrGlobal a[2];
    bool f32 = np;
    for (int k = 0; k < n->args.len; k++) {
      if (!ir_fold(lp, f, n->args.data[k], &a[k], why))
        return true; /* *why says which argument */
      if (!is_scalar_const(&a[k]) || ty_is_complex(a[k].type)) {
        *why = "a math function of a non-numeric constant";
        return true;
      }
      f32 = f32 && a[k].type == TY_F32_T; /* np.sqrt(np.float32(2)) stays float32 */
    }
    double x = as_double(&a[0]), r = host_math[i].f1 ? host_math[i].f1(x)
                                                       : host_math[i].f2(x, as_double(&a[1]));
    if (host_math[i].int_result && !np)
      *out = make_int(TY_I64_T, (int64_t)r);
    else
      *out = make_float(f32 ? TY_F32_T : TY_F64_T, f32 ? (double)(float)r : r);
    *why = NULL;
    return true;
  }
  return false;
}

/* len(X) of a constant array (its first extent) or tuple, as Python
 * computes it when the module runs: `nelem = len(a)` with
 * `a = cuda.to_device(np.arange(1024))` sizes a shared array. */
static bool fold_len(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out,
                     const char **why) {
  IrGlobal v;
  if (n->args.len != 1 || n->args2.len || !ir_fold(lp, f, n->args.data[0], &v, why))
    return false;
  if (v.type && v.type->kind == TY_ARRAY && v.shape) {
    *out = make_int(TY_I64_T, v.shape[0]);
    return true;
  }
  if (v.type && v.type->kind == TY_TUPLE) {
    *out = make_int(TY_I64_T, v.nelems);
    return true;
  }
  *why = "len() of a constant needs an array or a tuple";
  return false;
}

static bool is_builtin(LowerProg *lp, const IrFunc *f, const Node *callee, const char *name) {
  return callee && callee->kind == ND_NAME && strcmp(callee->name, name) == 0 &&
         !name_shadowed(lp, f, name) && !ir_import_path(lp, name);
}

static bool fold_call(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out,
                      const char **why) {
  if (fold_host_math(lp, f, n, out, why))
    return *why == NULL;
  if (is_builtin(lp, f, n->lhs, "len"))
    return fold_len(lp, f, n, out, why);
  const Type *t = ir_dtype_of(lp, f, n->lhs);
  if (!t && n->lhs && n->lhs->kind == ND_NAME && !name_shadowed(lp, f, n->lhs->name) &&
      !ir_import_path(lp, n->lhs->name)) {
    if (strcmp(n->lhs->name, "int") == 0)
      t = TY_I64_T;
    else if (strcmp(n->lhs->name, "float") == 0)
      t = TY_F64_T;
    else if (strcmp(n->lhs->name, "bool") == 0)
      t = TY_BOOL_T;
  }
  if (!t || n->args.len != 1 || n->args2.len) {
    *why = "function calls are not compile-time constants (except dtype casts such as "
           "np.float32(1.5))";
    return false;
  }
  IrGlobal v;
  const Node *arg = n->args.data[0];
  if (arg->kind == ND_STR && !arg->bytes && ty_is_float(t)) /* float("inf"), float("nan") */
    return fold_float_str(lp, arg, t, out, why);
  if (!ir_fold(lp, f, arg, &v, why))
    return false;
  if (t == TY_BOOL_T) {
    *out = make_int(TY_BOOL_T, truthy(&v));
    return true;
  }
  return cast_const(&v, t, out, why);
}

static bool fold_name(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out,
                      const char **why) {
  if (f && ir_local_find(f, n->name) >= 0) {
    *why = arena_printf(lp->a, "'%s' is a local variable", n->name);
    return false;
  }
  const IrGlobal *g = ir_global_find(lp->p, n->name);
  if (g) {
    *out = *g;
    return true;
  }
  const NonConst *nc = ir_nonconst_find(lp, n->name);
  if (nc) {
    *why = arena_printf(lp->a, "global '%s' is not a compile-time constant", n->name);
    return false;
  }
  const char *path = ir_resolve_path(lp, f, n);
  if (path && ir_path_const(path, out))
    return true;
  *why = arena_printf(lp->a, "'%s' is not a compile-time constant", n->name);
  return false;
}

static bool fold_literal(LowerProg *lp, const Node *n, IrGlobal *out, const char **why) {
  (void)lp;
  switch (n->kind) {
  case ND_INT:
    if (n->huge) {
      *why = "integer literal too large for uint64";
      return false;
    }
    *out = make_int(n->big ? TY_U64_T : TY_I64_T, n->ival); /* >= 2**63: uint64 (Numba) */
    return true;
  case ND_FLOAT:
    *out = make_float(TY_F64_T, n->fval);
    if (n->imag) /* 3j: complex128 */
      out->type = TY_C128_T, out->fimag = n->fval, out->fval = 0;
    return true;
  case ND_BOOL:
    *out = make_int(TY_BOOL_T, n->ival != 0);
    return true;
  case ND_NONE: /* COND = None: frozen as None, so `COND is None` prunes */
    memset(out, 0, sizeof *out);
    out->type = TY_NONE_T;
    return true;
  default:
    *why = arena_printf(lp->a, "a %s is not a compile-time constant", ast_kind_name(n->kind));
    return false;
  }
}

bool ir_fold(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out, const char **why) {
  const char *dummy;
  if (!why)
    why = &dummy;
  if (!n) {
    *why = "missing expression";
    return false;
  }
  IrGlobal a, b;
  const char *path;
  switch (n->kind) {
  case ND_NAME: return fold_name(lp, f, n, out, why);
  case ND_ATTR:
    if (ir_member_global(lp, f, n)) {
      *out = *ir_member_global(lp, f, n);
      return true;
    }
    path = ir_resolve_path(lp, f, n);
    if (path && ir_path_const(path, out))
      return true;
    return not_const(lp, n, why);
  case ND_TUPLE: return fold_tuple(lp, f, n, out, why);
  case ND_UNARY:
    if (ast_is_int64_min(n)) {
      *out = make_int(TY_I64_T, INT64_MIN);
      return true;
    }
    return ir_fold(lp, f, n->lhs, &a, why) && fold_unary(n->op, &a, out, why);
  case ND_BINOP:
    return ir_fold(lp, f, n->lhs, &a, why) && ir_fold(lp, f, n->rhs, &b, why) &&
           fold_binop(n->op, &a, &b, out, why);
  case ND_COMPARE: return fold_compare(lp, f, n, out, why);
  case ND_BOOLOP: return fold_boolop(lp, f, n, out, why);
  case ND_IFEXP:
    if (!ir_fold(lp, f, n->cond, &a, why))
      return false;
    return ir_fold(lp, f, truthy(&a) ? n->lhs : n->rhs, out, why);
  case ND_SUBSCRIPT: return fold_subscript(lp, f, n, out, why);
  case ND_CALL: return fold_call(lp, f, n, out, why);
  default: return fold_literal(lp, n, out, why);
  }
}

/* ----------------------------------------------------- module globals -- */

static void drop_global(IrProgram *p, const char *name) {
  for (int i = 0; i < p->globals.len; i++) {
    if (strcmp(p->globals.data[i].name, name) == 0) {
      memmove(&p->globals.data[i], &p->globals.data[i + 1],
              sizeof(IrGlobal) * (size_t)(p->globals.len - i - 1));
      p->globals.len--;
      return;
    }
  }
}

static void drop_nonconst(LowerProg *lp, const char *name) {
  for (int i = 0; i < lp->nonconst.len; i++) {
    if (strcmp(lp->nonconst.data[i].name, name) == 0) {
      lp->nonconst.data[i] = lp->nonconst.data[--lp->nonconst.len];
      return;
    }
  }
}

static void drop_host_global(IrProgram *p, const char *name) {
  for (int i = 0; i < p->host_globals.len; i++)
    if (strcmp(p->host_globals.data[i].name, name) == 0)
      p->host_globals.data[i--] = p->host_globals.data[--p->host_globals.len];
}

/* The def of the file a callee names, directly or through top-level
 * aliases (make = make_numba_array), or NULL. */
static const Func *host_def(LowerProg *lp, const Node *callee) {
  const Module *m = lp->p->ast;
  for (int hops = 0; callee && callee->kind == ND_NAME && hops < 8; hops++) {
    for (int i = m->funcs.len - 1; i >= 0; i--)
      if (strcmp(m->funcs.data[i]->name, callee->name) == 0)
        return m->funcs.data[i];
    const Node *next = NULL;
    for (int i = m->globals.len - 1; i >= 0 && !next; i--)
      if (m->globals.data[i].name && strcmp(m->globals.data[i].name, callee->name) == 0)
        next = m->globals.data[i].value;
    callee = next;
  }
  return NULL;
}

static bool is_device_ctor(const char *path) {
  static const char *const ctors[] = {"numba.cuda.to_device", "numba.cuda.device_array",
                                      "numba.cuda.device_array_like", "numba.cuda.mapped_array",
                                      "numba.cuda.managed_array"};
  for (size_t i = 0; path && i < sizeof ctors / sizeof *ctors; i++)
    if (strcmp(path, ctors[i]) == 0)
      return true;
  return false;
}

/* A def of the file whose last statement returns a device array
 * constructor's result (`return cuda.to_device(a)`): a device array. */
static bool returns_device_array(LowerProg *lp, const Func *fn) {
  const Node *last = fn && fn->body.len ? fn->body.data[fn->body.len - 1] : NULL;
  const Node *v = last && last->kind == ND_RETURN ? last->lhs : NULL;
  return v && v->kind == ND_CALL && is_device_ctor(ir_resolve_path(lp, NULL, v->lhs));
}

/* Whether a call may make the array the host binds: a NumPy or numba.cuda
 * function, a def of the file (host code, also through an alias), a
 * method of a host object; not a builtin (list(...), int(x)) nor another
 * module's function (os.getenv, collections.namedtuple), which make no
 * array. */
static bool may_make_array(LowerProg *lp, const Node *callee) {
  const char *path = ir_resolve_path(lp, NULL, callee);
  if (path)
    return ir_starts_with(path, "numpy.") || ir_starts_with(path, "numba.");
  if (callee->kind == ND_NAME)
    return host_def(lp, callee) != NULL;
  return callee->kind == ND_ATTR;
}

/* A global whose value is a call that did not fold (np.random.rand(16),
 * make_table(), cuda.device_array(8, np.float32)) holds what the host
 * computed: the host binds it (typing/infer_host_global.c).  Device array
 * constructors (called directly or returned by a def of the file) are
 * captured by reference, as Numba captures them. */
static void note_host_global(LowerProg *lp, const GlobalAssign *ga) {
  const Node *callee = ga->value->lhs;
  if (!may_make_array(lp, callee))
    return;
  IrHostGlobal h = {.name = ga->name, .loc = ga->loc};
  h.what = arena_printf(lp->a, "%s(...)", ir_dotted(lp->a, callee));
  h.byref = is_device_ctor(ir_resolve_path(lp, NULL, callee)) ||
            returns_device_array(lp, host_def(lp, callee));
  vec_push(lp->a, &lp->p->host_globals, h);
}

/* D = cuda.to_device(<constants>): folded, but a device array in Numba,
 * captured by reference.  Unbound it stays the frozen constant; a host
 * that binds it (kjit_program_set_global) gets Numba's by-reference
 * global, writable (typing/infer_host_global.c). */
static void note_device_constant(LowerProg *lp, const GlobalAssign *ga, const IrGlobal *g) {
  const Node *v = ga->value;
  if (!g->type || g->type->kind != TY_ARRAY || !v || v->kind != ND_CALL ||
      !is_device_ctor(ir_resolve_path(lp, NULL, v->lhs)))
    return;
  IrGlobal *frozen = arena_alloc(lp->a, sizeof *frozen);
  *frozen = *g;
  IrHostGlobal h = {.name = ga->name, .loc = ga->loc, .byref = true, .frozen = frozen};
  h.what = arena_printf(lp->a, "%s(...)", ir_dotted(lp->a, v->lhs));
  vec_push(lp->a, &lp->p->host_globals, h);
}

/* Fold every top-level assignment in source order; a later assignment to
 * the same name replaces the earlier one (also when it does not fold). */
void ir_fold_globals(LowerProg *lp) {
  const Module *m = lp->p->ast;
  for (int i = 0; i < m->globals.len; i++)
    ir_fold_global(lp, &m->globals.data[i]);
}

void ir_fold_global(LowerProg *lp, const GlobalAssign *ga) {
  if (!ga->name)
    return;
  const char *dd = ga->value && ga->value->kind == ND_CALL
                       ? ir_resolve_path(lp, NULL, ga->value->lhs) : NULL;
  if (dd && strcmp(dd, "numba.cuda.declare_device") == 0) {
    drop_global(lp->p, ga->name);
    drop_nonconst(lp, ga->name);
    drop_host_global(lp->p, ga->name);
    ir_declare_device(lp, ga);
    return;
  }
  if (ir_fold_namedtuple(lp, ga)) { /* Point = namedtuple('Point', [...]) */
    drop_global(lp->p, ga->name);
    drop_nonconst(lp, ga->name);
    drop_host_global(lp->p, ga->name);
    return;
  }
  IrGlobal g;
  const char *why = NULL;
  NdFail nd = {0};
  bool ok = ir_is_ndarray_call(lp, ga->value) ? ir_fold_ndarray(lp, ga->value, &g, &nd)
                                              : ir_fold(lp, NULL, ga->value, &g, &why);
  drop_global(lp->p, ga->name);
  drop_nonconst(lp, ga->name);
  drop_host_global(lp->p, ga->name);
  if (ok && g.type) {
    g.name = ga->name;
    g.loc = ga->loc;
    vec_push(lp->a, &lp->p->globals, g);
    note_device_constant(lp, ga, &g);
  } else {
    NonConst nc = {ga->name, ga->loc, nd.why ? nd.why : why ? why : "not a constant expression",
                   nd.loc, nd.hint};
    vec_push(lp->a, &lp->nonconst, nc);
    if (ga->value && ga->value->kind == ND_CALL && !nd.why)
      note_host_global(lp, ga);
  }
}
