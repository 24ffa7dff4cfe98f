/* host_libdevice.c - libdevice's __nv_* functions for the CPU target.
 *
 * cuda.libdevice.<f> compiles to a call of __nv_<f> on both targets
 * (codegen/cg_libdevice.c); on the CPU the JIT resolves those symbols to the
 * functions here (rt_host_libdevice_symbols).  Each follows the CUDA Math
 * API's definition of the function: C's libm where it has one, IEEE
 * arithmetic in the named rounding mode for the _rn/_rz/_rd/_ru variants
 * (fesetround around one operation on volatile operands, so the compiler
 * cannot fold or move it), and CUDA's saturating float-to-int conversions
 * (NaN gives 0).  libdevice's own approximations differ in the last bits,
 * and the fast_* functions are computed accurately here. */
#include "host/host_libdevice_internal.h"

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "data/array.h"

#include "ir/libdevice_fns.h"

typedef int16_t h16;
typedef int32_t i32;
typedef int64_t i64;

/* ------------------------------------------------------------ helpers -- */

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_FMA };

static int fe_mode(char m) {
  return m == 'z' ? FE_TOWARDZERO : m == 'd' ? FE_DOWNWARD : m == 'u' ? FE_UPWARD : FE_TONEAREST;
}

static double dround(char m, int op, double x, double y, double z) {
  volatile double a = x, b = y, c = z, r;
  int old = fegetround();
  fesetround(fe_mode(m));
  switch (op) {
  case OP_ADD: r = a + b; break;
  case OP_SUB: r = a - b; break;
  case OP_MUL: r = a * b; break;
  case OP_DIV: r = a / b; break;
  case OP_SQRT: r = sqrt(a); break;
  default: r = fma(a, b, c); break;
  }
  fesetround(old);
  return r;
}

static float fround(char m, int op, float x, float y, float z) {
  volatile float a = x, b = y, c = z, r;
  int old = fegetround();
  fesetround(fe_mode(m));
  switch (op) {
  case OP_ADD: r = a + b; break;
  case OP_SUB: r = a - b; break;
  case OP_MUL: r = a * b; break;
  case OP_DIV: r = a / b; break;
  case OP_SQRT: r = sqrtf(a); break;
  default: r = fmaf(a, b, c); break;
  }
  fesetround(old);
  return r;
}

/* An integer converted to float / double in rounding mode m. */
static float i2f(char m, i64 v, int is_unsigned) {
  volatile i64 a = v;
  volatile float r;
  int old = fegetround();
  fesetround(fe_mode(m));
  r = is_unsigned ? (float)(uint64_t)a : (float)a;
  fesetround(old);
  return r;
}

static double i2d(char m, i64 v, int is_unsigned) {
  volatile i64 a = v;
  volatile double r;
  int old = fegetround();
  fesetround(fe_mode(m));
  r = is_unsigned ? (double)(uint64_t)a : (double)a;
  fesetround(old);
  return r;
}

static float d2f(char m, double v) {
  volatile double a = v;
  volatile float r;
  int old = fegetround();
  fesetround(fe_mode(m));
  r = (float)a;
  fesetround(old);
  return r;
}

/* x rounded to an integral value in mode m. */
static double to_integral(char m, double x) {
  return m == 'z' ? trunc(x) : m == 'd' ? floor(x) : m == 'u' ? ceil(x) : nearbyint(x);
}

/* CUDA's float-to-int conversions saturate and give 0 for NaN. */
static i64 sat_signed(double r, int bits) {
  double hi = ldexp(1.0, bits - 1);
  if (isnan(r))
    return 0;
  if (r >= hi)
    return bits == 64 ? INT64_MAX : (i64)hi - 1;
  if (r < -hi)
    return bits == 64 ? INT64_MIN : -(i64)hi;
  return (i64)r;
}

static i64 sat_unsigned(double r, int bits) {
  double hi = ldexp(1.0, bits);
  if (isnan(r) || r <= 0)
    return 0;
  if (r >= hi)
    return bits == 64 ? (i64)UINT64_MAX : (i64)((1ULL << bits) - 1);
  return (i64)(uint64_t)r;
}

static i64 d2i(char m, double x, int bits, int is_unsigned) {
  double r = to_integral(m, x);
  return is_unsigned ? sat_unsigned(r, bits) : sat_signed(r, bits);
}

static i64 bits_of(double x) { i64 b; memcpy(&b, &x, 8); return b; }
static double from_bits(i64 b) { double x; memcpy(&x, &b, 8); return x; }
static i32 fbits_of(float x) { i32 b; memcpy(&b, &x, 4); return b; }
static float ffrom_bits(i32 b) { float x; memcpy(&x, &b, 4); return x; }

/* sin(pi x) and cos(pi x), exact at the integers and halves. */
static double sinpi_(double x) {
  if (!isfinite(x))
    return x - x;
  double r = fmod(x, 2.0); /* (-2, 2), exact */
  if (r == floor(r))
    return copysign(0.0, x);
  if (r > 1) r -= 2;
  if (r < -1) r += 2;
  if (r > 0.5) r = 1 - r;
  if (r < -0.5) r = -1 - r;
  return sin(M_PI * r);
}

static double cospi_(double x) {
  if (!isfinite(x))
    return x - x;
  double r = fmod(fabs(x), 2.0);
  if (r > 1) r = 2 - r; /* [0, 1] */
  double t = 0.5 - r;
  return t == 0 ? 0.0 : sin(M_PI * t);
}

/* erfinv: an initial guess refined by Newton's method on erf. */
static double erfinv_(double y) {
  if (isnan(y) || y < -1 || y > 1)
    return NAN;
  if (y == 1 || y == -1)
    return copysign(INFINITY, y);
  double w = -log((1 - y) * (1 + y)), x;
  if (w < 5) {
    w -= 2.5;
    x = 2.81022636e-08;
    x = 3.43273939e-07 + x * w; x = -3.5233877e-06 + x * w; x = -4.39150654e-06 + x * w;
    x = 0.00021858087 + x * w; x = -0.00125372503 + x * w; x = -0.00417768164 + x * w;
    x = 0.246640727 + x * w; x = 1.50140941 + x * w;
  } else {
    w = sqrt(w) - 3;
    x = -0.000200214257;
    x = 0.000100950558 + x * w; x = 0.00134934322 + x * w; x = -0.00367342844 + x * w;
    x = 0.00573950773 + x * w; x = -0.0076224613 + x * w; x = 0.00943887047 + x * w;
    x = 1.00167406 + x * w; x = 2.83297682 + x * w;
  }
  x *= y;
  for (int i = 0; i < 3; i++)
    x -= (erf(x) - y) / (M_2_SQRTPI * exp(-x * x));
  return x;
}

/* erfcinv: Newton's method on log(erfc), which stays accurate far out. */
static double erfcinv_(double y) {
  if (isnan(y) || y < 0 || y > 2)
    return NAN;
  if (y == 0)
    return INFINITY;
  if (y == 2)
    return -INFINITY;
  if (y > 1e-3)
    return erfinv_(1 - y) - (erfc(erfinv_(1 - y)) - y) / (-M_2_SQRTPI * exp(-erfinv_(1 - y) * erfinv_(1 - y)));
  double x = sqrt(-log(y));
  for (int i = 0; i < 8; i++) {
    double e = erfc(x);
    if (e <= 0)
      break;
    x -= (log(e) - log(y)) / (-M_2_SQRTPI * exp(-x * x) / e);
  }
  return x;
}

/* exp(x^2) erfc(x), with x^2 split exactly and the asymptotic series for
 * large x, where erfc underflows. */
static double erfcx_(double x) {
  if (isnan(x))
    return x;
  if (x < 26) {
    double hi = x * x, lo = fma(x, x, -hi);
    return exp(hi) * (1 + lo) * erfc(x);
  }
  double z = 1 / (x * x);
  return (1 - z * (0.5 - z * (0.75 - z * 1.875))) / (x * sqrt(M_PI));
}

static double lgamma_(double x) { int s; return lgamma_r(x, &s); }
static float lgammaf_(float x) { int s; return lgammaf_r(x, &s); }

static float saturate(float x) { return isnan(x) ? 0.0f : x < 0 ? 0.0f : x > 1 ? 1.0f : x; }

static i32 byte_perm_(i32 x, i32 y, i32 s) {
  uint64_t v = ((uint64_t)(uint32_t)y << 32) | (uint32_t)x;
  uint32_t r = 0;
  for (int i = 0; i < 4; i++)
    r |= (uint32_t)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return (i32)r;
}

static i32 brev_(i32 x) {
  uint32_t v = (uint32_t)x, r = 0;
  for (int i = 0; i < 32; i++, v >>= 1)
    r = (r << 1) | (v & 1);
  return (i32)r;
}

static i64 brevll_(i64 x) {
  return (i64)(((uint64_t)(uint32_t)brev_((i32)x) << 32) | (uint32_t)brev_((i32)((uint64_t)x >> 32)));
}

static i32 sext24(i32 x) { return (i32)((uint32_t)x << 8) >> 8; }

/* float <-> half bits (round to nearest even), portable: no _Float16 */
static h16 f2h(float x) { uint16_t b = rt_f32_to_f16(x); h16 r; memcpy(&r, &b, 2); return r; }
static float h2f(h16 b) { uint16_t u; memcpy(&u, &b, 2); return rt_f16_to_f32(u); }

/* ----------------------------------------------------- the functions -- */

#define F1(n, R, A, e) static R nv_##n(A x) { return e; }
#define F2(n, R, A, B, e) static R nv_##n(A x, B y) { return e; }
#define F3(n, R, A, B, C, e) static R nv_##n(A x, B y, C z) { return e; }
/* name, name##f: the same libm function in double and float */
#define M1(n) F1(n, double, double, n(x)) F1(n##f, float, float, n##f(x))
#define M2(n) F2(n, double, double, double, n(x, y)) F2(n##f, float, float, float, n##f(x, y))
/* the four rounding modes of one operation */
#define RM_D(n, op, ...) F2(n##_rn, double, double, double, dround('n', op, __VA_ARGS__)) \
  F2(n##_rz, double, double, double, dround('z', op, __VA_ARGS__))                      \
  F2(n##_rd, double, double, double, dround('d', op, __VA_ARGS__))                      \
  F2(n##_ru, double, double, double, dround('u', op, __VA_ARGS__))
#define RM_F(n, op, ...) F2(n##_rn, float, float, float, fround('n', op, __VA_ARGS__)) \
  F2(n##_rz, float, float, float, fround('z', op, __VA_ARGS__))                       \
  F2(n##_rd, float, float, float, fround('d', op, __VA_ARGS__))                       \
  F2(n##_ru, float, float, float, fround('u', op, __VA_ARGS__))
#define RM_1(n, R, A, e) F1(n##_rn, R, A, e('n', x)) F1(n##_rz, R, A, e('z', x)) \
  F1(n##_rd, R, A, e('d', x)) F1(n##_ru, R, A, e('u', x))

M1(acos) M1(acosh) M1(asin) M1(asinh) M1(atan) M1(atanh) M1(cbrt) M1(ceil) M1(cos) M1(cosh)
M1(erf) M1(erfc) M1(exp) M1(exp10) M1(exp2) M1(expm1) M1(fabs) M1(floor) M1(j0) M1(j1)
M1(log) M1(log10) M1(log1p) M1(log2) M1(logb) M1(nearbyint) M1(rint) M1(round) M1(sin)
M1(sinh) M1(sqrt) M1(tan) M1(tanh) M1(tgamma) M1(trunc) M1(y0) M1(y1)
M2(atan2) M2(copysign) M2(fdim) M2(fmax) M2(fmin) M2(fmod) M2(hypot) M2(nextafter) M2(pow)
M2(remainder)
F1(cospi, double, double, cospi_(x)) F1(cospif, float, float, (float)cospi_(x))
F1(sinpi, double, double, sinpi_(x)) F1(sinpif, float, float, (float)sinpi_(x))
F1(erfinv, double, double, erfinv_(x)) F1(erfinvf, float, float, (float)erfinv_(x))
F1(erfcinv, double, double, erfcinv_(x)) F1(erfcinvf, float, float, (float)erfcinv_(x))
F1(erfcx, double, double, erfcx_(x)) F1(erfcxf, float, float, (float)erfcx_(x))
F1(normcdf, double, double, 0.5 * erfc(-x * M_SQRT1_2))
F1(normcdff, float, float, (float)(0.5 * erfc(-x * M_SQRT1_2)))
F1(normcdfinv, double, double, -M_SQRT2 * erfcinv_(2 * x))
F1(normcdfinvf, float, float, (float)(-M_SQRT2 * erfcinv_(2.0 * x)))
F1(lgamma, double, double, lgamma_(x)) F1(lgammaf, float, float, lgammaf_(x))
F1(rcbrt, double, double, 1 / cbrt(x)) F1(rcbrtf, float, float, (float)(1 / cbrt(x)))
F1(rsqrt, double, double, 1 / sqrt(x)) F1(rsqrtf, float, float, (float)(1 / sqrt(x)))
F1(ilogb, i32, double, ilogb(x)) F1(ilogbf, i32, float, ilogbf(x))
F1(llrint, i64, double, sat_signed(rint(x), 64)) F1(llrintf, i64, float, sat_signed(rintf(x), 64))
F1(llround, i64, double, sat_signed(round(x), 64)) F1(llroundf, i64, float, sat_signed(roundf(x), 64))
F1(isfinited, i32, double, isfinite(x) != 0) F1(finitef, i32, float, isfinite(x) != 0)
F1(isinfd, i32, double, isinf(x) != 0) F1(isinff, i32, float, isinf(x) != 0)
F1(isnand, i32, double, isnan(x) != 0) F1(isnanf, i32, float, isnan(x) != 0)
F1(signbitd, i32, double, signbit(x) != 0) F1(signbitf, i32, float, signbit(x) != 0)
F1(saturatef, float, float, saturate(x))
F2(jn, double, i32, double, jn(x, y)) F2(jnf, float, i32, float, jnf(x, y))
F2(yn, double, i32, double, yn(x, y)) F2(ynf, float, i32, float, ynf(x, y))
F2(ldexp, double, double, i32, ldexp(x, y)) F2(ldexpf, float, float, i32, ldexpf(x, y))
F2(scalbn, double, double, i32, scalbn(x, y)) F2(scalbnf, float, float, i32, scalbnf(x, y))
F2(powi, double, double, i32, pow(x, y)) F2(powif, float, float, i32, powf(x, (float)y))
F3(fma, double, double, double, double, fma(x, y, z)) F3(fmaf, float, float, float, float, fmaf(x, y, z))
F3(fma_rn, double, double, double, double, dround('n', OP_FMA, x, y, z))
F3(fma_rz, double, double, double, double, dround('z', OP_FMA, x, y, z))
F3(fma_rd, double, double, double, double, dround('d', OP_FMA, x, y, z))
F3(fma_ru, double, double, double, double, dround('u', OP_FMA, x, y, z))
F3(fmaf_rn, float, float, float, float, fround('n', OP_FMA, x, y, z))
F3(fmaf_rz, float, float, float, float, fround('z', OP_FMA, x, y, z))
F3(fmaf_rd, float, float, float, float, fround('d', OP_FMA, x, y, z))
F3(fmaf_ru, float, float, float, float, fround('u', OP_FMA, x, y, z))
/* arithmetic in a rounding mode */
RM_D(dadd, OP_ADD, x, y, 0) RM_D(dmul, OP_MUL, x, y, 0)
RM_D(ddiv, OP_DIV, x, y, 0)
RM_F(fadd, OP_ADD, x, y, 0) RM_F(fsub, OP_SUB, x, y, 0) RM_F(fmul, OP_MUL, x, y, 0)
RM_F(fdiv, OP_DIV, x, y, 0)
#define DRCP(m, x) dround(m, OP_DIV, 1.0, x, 0)
#define FRCP(m, x) fround(m, OP_DIV, 1.0f, x, 0)
#define DSQRT(m, x) dround(m, OP_SQRT, x, 0, 0)
#define FSQRT(m, x) fround(m, OP_SQRT, x, 0, 0)
RM_1(drcp, double, double, DRCP) RM_1(frcp, float, float, FRCP)
RM_1(dsqrt, double, double, DSQRT) RM_1(fsqrt, float, float, FSQRT)
F1(frsqrt_rn, float, float, (float)(1 / sqrt((double)x)))
/* conversions */
#define D2F(m, x) d2f(m, x)
RM_1(double2float, float, double, D2F)
#define CVT(m, x, bits, u) d2i(m, x, bits, u)
#define D2I(m, x) (i32)CVT(m, x, 32, 0)
#define D2U(m, x) (i32)CVT(m, x, 32, 1)
#define D2LL(m, x) CVT(m, x, 64, 0)
#define D2ULL(m, x) CVT(m, x, 64, 1)
RM_1(double2int, i32, double, D2I) RM_1(double2uint, i32, double, D2U)
RM_1(double2ll, i64, double, D2LL) RM_1(double2ull, i64, double, D2ULL)
RM_1(float2int, i32, float, D2I) RM_1(float2uint, i32, float, D2U)
RM_1(float2ll, i64, float, D2LL) RM_1(float2ull, i64, float, D2ULL)
#define I2F(m, x) i2f(m, x, 0)
#define U2F(m, x) i2f(m, (i64)(uint32_t)x, 0)
#define LL2F(m, x) i2f(m, x, 0)
#define ULL2F(m, x) i2f(m, x, 1)
#define LL2D(m, x) i2d(m, x, 0)
#define ULL2D(m, x) i2d(m, x, 1)
RM_1(int2float, float, i32, I2F) RM_1(uint2float, float, i32, U2F)
RM_1(ll2float, float, i64, LL2F) RM_1(ull2float, float, i64, ULL2F)
RM_1(ll2double, double, i64, LL2D) RM_1(ull2double, double, i64, ULL2D)
F1(int2double_rn, double, i32, (double)x) F1(uint2double_rn, double, i32, (double)(uint32_t)x)
F1(double2hiint, i32, double, (i32)(bits_of(x) >> 32))
F1(double2loint, i32, double, (i32)bits_of(x))
F2(hiloint2double, double, i32, i32, from_bits((i64)(((uint64_t)(uint32_t)x << 32) | (uint32_t)y)))
F1(double_as_longlong, i64, double, bits_of(x)) F1(longlong_as_double, double, i64, from_bits(x))
F1(float_as_int, i32, float, fbits_of(x)) F1(int_as_float, float, i32, ffrom_bits(x))
F1(float2half_rn, h16, float, f2h(x)) F1(half2float, float, h16, h2f(x))
/* integers (unsigned ones take the bits of signed parameters) */
F1(abs, i32, i32, (i32)(x < 0 ? 0u - (uint32_t)x : (uint32_t)x))
F1(llabs, i64, i64, (i64)(x < 0 ? 0ull - (uint64_t)x : (uint64_t)x))
F2(max, i32, i32, i32, x > y ? x : y) F2(min, i32, i32, i32, x < y ? x : y)
F2(umax, i32, i32, i32, (uint32_t)x > (uint32_t)y ? x : y)
F2(umin, i32, i32, i32, (uint32_t)x < (uint32_t)y ? x : y)
F2(llmax, i64, i64, i64, x > y ? x : y) F2(llmin, i64, i64, i64, x < y ? x : y)
F2(ullmax, i64, i64, i64, (uint64_t)x > (uint64_t)y ? x : y)
F2(ullmin, i64, i64, i64, (uint64_t)x < (uint64_t)y ? x : y)
F1(brev, i32, i32, brev_(x)) F1(brevll, i64, i64, brevll_(x))
F3(byte_perm, i32, i32, i32, i32, byte_perm_(x, y, z))
F1(clz, i32, i32, x ? __builtin_clz((uint32_t)x) : 32)
F1(clzll, i32, i64, x ? __builtin_clzll((uint64_t)x) : 64)
F1(ffs, i32, i32, __builtin_ffs(x)) F1(ffsll, i32, i64, __builtin_ffsll(x))
F1(popc, i32, i32, __builtin_popcount((uint32_t)x))
F1(popcll, i32, i64, __builtin_popcountll((uint64_t)x))
F2(hadd, i32, i32, i32, (i32)(((i64)x + y) >> 1))
F2(rhadd, i32, i32, i32, (i32)(((i64)x + y + 1) >> 1))
F2(uhadd, i32, i32, i32, (i32)(((uint64_t)(uint32_t)x + (uint32_t)y) >> 1))
F2(urhadd, i32, i32, i32, (i32)(((uint64_t)(uint32_t)x + (uint32_t)y + 1) >> 1))
F2(mul24, i32, i32, i32, (i32)((uint32_t)sext24(x) * (uint32_t)sext24(y)))
F2(umul24, i32, i32, i32, (i32)(((uint32_t)x & 0xffffff) * ((uint32_t)y & 0xffffff)))
F2(mulhi, i32, i32, i32, (i32)(((i64)x * y) >> 32))
F2(umulhi, i32, i32, i32, (i32)(((uint64_t)(uint32_t)x * (uint32_t)y) >> 32))
F2(mul64hi, i64, i64, i64, (i64)(((__int128)x * y) >> 64))
F2(umul64hi, i64, i64, i64, (i64)(((unsigned __int128)(uint64_t)x * (uint64_t)y) >> 64))
F3(sad, i32, i32, i32, i32, (i32)((uint32_t)(x > y ? (i64)x - y : (i64)y - x) + (uint32_t)z))
F3(usad, i32, i32, i32, i32,
   (i32)(((uint32_t)x > (uint32_t)y ? (uint32_t)x - (uint32_t)y : (uint32_t)y - (uint32_t)x) + (uint32_t)z))
/* fast_* (accurate here) */
F1(fast_cosf, float, float, cosf(x)) F1(fast_sinf, float, float, sinf(x))
F1(fast_tanf, float, float, tanf(x)) F1(fast_expf, float, float, expf(x))
F1(fast_exp10f, float, float, exp10f(x)) F1(fast_logf, float, float, logf(x))
F1(fast_log2f, float, float, log2f(x)) F1(fast_log10f, float, float, log10f(x))
F2(fast_powf, float, float, float, powf(x, y)) F2(fast_fdividef, float, float, float, x / y)

/* the functions with results through pointers */
static void nv_sincos(double x, double *s, double *c) { *s = sin(x); *c = cos(x); }
static void nv_sincosf(float x, float *s, float *c) { *s = sinf(x); *c = cosf(x); }
static void nv_fast_sincosf(float x, float *s, float *c) { *s = sinf(x); *c = cosf(x); }
static void nv_sincospi(double x, double *s, double *c) { *s = sinpi_(x); *c = cospi_(x); }
static void nv_sincospif(float x, float *s, float *c) { *s = (float)sinpi_(x); *c = (float)cospi_(x); }
static double nv_frexp(double x, i32 *e) { int k; double m = frexp(x, &k); *e = k; return m; }
static float nv_frexpf(float x, i32 *e) { int k; float m = frexpf(x, &k); *e = k; return m; }
static double nv_modf(double x, double *i) { return modf(x, i); }
static float nv_modff(float x, float *i) { return modff(x, i); }
static double nv_remquo(double x, double y, i32 *q) { int k; double r = remquo(x, y, &k); *q = k; return r; }
static float nv_remquof(float x, float y, i32 *q) { int k; float r = remquof(x, y, &k); *q = k; return r; }

const RtHostSym rt_host_libdevice_symbols[] = {
#define L(name, ret, args) {"__nv_" #name, (void (*)(void))nv_##name},
    LIBDEVICE_FNS(L)
#undef L
    {NULL, NULL},
};
