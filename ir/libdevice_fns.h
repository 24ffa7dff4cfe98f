/* libdevice_fns.h - the cuda.libdevice functions (X-macro).
 *
 * L(NAME, "RET", "ARGS"): libdevice's __nv_NAME with its C signature, as
 * numba.cuda.libdevice declares it.  Type letters: f float32, d float64,
 * h int16, i int32, l int64, v void (the return only); '*' before a letter
 * marks a pointer parameter, an extra result: the Python function returns
 * a tuple of the return value (unless void) and the pointed-to values, and
 * takes only the other parameters.  Unsigned C parameters (umax, usad...)
 * are declared as signed integers of their width, as Numba does: the bits
 * are the same.  Typing: typing/infer_libdevice.c; codegen: calls of __nv_NAME
 * (codegen/cg_libdevice.c); on the CPU target host/host_libdevice.c
 * defines those symbols. */
#ifndef KJIT_IR_LIBDEVICE_FNS_H
#define KJIT_IR_LIBDEVICE_FNS_H

#define LIBDEVICE_FNS(L) \
  L(abs, "i", "i") \
  L(acos, "d", "d") \
  L(acosf, "f", "f") \
  L(acosh, "d", "d") \
  L(acoshf, "f", "f") \
  L(asin, "d", "d") \
  L(asinf, "f", "f") \
  L(asinh, "d", "d") \
  L(asinhf, "f", "f") \
  L(atan, "d", "d") \
  L(atan2, "d", "dd") \
  L(atan2f, "f", "ff") \
  L(atanf, "f", "f") \
  L(atanh, "d", "d") \
  L(atanhf, "f", "f") \
  L(brev, "i", "i") \
  L(brevll, "l", "l") \
  L(byte_perm, "i", "iii") \
  L(cbrt, "d", "d") \
  L(cbrtf, "f", "f") \
  L(ceil, "d", "d") \
  L(ceilf, "f", "f") \
  L(clz, "i", "i") \
  L(clzll, "i", "l") \
  L(copysign, "d", "dd") \
  L(copysignf, "f", "ff") \
  L(cos, "d", "d") \
  L(cosf, "f", "f") \
  L(cosh, "d", "d") \
  L(coshf, "f", "f") \
  L(cospi, "d", "d") \
  L(cospif, "f", "f") \
  L(dadd_rd, "d", "dd") \
  L(dadd_rn, "d", "dd") \
  L(dadd_ru, "d", "dd") \
  L(dadd_rz, "d", "dd") \
  L(ddiv_rd, "d", "dd") \
  L(ddiv_rn, "d", "dd") \
  L(ddiv_ru, "d", "dd") \
  L(ddiv_rz, "d", "dd") \
  L(dmul_rd, "d", "dd") \
  L(dmul_rn, "d", "dd") \
  L(dmul_ru, "d", "dd") \
  L(dmul_rz, "d", "dd") \
  L(double2float_rd, "f", "d") \
  L(double2float_rn, "f", "d") \
  L(double2float_ru, "f", "d") \
  L(double2float_rz, "f", "d") \
  L(double2hiint, "i", "d") \
  L(double2int_rd, "i", "d") \
  L(double2int_rn, "i", "d") \
  L(double2int_ru, "i", "d") \
  L(double2int_rz, "i", "d") \
  L(double2ll_rd, "l", "d") \
  L(double2ll_rn, "l", "d") \
  L(double2ll_ru, "l", "d") \
  L(double2ll_rz, "l", "d") \
  L(double2loint, "i", "d") \
  L(double2uint_rd, "i", "d") \
  L(double2uint_rn, "i", "d") \
  L(double2uint_ru, "i", "d") \
  L(double2uint_rz, "i", "d") \
  L(double2ull_rd, "l", "d") \
  L(double2ull_rn, "l", "d") \
  L(double2ull_ru, "l", "d") \
  L(double2ull_rz, "l", "d") \
  L(double_as_longlong, "l", "d") \
  L(drcp_rd, "d", "d") \
  L(drcp_rn, "d", "d") \
  L(drcp_ru, "d", "d") \
  L(drcp_rz, "d", "d") \
  L(dsqrt_rd, "d", "d") \
  L(dsqrt_rn, "d", "d") \
  L(dsqrt_ru, "d", "d") \
  L(dsqrt_rz, "d", "d") \
  L(erf, "d", "d") \
  L(erfc, "d", "d") \
  L(erfcf, "f", "f") \
  L(erfcinv, "d", "d") \
  L(erfcinvf, "f", "f") \
  L(erfcx, "d", "d") \
  L(erfcxf, "f", "f") \
  L(erff, "f", "f") \
  L(erfinv, "d", "d") \
  L(erfinvf, "f", "f") \
  L(exp, "d", "d") \
  L(exp10, "d", "d") \
  L(exp10f, "f", "f") \
  L(exp2, "d", "d") \
  L(exp2f, "f", "f") \
  L(expf, "f", "f") \
  L(expm1, "d", "d") \
  L(expm1f, "f", "f") \
  L(fabs, "d", "d") \
  L(fabsf, "f", "f") \
  L(fadd_rd, "f", "ff") \
  L(fadd_rn, "f", "ff") \
  L(fadd_ru, "f", "ff") \
  L(fadd_rz, "f", "ff") \
  L(fast_cosf, "f", "f") \
  L(fast_exp10f, "f", "f") \
  L(fast_expf, "f", "f") \
  L(fast_fdividef, "f", "ff") \
  L(fast_log10f, "f", "f") \
  L(fast_log2f, "f", "f") \
  L(fast_logf, "f", "f") \
  L(fast_powf, "f", "ff") \
  L(fast_sincosf, "v", "f*f*f") \
  L(fast_sinf, "f", "f") \
  L(fast_tanf, "f", "f") \
  L(fdim, "d", "dd") \
  L(fdimf, "f", "ff") \
  L(fdiv_rd, "f", "ff") \
  L(fdiv_rn, "f", "ff") \
  L(fdiv_ru, "f", "ff") \
  L(fdiv_rz, "f", "ff") \
  L(ffs, "i", "i") \
  L(ffsll, "i", "l") \
  L(finitef, "i", "f") \
  L(float2half_rn, "h", "f") \
  L(float2int_rd, "i", "f") \
  L(float2int_rn, "i", "f") \
  L(float2int_ru, "i", "f") \
  L(float2int_rz, "i", "f") \
  L(float2ll_rd, "l", "f") \
  L(float2ll_rn, "l", "f") \
  L(float2ll_ru, "l", "f") \
  L(float2ll_rz, "l", "f") \
  L(float2uint_rd, "i", "f") \
  L(float2uint_rn, "i", "f") \
  L(float2uint_ru, "i", "f") \
  L(float2uint_rz, "i", "f") \
  L(float2ull_rd, "l", "f") \
  L(float2ull_rn, "l", "f") \
  L(float2ull_ru, "l", "f") \
  L(float2ull_rz, "l", "f") \
  L(float_as_int, "i", "f") \
  L(floor, "d", "d") \
  L(floorf, "f", "f") \
  L(fma, "d", "ddd") \
  L(fma_rd, "d", "ddd") \
  L(fma_rn, "d", "ddd") \
  L(fma_ru, "d", "ddd") \
  L(fma_rz, "d", "ddd") \
  L(fmaf, "f", "fff") \
  L(fmaf_rd, "f", "fff") \
  L(fmaf_rn, "f", "fff") \
  L(fmaf_ru, "f", "fff") \
  L(fmaf_rz, "f", "fff") \
  L(fmax, "d", "dd") \
  L(fmaxf, "f", "ff") \
  L(fmin, "d", "dd") \
  L(fminf, "f", "ff") \
  L(fmod, "d", "dd") \
  L(fmodf, "f", "ff") \
  L(fmul_rd, "f", "ff") \
  L(fmul_rn, "f", "ff") \
  L(fmul_ru, "f", "ff") \
  L(fmul_rz, "f", "ff") \
  L(frcp_rd, "f", "f") \
  L(frcp_rn, "f", "f") \
  L(frcp_ru, "f", "f") \
  L(frcp_rz, "f", "f") \
  L(frexp, "d", "d*i") \
  L(frexpf, "f", "f*i") \
  L(frsqrt_rn, "f", "f") \
  L(fsqrt_rd, "f", "f") \
  L(fsqrt_rn, "f", "f") \
  L(fsqrt_ru, "f", "f") \
  L(fsqrt_rz, "f", "f") \
  L(fsub_rd, "f", "ff") \
  L(fsub_rn, "f", "ff") \
  L(fsub_ru, "f", "ff") \
  L(fsub_rz, "f", "ff") \
  L(hadd, "i", "ii") \
  L(half2float, "f", "h") \
  L(hiloint2double, "d", "ii") \
  L(hypot, "d", "dd") \
  L(hypotf, "f", "ff") \
  L(ilogb, "i", "d") \
  L(ilogbf, "i", "f") \
  L(int2double_rn, "d", "i") \
  L(int2float_rd, "f", "i") \
  L(int2float_rn, "f", "i") \
  L(int2float_ru, "f", "i") \
  L(int2float_rz, "f", "i") \
  L(int_as_float, "f", "i") \
  L(isfinited, "i", "d") \
  L(isinfd, "i", "d") \
  L(isinff, "i", "f") \
  L(isnand, "i", "d") \
  L(isnanf, "i", "f") \
  L(j0, "d", "d") \
  L(j0f, "f", "f") \
  L(j1, "d", "d") \
  L(j1f, "f", "f") \
  L(jn, "d", "id") \
  L(jnf, "f", "if") \
  L(ldexp, "d", "di") \
  L(ldexpf, "f", "fi") \
  L(lgamma, "d", "d") \
  L(lgammaf, "f", "f") \
  L(ll2double_rd, "d", "l") \
  L(ll2double_rn, "d", "l") \
  L(ll2double_ru, "d", "l") \
  L(ll2double_rz, "d", "l") \
  L(ll2float_rd, "f", "l") \
  L(ll2float_rn, "f", "l") \
  L(ll2float_ru, "f", "l") \
  L(ll2float_rz, "f", "l") \
  L(llabs, "l", "l") \
  L(llmax, "l", "ll") \
  L(llmin, "l", "ll") \
  L(llrint, "l", "d") \
  L(llrintf, "l", "f") \
  L(llround, "l", "d") \
  L(llroundf, "l", "f") \
  L(log, "d", "d") \
  L(log10, "d", "d") \
  L(log10f, "f", "f") \
  L(log1p, "d", "d") \
  L(log1pf, "f", "f") \
  L(log2, "d", "d") \
  L(log2f, "f", "f") \
  L(logb, "d", "d") \
  L(logbf, "f", "f") \
  L(logf, "f", "f") \
  L(longlong_as_double, "d", "l") \
  L(max, "i", "ii") \
  L(min, "i", "ii") \
  L(modf, "d", "d*d") \
  L(modff, "f", "f*f") \
  L(mul24, "i", "ii") \
  L(mul64hi, "l", "ll") \
  L(mulhi, "i", "ii") \
  L(nearbyint, "d", "d") \
  L(nearbyintf, "f", "f") \
  L(nextafter, "d", "dd") \
  L(nextafterf, "f", "ff") \
  L(normcdf, "d", "d") \
  L(normcdff, "f", "f") \
  L(normcdfinv, "d", "d") \
  L(normcdfinvf, "f", "f") \
  L(popc, "i", "i") \
  L(popcll, "i", "l") \
  L(pow, "d", "dd") \
  L(powf, "f", "ff") \
  L(powi, "d", "di") \
  L(powif, "f", "fi") \
  L(rcbrt, "d", "d") \
  L(rcbrtf, "f", "f") \
  L(remainder, "d", "dd") \
  L(remainderf, "f", "ff") \
  L(remquo, "d", "dd*i") \
  L(remquof, "f", "ff*i") \
  L(rhadd, "i", "ii") \
  L(rint, "d", "d") \
  L(rintf, "f", "f") \
  L(round, "d", "d") \
  L(roundf, "f", "f") \
  L(rsqrt, "d", "d") \
  L(rsqrtf, "f", "f") \
  L(sad, "i", "iii") \
  L(saturatef, "f", "f") \
  L(scalbn, "d", "di") \
  L(scalbnf, "f", "fi") \
  L(signbitd, "i", "d") \
  L(signbitf, "i", "f") \
  L(sin, "d", "d") \
  L(sincos, "v", "d*d*d") \
  L(sincosf, "v", "f*f*f") \
  L(sincospi, "v", "d*d*d") \
  L(sincospif, "v", "f*f*f") \
  L(sinf, "f", "f") \
  L(sinh, "d", "d") \
  L(sinhf, "f", "f") \
  L(sinpi, "d", "d") \
  L(sinpif, "f", "f") \
  L(sqrt, "d", "d") \
  L(sqrtf, "f", "f") \
  L(tan, "d", "d") \
  L(tanf, "f", "f") \
  L(tanh, "d", "d") \
  L(tanhf, "f", "f") \
  L(tgamma, "d", "d") \
  L(tgammaf, "f", "f") \
  L(trunc, "d", "d") \
  L(truncf, "f", "f") \
  L(uhadd, "i", "ii") \
  L(uint2double_rn, "d", "i") \
  L(uint2float_rd, "f", "i") \
  L(uint2float_rn, "f", "i") \
  L(uint2float_ru, "f", "i") \
  L(uint2float_rz, "f", "i") \
  L(ull2double_rd, "d", "l") \
  L(ull2double_rn, "d", "l") \
  L(ull2double_ru, "d", "l") \
  L(ull2double_rz, "d", "l") \
  L(ull2float_rd, "f", "l") \
  L(ull2float_rn, "f", "l") \
  L(ull2float_ru, "f", "l") \
  L(ull2float_rz, "f", "l") \
  L(ullmax, "l", "ll") \
  L(ullmin, "l", "ll") \
  L(umax, "i", "ii") \
  L(umin, "i", "ii") \
  L(umul24, "i", "ii") \
  L(umul64hi, "l", "ll") \
  L(umulhi, "i", "ii") \
  L(urhadd, "i", "ii") \
  L(usad, "i", "iii") \
  L(y0, "d", "d") \
  L(y0f, "f", "f") \
  L(y1, "d", "d") \
  L(y1f, "f", "f") \
  L(yn, "d", "id") \
  L(ynf, "f", "if")

typedef enum LibdeviceFn {
#define L(name, ret, args) LD_##name,
  LIBDEVICE_FNS(L)
#undef L
  LD__COUNT
} LibdeviceFn;

typedef struct LibdeviceInfo {
  const char *name;   /* without the __nv_ prefix: libdevice.<name> */
  const char *ret;    /* type letter of the C return */
  const char *args;   /* type letters of the C parameters ('*': pointer) */
} LibdeviceInfo;
extern const LibdeviceInfo ir_libdevice_info[LD__COUNT];

/* The function libdevice.<name>, or -1. */
int ir_libdevice_find(const char *name);
/* Parameters the Python function takes (the non-pointer ones). */
int ir_libdevice_nparams(int fn);
/* The kjit type of a type letter ('f' float32 ... 'l' int64), NULL for 'v'. */
const struct Type *ir_libdevice_type(char c);

#endif
