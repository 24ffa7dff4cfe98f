/* cg_complex.c - complex arithmetic and the cmath functions, in terms of
 * real arithmetic and the target's math library (libdevice or libm), so
 * both targets compute the same formulas.
 *
 * A complex value is the LLVM struct {float, float} / {double, double}
 * (re, im).  Division is the scaled algorithm Numba uses (CPython's
 * _Py_c_quot); power follows Numba (z**2 as z*z, else CPython's _Py_c_pow);
 * the inverse functions use Kahan's square-root formulations, which are
 * accurate on the branch cuts and keep the sign of zero there. */
#include "codegen/cg_internal.h"
#include "ir/numfn.h"

#include <math.h>
#include <stdio.h>

typedef struct Cx { LLVMValueRef re, im; } Cx;

/* The float context of one complex computation. */
typedef struct K {
  Cg *cg;
  const Type *ft;     /* float32 or float64 */
  LLVMTypeRef lt;     /* its LLVM type */
  LLVMTypeRef ct;     /* the complex struct type */
} K;

static K kctx(Cg *cg, const Type *ct) {
  const Type *ft = cg_scalar(ct->kind == TY_C64 ? TY_F32 : TY_F64);
  return (K){cg, ft, cg_type(cg, ft), cg_type(cg, ct)};
}

/* Complex arithmetic is rounded as written, without FMA contraction
 * (fastmath aside), so both targets give CPython's results bit for bit. */
static LLVMValueRef fp(K *k, LLVMValueRef v) { return k->cg->opts->fastmath ? cg_fp(k->cg, v) : v; }
static LLVMValueRef c(K *k, double v) { return LLVMConstReal(k->lt, v); }
static LLVMValueRef add(K *k, LLVMValueRef a, LLVMValueRef b) { return fp(k, LLVMBuildFAdd(k->cg->b, a, b, "")); }
static LLVMValueRef sub(K *k, LLVMValueRef a, LLVMValueRef b) { return fp(k, LLVMBuildFSub(k->cg->b, a, b, "")); }
static LLVMValueRef mul(K *k, LLVMValueRef a, LLVMValueRef b) { return fp(k, LLVMBuildFMul(k->cg->b, a, b, "")); }
static LLVMValueRef dv(K *k, LLVMValueRef a, LLVMValueRef b) { return fp(k, LLVMBuildFDiv(k->cg->b, a, b, "")); }
static LLVMValueRef neg(K *k, LLVMValueRef a) { return fp(k, LLVMBuildFNeg(k->cg->b, a, "")); }
static LLVMValueRef cmp(K *k, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFCmp(k->cg->b, p, a, b, "");
}
static LLVMValueRef sel(K *k, LLVMValueRef cnd, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(k->cg->b, cnd, a, b, "");
}
static LLVMValueRef and_(K *k, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildAnd(k->cg->b, a, b, ""); }
static LLVMValueRef or_(K *k, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildOr(k->cg->b, a, b, ""); }
static LLVMValueRef m1(K *k, const char *fn, LLVMValueRef x) { return cg_math1(k->cg, fn, x, k->ft); }
static LLVMValueRef m2(K *k, const char *fn, LLVMValueRef x, LLVMValueRef y) {
  return cg_math2(k->cg, fn, x, y, k->ft);
}
static LLVMValueRef llvm1(K *k, const char *name, LLVMValueRef x) {
  return cg_intrinsic(k->cg, name, &k->lt, 1, &x, 1);
}
static LLVMValueRef fabs_(K *k, LLVMValueRef x) { return llvm1(k, "llvm.fabs", x); }
static LLVMValueRef csign(K *k, LLVMValueRef mag, LLVMValueRef sgn) {
  LLVMValueRef a[2] = {mag, sgn};
  return cg_intrinsic(k->cg, "llvm.copysign", &k->lt, 1, a, 2);
}

/* sin and cos of one argument by one library call, as cexp and friends
 * need them: one argument reduction instead of two, and on the GPU
 * libdevice's sincos keeps its coefficients in the code where its sin and
 * cos each read theirs from a table in global memory (bench/gpu guard_math
 * cplx_exp_log_c128: 2 reductions -> 1, 12 table loads -> 0).  glibc's
 * sincos returns its sin and cos bit for bit. */
typedef struct SinCos { LLVMValueRef s, c; } SinCos;
static SinCos sincos_(K *k, LLVMValueRef x) {
  Cg *cg = k->cg;
  char name[64];
  snprintf(name, sizeof name, "%ssincos%s", cg->hooks->math_prefix, k->ft->kind == TY_F32 ? "f" : "");
  LLVMValueRef ps = cg_entry_alloca(cg, k->lt, "sin"), pc = cg_entry_alloca(cg, k->lt, "cos");
  LLVMValueRef a[3] = {x, ps, pc};
  cg_call_extern(cg, name, cg->t_void, a, 3);
  return (SinCos){LLVMBuildLoad2(cg->b, k->lt, ps, ""), LLVMBuildLoad2(cg->b, k->lt, pc, "")};
}

static Cx split(K *k, LLVMValueRef v) {
  return (Cx){LLVMBuildExtractValue(k->cg->b, v, 0, ""), LLVMBuildExtractValue(k->cg->b, v, 1, "")};
}
static LLVMValueRef join(K *k, Cx z) {
  LLVMValueRef v = LLVMBuildInsertValue(k->cg->b, LLVMGetPoison(k->ct), z.re, 0, "");
  return LLVMBuildInsertValue(k->cg->b, v, z.im, 1, "");
}
static Cx csel(K *k, LLVMValueRef cnd, Cx a, Cx b) {
  return (Cx){sel(k, cnd, a.re, b.re), sel(k, cnd, a.im, b.im)};
}
static Cx times_i(Cx z) { return (Cx){z.im, z.re}; } /* (re, im) swapped; signs by caller */

/* ------------------------------------------------------- arithmetic ---- */

static Cx cx_mul(K *k, Cx a, Cx b) {
  return (Cx){sub(k, mul(k, a.re, b.re), mul(k, a.im, b.im)),
              add(k, mul(k, a.re, b.im), mul(k, a.im, b.re))};
}

/* Divide top and bottom by the larger part of b; b == 0 (or NaN in the
 * part that would scale) gives nan+nanj, the value Numba's kernel takes
 * when it cannot raise ZeroDivisionError.  Both of CPython's branches in
 * one: with (p, q) = (b.re, b.im) where |b.re| >= |b.im|, else (b.im,
 * b.re), and the same swap of a's parts, each branch is
 *     ratio = q / p,  denom = p + q * ratio,
 *     re = (a1 + a2 * ratio) / denom,  im = +-(a2' - a1' * ratio) / denom
 * with the operands of each + and * in either order, which IEEE rounds
 * the same: three divisions instead of the six of computing both
 * branches and selecting (bench/gpu pattern_complex cplx_div16_c128). */
static Cx cx_div(K *k, Cx a, Cx b) {
  LLVMValueRef big = cmp(k, LLVMRealOGE, fabs_(k, b.re), fabs_(k, b.im));
  LLVMValueRef p = sel(k, big, b.re, b.im), q = sel(k, big, b.im, b.re);
  LLVMValueRef ratio = dv(k, q, p), denom = add(k, p, mul(k, q, ratio));
  /* big: (a.re + a.im*r, a.im - a.re*r); else (a.re*r + a.im, a.im*r - a.re) */
  LLVMValueRef a1 = sel(k, big, a.re, a.im), a2 = sel(k, big, a.im, a.re);
  LLVMValueRef t = mul(k, a1, ratio); /* a.re*r, or a.im*r */
  Cx r = {dv(k, add(k, a1, mul(k, a2, ratio)), denom),
          dv(k, sub(k, sel(k, big, a.im, t), sel(k, big, t, a.re)), denom)};
  Cx nan = {c(k, NAN), c(k, NAN)};
  LLVMValueRef bre0 = and_(k, big, cmp(k, LLVMRealOEQ, b.re, c(k, 0)));
  return csel(k, bre0, nan, r);
}

static LLVMValueRef is_zero(K *k, Cx z) {
  return and_(k, cmp(k, LLVMRealOEQ, z.re, c(k, 0)), cmp(k, LLVMRealOEQ, z.im, c(k, 0)));
}

/* z**2 is z*z (Numba); w == 0 gives 1; 0**w is 0, or nan+nanj for a
 * negative or complex w; otherwise |z|**w in polar form. */
static Cx cx_pow(K *k, Cx a, Cx b) {
  LLVMValueRef vabs = m2(k, "hypot", a.re, a.im), at = m2(k, "atan2", a.im, a.re);
  LLVMValueRef len = m2(k, "pow", vabs, b.re), ph = mul(k, at, b.re);
  LLVMValueRef bim = cmp(k, LLVMRealUNE, b.im, c(k, 0));
  len = sel(k, bim, dv(k, len, m1(k, "exp", mul(k, at, b.im))), len);
  ph = sel(k, bim, add(k, ph, mul(k, b.im, m1(k, "log", vabs))), ph);
  SinCos t = sincos_(k, ph);
  Cx r = {mul(k, len, t.c), mul(k, len, t.s)};
  Cx zero = {c(k, 0), c(k, 0)}, nan = {c(k, NAN), c(k, NAN)}, one = {c(k, 1), c(k, 0)};
  LLVMValueRef bad0 = or_(k, bim, cmp(k, LLVMRealOLT, b.re, c(k, 0)));
  r = csel(k, is_zero(k, a), csel(k, bad0, nan, zero), r);
  r = csel(k, is_zero(k, b), one, r);
  LLVMValueRef two = and_(k, cmp(k, LLVMRealOEQ, b.re, c(k, 2)), cmp(k, LLVMRealOEQ, b.im, c(k, 0)));
  return csel(k, two, cx_mul(k, a, a), r);
}

/* ------------------------------------------------------------ cmath ---- */

/* Principal square root: s = sqrt((|x| + |z|) / 2), the other part
 * |y| / 2s; the sign of y (zero included) picks the half-plane. */
static Cx cx_sqrt(K *k, Cx z) {
  LLVMValueRef ax = fabs_(k, z.re), ay = fabs_(k, z.im);
  LLVMValueRef h = m2(k, "hypot", ax, ay);
  LLVMValueRef s = llvm1(k, "llvm.sqrt", add(k, mul(k, c(k, 0.5), ax), mul(k, c(k, 0.5), h)));
  LLVMValueRef d = dv(k, mul(k, c(k, 0.5), ay), s);
  LLVMValueRef neg_x = cmp(k, LLVMRealOLT, z.re, c(k, 0));
  Cx r = {sel(k, neg_x, d, s), csign(k, sel(k, neg_x, s, d), z.im)};
  Cx zero = {c(k, 0), z.im};
  return csel(k, is_zero(k, z), zero, r);
}

static Cx cx_exp(K *k, Cx z) {
  LLVMValueRef e = m1(k, "exp", z.re);
  LLVMValueRef y0 = cmp(k, LLVMRealOEQ, z.im, c(k, 0)); /* keep exp(x+0j) real */
  SinCos t = sincos_(k, z.im);
  return (Cx){sel(k, y0, e, mul(k, e, t.c)), sel(k, y0, z.im, mul(k, e, t.s))};
}

static LLVMValueRef fma_(K *k, LLVMValueRef a, LLVMValueRef b, LLVMValueRef d) {
  LLVMValueRef v[3] = {a, b, d};
  return cg_intrinsic(k->cg, "llvm.fma", &k->lt, 1, v, 3);
}

/* 1/x for x in (0.5, 3), to a few ulps: the float32 quotient, refined by
 * two Newton steps for float64 (2^-24 -> 2^-48 -> rounding).  No float64
 * division: on the GPU that is a subroutine of some 40 instructions. */
static LLVMValueRef recip(K *k, LLVMValueRef x) {
  if (k->ft->kind == TY_F32)
    return dv(k, c(k, 1), x);
  LLVMBuilderRef b = k->cg->b;
  LLVMTypeRef f32 = LLVMFloatTypeInContext(k->cg->ctx);
  LLVMValueRef q = LLVMBuildFDiv(b, LLVMConstReal(f32, 1), LLVMBuildFPTrunc(b, x, f32, ""), "");
  LLVMValueRef r = LLVMBuildFPExt(b, q, k->lt, "");
  for (int i = 0; i < 2; i++)
    r = fma_(k, r, fma_(k, neg(k, x), r, c(k, 1)), r);
  return r;
}

/* log|z| = log h, h = hypot(x, y), loses its relative accuracy near
 * |z| = 1, where h's own rounding is most of the answer.  There (CPython
 * takes log1p(t) / 2, t = (M-1)(M+1) + m^2 with M, m the larger and
 * smaller part) the rounding is put back to first order:
 * log|z| = log h + (t - (h^2 - 1)) / 2h^2, with h^2 - 1 by one FMA.  One
 * logarithm and no float64 division instead of log and log1p both (the
 * select keeps both sides of a branch); within 2 ulps of CPython's, as
 * accurate near |z| = 1. */
static Cx cx_log(K *k, Cx z) {
  LLVMValueRef ax = fabs_(k, z.re), ay = fabs_(k, z.im), h = m2(k, "hypot", ax, ay);
  LLVMValueRef big = cmp(k, LLVMRealOGE, ax, ay);
  LLVMValueRef M = sel(k, big, ax, ay), mn = sel(k, big, ay, ax);
  LLVMValueRef t = add(k, mul(k, sub(k, M, c(k, 1)), add(k, M, c(k, 1))), mul(k, mn, mn));
  LLVMValueRef near1 = and_(k, cmp(k, LLVMRealOGT, h, c(k, 0.71)), cmp(k, LLVMRealOLT, h, c(k, 1.73)));
  LLVMValueRef lh = m1(k, "log", h), e = fma_(k, h, h, c(k, -1));
  LLVMValueRef fix = mul(k, mul(k, c(k, 0.5), sub(k, t, e)), recip(k, mul(k, h, h)));
  return (Cx){sel(k, near1, add(k, lh, fix), lh), m2(k, "atan2", z.im, z.re)};
}

/* tanh: for a large real part the result is +-1 and an exponentially
 * small imaginary part; else from tanh(x), tan(y) and sech(x). */
static Cx cx_tanh(K *k, Cx z) {
  double lim = k->ft->kind == TY_F32 ? 44.0 : 354.0; /* log(max) / 2 */
  LLVMValueRef ax = fabs_(k, z.re), big = cmp(k, LLVMRealOGT, ax, c(k, lim));
  LLVMValueRef tx = m1(k, "tanh", z.re), ty = m1(k, "tan", z.im);
  LLVMValueRef cx = dv(k, c(k, 1), m1(k, "cosh", z.re)), txty = mul(k, tx, ty);
  LLVMValueRef den = add(k, c(k, 1), mul(k, txty, txty));
  Cx r = {dv(k, mul(k, tx, add(k, c(k, 1), mul(k, ty, ty))), den), mul(k, mul(k, dv(k, ty, den), cx), cx)};
  SinCos t = sincos_(k, z.im);
  LLVMValueRef sc = mul(k, t.s, t.c);
  Cx b = {csign(k, c(k, 1), z.re), mul(k, mul(k, c(k, 4), sc), m1(k, "exp", mul(k, c(k, -2), ax)))};
  return csel(k, big, b, r);
}

/* Kahan: asinh z = asinh(Im(conj(s1) s2)) + i atan2(y, Re(s1 s2)) with
 * s1 = sqrt(1 + iz), s2 = sqrt(1 - iz). */
static Cx cx_asinh(K *k, Cx z) {
  Cx s1 = cx_sqrt(k, (Cx){add(k, c(k, 1), z.im), neg(k, z.re)});
  Cx s2 = cx_sqrt(k, (Cx){sub(k, c(k, 1), z.im), z.re});
  LLVMValueRef re = m1(k, "asinh", sub(k, mul(k, s1.re, s2.im), mul(k, s2.re, s1.im)));
  return (Cx){re, m2(k, "atan2", z.im, sub(k, mul(k, s1.re, s2.re), mul(k, s1.im, s2.im)))};
}

static Cx cx_acos(K *k, Cx z) {
  Cx s1 = cx_sqrt(k, (Cx){sub(k, c(k, 1), z.re), neg(k, z.im)});
  Cx s2 = cx_sqrt(k, (Cx){add(k, c(k, 1), z.re), z.im});
  LLVMValueRef re = mul(k, c(k, 2), m2(k, "atan2", s1.re, s2.re));
  return (Cx){re, m1(k, "asinh", sub(k, mul(k, s2.re, s1.im), mul(k, s2.im, s1.re)))};
}

static Cx cx_acosh(K *k, Cx z) {
  Cx s1 = cx_sqrt(k, (Cx){sub(k, z.re, c(k, 1)), z.im});
  Cx s2 = cx_sqrt(k, (Cx){add(k, z.re, c(k, 1)), z.im});
  LLVMValueRef re = m1(k, "asinh", add(k, mul(k, s1.re, s2.re), mul(k, s1.im, s2.im)));
  return (Cx){re, mul(k, c(k, 2), m2(k, "atan2", s1.im, s2.re))};
}

/* atanh on the right half-plane (atanh(-z) = -atanh(z)):
 * log1p(4x / ((1-x)^2 + y^2)) / 4 + i atan2(2y, (1-x)(1+x) - y^2) / 2. */
static Cx cx_atanh(K *k, Cx z) {
  LLVMValueRef flip = cmp(k, LLVMRealOLT, z.re, c(k, 0));
  LLVMValueRef x = sel(k, flip, neg(k, z.re), z.re), y = sel(k, flip, neg(k, z.im), z.im);
  LLVMValueRef omx = sub(k, c(k, 1), x);
  LLVMValueRef q = dv(k, mul(k, c(k, 4), x), add(k, mul(k, omx, omx), mul(k, y, y)));
  LLVMValueRef re = mul(k, c(k, 0.25), m1(k, "log1p", q));
  LLVMValueRef im = mul(k, c(k, 0.5), m2(k, "atan2", mul(k, c(k, 2), y),
                                          sub(k, mul(k, omx, add(k, c(k, 1), x)), mul(k, y, y))));
  return (Cx){sel(k, flip, neg(k, re), re), sel(k, flip, neg(k, im), im)};
}

/* f(z) = -i g(iz) for the circular functions from the hyperbolic ones. */
static Cx via_i(K *k, Cx (*g)(K *, Cx), Cx z) {
  Cx w = g(k, (Cx){neg(k, z.im), z.re});
  Cx r = times_i(w);
  r.im = neg(k, r.im);
  return r;
}

static Cx cx_fn(K *k, NumFn fn, Cx z) {
  LLVMValueRef sx, cx_, shy, chy;
  SinCos t;
  switch (fn) {
  case NF_CSQRT: return cx_sqrt(k, z);
  case NF_CEXP: return cx_exp(k, z);
  case NF_CLOG: return cx_log(k, z);
  case NF_CLOG10: {
    Cx l = cx_log(k, z);
    LLVMValueRef s = c(k, 1.0 / M_LN10);
    return (Cx){mul(k, l.re, s), mul(k, l.im, s)};
  }
  case NF_CSIN: case NF_CCOS:
    t = sincos_(k, z.re), sx = t.s, cx_ = t.c;
    shy = m1(k, "sinh", z.im), chy = m1(k, "cosh", z.im);
    if (fn == NF_CSIN)
      return (Cx){mul(k, sx, chy), mul(k, cx_, shy)};
    return (Cx){mul(k, cx_, chy), neg(k, mul(k, sx, shy))};
  case NF_CSINH: case NF_CCOSH:
    sx = m1(k, "sinh", z.re), cx_ = m1(k, "cosh", z.re);
    t = sincos_(k, z.im), shy = t.s, chy = t.c;
    if (fn == NF_CSINH)
      return (Cx){mul(k, sx, chy), mul(k, cx_, shy)};
    return (Cx){mul(k, cx_, chy), mul(k, sx, shy)};
  case NF_CTANH: return cx_tanh(k, z);
  case NF_CTAN: return via_i(k, cx_tanh, z);
  case NF_CASINH: return cx_asinh(k, z);
  case NF_CASIN: return via_i(k, cx_asinh, z);
  case NF_CACOS: return cx_acos(k, z);
  case NF_CACOSH: return cx_acosh(k, z);
  case NF_CATANH: return cx_atanh(k, z);
  default: return via_i(k, cx_atanh, z); /* NF_CATAN */
  }
}

/* ------------------------------------------------------------ entry ---- */

LLVMValueRef cg_complex_binary(Cg *cg, const Inst *in, LLVMValueRef a, LLVMValueRef b, const Type *t) {
  K k = kctx(cg, t);
  Cx x = split(&k, a), y = split(&k, b);
  switch (in->op) {
  case OP_ADD: return join(&k, (Cx){add(&k, x.re, y.re), add(&k, x.im, y.im)});
  case OP_SUB: return join(&k, (Cx){sub(&k, x.re, y.re), sub(&k, x.im, y.im)});
  case OP_MUL: return join(&k, cx_mul(&k, x, y));
  case OP_TRUEDIV: return join(&k, cx_div(&k, x, y));
  case OP_POW: return join(&k, cx_pow(&k, x, y));
  default:
    cg_unsupported(cg, in, "this operator on complex numbers");
    return NULL;
  }
}

LLVMValueRef cg_complex_neg(Cg *cg, LLVMValueRef a, const Type *t) {
  K k = kctx(cg, t);
  Cx x = split(&k, a);
  return join(&k, (Cx){neg(&k, x.re), neg(&k, x.im)});
}

LLVMValueRef cg_complex_abs(Cg *cg, LLVMValueRef a, const Type *t) {
  K k = kctx(cg, t);
  Cx x = split(&k, a);
  return m2(&k, "hypot", x.re, x.im);
}

/* A real number's .imag is 0 of its type; .real and .conjugate() itself. */
static LLVMValueRef real_part(NumFn fn, LLVMValueRef a) {
  return fn == NF_IMAG ? LLVMConstNull(LLVMTypeOf(a)) : a;
}

static LLVMValueRef cmath_pred(K *k, NumFn fn, Cx z) {
  LLVMValueRef inf = c(k, INFINITY);
  if (fn == NF_CISNAN)
    return or_(k, cmp(k, LLVMRealUNO, z.re, z.re), cmp(k, LLVMRealUNO, z.im, z.im));
  LLVMValueRef ir = cmp(k, LLVMRealOEQ, fabs_(k, z.re), inf), ii = cmp(k, LLVMRealOEQ, fabs_(k, z.im), inf);
  if (fn == NF_CISINF)
    return or_(k, ir, ii);
  return and_(k, cmp(k, LLVMRealOLT, fabs_(k, z.re), inf), cmp(k, LLVMRealOLT, fabs_(k, z.im), inf));
}

LLVMValueRef cg_lower_complex_fn(Cg *cg, const Inst *in, LLVMValueRef *a) {
  NumFn fn = (NumFn)in->ival;
  const Type *t0 = cg_arg_type(cg, in, 0);
  if (t0 && t0->kind == TY_ARRAY && (fn == NF_REAL || fn == NF_IMAG))
    return cg_array_part(cg, in, a[0], fn == NF_IMAG);
  if (fn == NF_COMPLEX || fn == NF_CRECT) {
    K k = kctx(cg, in->type);
    if (fn == NF_COMPLEX)
      return join(&k, (Cx){a[0], a[1]});
    SinCos t = sincos_(&k, a[1]);
    return join(&k, (Cx){mul(&k, a[0], t.c), mul(&k, a[0], t.s)});
  }
  if (!ty_is_complex(t0))
    return fn <= NF_CONJ ? real_part(fn, a[0]) : NULL;
  K k = kctx(cg, t0);
  Cx z = split(&k, a[0]);
  switch (fn) {
  case NF_REAL: return z.re;
  case NF_IMAG: return z.im;
  case NF_CONJ: return join(&k, (Cx){z.re, neg(&k, z.im)});
  case NF_CISNAN: case NF_CISINF: case NF_CISFINITE: return cmath_pred(&k, fn, z);
  case NF_CPHASE: return m2(&k, "atan2", z.im, z.re);
  case NF_CPOLAR: {
    LLVMValueRef v = LLVMGetPoison(cg_type(cg, in->type));
    v = LLVMBuildInsertValue(cg->b, v, m2(&k, "hypot", z.re, z.im), 0, "");
    return LLVMBuildInsertValue(cg->b, v, m2(&k, "atan2", z.im, z.re), 1, "");
  }
  default: return join(&k, cx_fn(&k, fn, z));
  }
}
