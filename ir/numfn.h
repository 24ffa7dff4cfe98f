/* numfn.h - the functions of the complex and float16 types (X-macro).
 *
 * One IR op, OP_NUMFN, carries them all; Inst.ival names the function.
 * N(NAME, "text name", ARITY, KIND): KIND says how typing treats it
 * (typing/infer_num.c) and codegen lowers each in codegen/cg_complex.c (complex)
 * and codegen/cg_half.c (float16), in terms
 * of real arithmetic and the math library, identically on both targets. */
#ifndef KJIT_IR_NUMFN_H
#define KJIT_IR_NUMFN_H

typedef enum NumFnKind {
  NK_MAKE,    /* complex(re, im): two real numbers -> complex128 */
  NK_PART,    /* .real .imag .conjugate(): a number -> its float (or itself) */
  NK_CMATH,   /* cmath.f(z): complex -> same complex (reals converted) */
  NK_CPRED,   /* cmath.isnan...: complex -> bool */
  NK_CREAL,   /* cmath.phase: complex -> its float */
  NK_POLAR,   /* cmath.polar: complex -> UniTuple(float x 2) */
  NK_RECT,    /* cmath.rect(r, phi): two floats -> complex */
  NK_H1,      /* cuda.fp16.h*(a): float16 -> float16 */
  NK_H2,      /* cuda.fp16.h*(a, b): float16 x 2 -> float16 */
  NK_H3,      /* cuda.fp16.hfma(a, b, c) */
  NK_HCMP,    /* cuda.fp16.heq...: float16 x 2 -> bool */
  NK_HCONV,   /* cuda.fp16.__hisnan, __half2float, __short_as_half...: one
                 operand of a fixed type -> a fixed type (typing/infer_num.c) */
} NumFnKind;

#define NUM_FNS(N)                                                             \
  N(COMPLEX, "complex", 2, NK_MAKE)                                            \
  N(REAL, "real", 1, NK_PART) N(IMAG, "imag", 1, NK_PART)                      \
  N(CONJ, "conjugate", 1, NK_PART)                                             \
  /* cmath */                                                                  \
  N(CSQRT, "sqrt", 1, NK_CMATH) N(CEXP, "exp", 1, NK_CMATH)                    \
  N(CLOG, "log", 1, NK_CMATH) N(CLOG10, "log10", 1, NK_CMATH)                  \
  N(CSIN, "sin", 1, NK_CMATH) N(CCOS, "cos", 1, NK_CMATH)                      \
  N(CTAN, "tan", 1, NK_CMATH) N(CASIN, "asin", 1, NK_CMATH)                    \
  N(CACOS, "acos", 1, NK_CMATH) N(CATAN, "atan", 1, NK_CMATH)                  \
  N(CSINH, "sinh", 1, NK_CMATH) N(CCOSH, "cosh", 1, NK_CMATH)                  \
  N(CTANH, "tanh", 1, NK_CMATH) N(CASINH, "asinh", 1, NK_CMATH)                \
  N(CACOSH, "acosh", 1, NK_CMATH) N(CATANH, "atanh", 1, NK_CMATH)              \
  N(CISNAN, "isnan", 1, NK_CPRED) N(CISINF, "isinf", 1, NK_CPRED)              \
  N(CISFINITE, "isfinite", 1, NK_CPRED)                                        \
  N(CPHASE, "phase", 1, NK_CREAL) N(CPOLAR, "polar", 1, NK_POLAR)              \
  N(CRECT, "rect", 2, NK_RECT)                                                 \
  /* cuda.fp16 */                                                              \
  N(HADD, "hadd", 2, NK_H2) N(HSUB, "hsub", 2, NK_H2)                          \
  N(HMUL, "hmul", 2, NK_H2) N(HDIV, "hdiv", 2, NK_H2)                          \
  N(HMAX, "hmax", 2, NK_H2) N(HMIN, "hmin", 2, NK_H2)                          \
  N(HFMA, "hfma", 3, NK_H3)                                                    \
  N(HNEG, "hneg", 1, NK_H1) N(HABS, "habs", 1, NK_H1)                          \
  N(HSQRT, "hsqrt", 1, NK_H1) N(HRSQRT, "hrsqrt", 1, NK_H1)                    \
  N(HRCP, "hrcp", 1, NK_H1) N(HEXP, "hexp", 1, NK_H1)                          \
  N(HEXP2, "hexp2", 1, NK_H1) N(HEXP10, "hexp10", 1, NK_H1)                    \
  N(HLOG, "hlog", 1, NK_H1) N(HLOG2, "hlog2", 1, NK_H1)                        \
  N(HLOG10, "hlog10", 1, NK_H1) N(HSIN, "hsin", 1, NK_H1)                      \
  N(HCOS, "hcos", 1, NK_H1) N(HCEIL, "hceil", 1, NK_H1)                        \
  N(HFLOOR, "hfloor", 1, NK_H1) N(HTRUNC, "htrunc", 1, NK_H1)                  \
  N(HRINT, "hrint", 1, NK_H1)                                                  \
  N(HEQ, "heq", 2, NK_HCMP) N(HNE, "hne", 2, NK_HCMP)                          \
  N(HGT, "hgt", 2, NK_HCMP) N(HGE, "hge", 2, NK_HCMP)                          \
  N(HLT, "hlt", 2, NK_HCMP) N(HLE, "hle", 2, NK_HCMP)                          \
  /* cuda.fp16, CUDA's __h* names (the 15 plain ones above also answer to   \
     __hadd...; ir_numfn_fp16) */                                             \
  N(HADD_RN, "__hadd_rn", 2, NK_H2) N(HSUB_RN, "__hsub_rn", 2, NK_H2)          \
  N(HMUL_RN, "__hmul_rn", 2, NK_H2) N(HADD_SAT, "__hadd_sat", 2, NK_H2)        \
  N(HSUB_SAT, "__hsub_sat", 2, NK_H2) N(HMUL_SAT, "__hmul_sat", 2, NK_H2)      \
  N(HFMA_SAT, "__hfma_sat", 3, NK_H3) N(HFMA_RELU, "__hfma_relu", 3, NK_H3)    \
  N(HMAX_NAN, "__hmax_nan", 2, NK_H2) N(HMIN_NAN, "__hmin_nan", 2, NK_H2)      \
  N(HTANH, "htanh", 1, NK_H1) N(HTANH_APPROX, "htanh_approx", 1, NK_H1)        \
  N(HEQU, "__hequ", 2, NK_HCMP) N(HNEU, "__hneu", 2, NK_HCMP)                  \
  N(HGTU, "__hgtu", 2, NK_HCMP) N(HGEU, "__hgeu", 2, NK_HCMP)                  \
  N(HLTU, "__hltu", 2, NK_HCMP) N(HLEU, "__hleu", 2, NK_HCMP)                  \
  N(HISNAN, "__hisnan", 1, NK_HCONV) N(HISINF, "__hisinf", 1, NK_HCONV)        \
  N(HALF2FLOAT, "__half2float", 1, NK_HCONV)                                   \
  N(FLOAT2HALF, "__float2half", 1, NK_HCONV)                                   \
  N(FLOAT2HALF_RN, "__float2half_rn", 1, NK_HCONV)                             \
  N(DOUBLE2HALF, "__double2half", 1, NK_HCONV)                                 \
  N(HALF_AS_SHORT, "__half_as_short", 1, NK_HCONV)                             \
  N(HALF_AS_USHORT, "__half_as_ushort", 1, NK_HCONV)                           \
  N(SHORT_AS_HALF, "__short_as_half", 1, NK_HCONV)                             \
  N(USHORT_AS_HALF, "__ushort_as_half", 1, NK_HCONV)

typedef enum NumFn {
#define N(name, text, arity, kind) NF_##name,
  NUM_FNS(N)
#undef N
  NF__COUNT
} NumFn;

typedef struct NumFnInfo { const char *name; int arity; NumFnKind kind; } NumFnInfo;
extern const NumFnInfo ir_numfn_info[NF__COUNT];

/* The cmath function (NF_CSQRT...) or cuda.fp16 function named `name`, or
 * -1.  Used by lowering to resolve cmath.<name> and cuda.fp16.<name>. */
int ir_numfn_cmath(const char *name);
int ir_numfn_fp16(const char *name);

#endif
