/* bf16.h - the bfloat16 functions of numba.cuda.bf16 (X-macro).
 *
 * One IR op, OP_BF16, carries them all; Inst.ival names the function.  The
 * operators on two bfloat16 values (a + b, a < b, -a) are typed into the
 * same op (ir/infer_bf16.c), so codegen (codegen/cg_bf16.c) has one entry.
 * B(NAME, "numba.cuda.bf16 name", "cuda_bf16 name", KIND, TYPE, MODE):
 * KIND says the shape (ir/infer_bf16.c), TYPE the other type of a
 * conversion (TY_BOOL for none), MODE its rounding (BR_*). */
#ifndef KJIT_IR_BF16_H
#define KJIT_IR_BF16_H

#include <stdbool.h>

typedef enum Bf16Kind {
  BK_U,      /* bfloat16 -> bfloat16 */
  BK_B,      /* bfloat16 x 2 -> bfloat16 */
  BK_T,      /* bfloat16 x 3 -> bfloat16 (fused) */
  BK_CMP,    /* bfloat16 x 2 -> bool */
  BK_TEST,   /* bfloat16 -> TYPE (hisnan: bool, hisinf: int32) */
  BK_TO,     /* bfloat16 -> TYPE, rounded by MODE */
  BK_FROM,   /* TYPE -> bfloat16, rounded by MODE */
} Bf16Kind;

typedef enum Bf16Round {
  BR_RN,     /* to nearest, ties to even */
  BR_RZ,     /* toward zero */
  BR_RD,     /* toward -inf */
  BR_RU,     /* toward +inf */
  BR_BITS,   /* a reinterpretation of the 16 bits */
} Bf16Round;

#define BF16_FNS(B)                                                            \
  B(HADD, "hadd", "__hadd", BK_B, TY_BOOL, BR_RN)                              \
  B(HSUB, "hsub", "__hsub", BK_B, TY_BOOL, BR_RN)                              \
  B(HMUL, "hmul", "__hmul", BK_B, TY_BOOL, BR_RN)                              \
  B(HDIV, "hdiv", "__hdiv", BK_B, TY_BOOL, BR_RN)                              \
  B(HADD_RN, "hadd_rn", "__hadd_rn", BK_B, TY_BOOL, BR_RN)                     \
  B(HSUB_RN, "hsub_rn", "__hsub_rn", BK_B, TY_BOOL, BR_RN)                     \
  B(HMUL_RN, "hmul_rn", "__hmul_rn", BK_B, TY_BOOL, BR_RN)                     \
  B(HADD_SAT, "hadd_sat", "__hadd_sat", BK_B, TY_BOOL, BR_RN)                  \
  B(HSUB_SAT, "hsub_sat", "__hsub_sat", BK_B, TY_BOOL, BR_RN)                  \
  B(HMUL_SAT, "hmul_sat", "__hmul_sat", BK_B, TY_BOOL, BR_RN)                  \
  B(HMAX, "hmax", "__hmax", BK_B, TY_BOOL, BR_RN)                              \
  B(HMIN, "hmin", "__hmin", BK_B, TY_BOOL, BR_RN)                              \
  B(HMAX_NAN, "hmax_nan", "__hmax_nan", BK_B, TY_BOOL, BR_RN)                  \
  B(HMIN_NAN, "hmin_nan", "__hmin_nan", BK_B, TY_BOOL, BR_RN)                  \
  B(HFMA, "hfma", "__hfma", BK_T, TY_BOOL, BR_RN)                              \
  B(HFMA_SAT, "hfma_sat", "__hfma_sat", BK_T, TY_BOOL, BR_RN)                  \
  B(HFMA_RELU, "hfma_relu", "__hfma_relu", BK_T, TY_BOOL, BR_RN)               \
  B(HABS, "habs", "__habs", BK_U, TY_BOOL, BR_RN)                              \
  B(HNEG, "hneg", "__hneg", BK_U, TY_BOOL, BR_RN)                              \
  B(HTRUNC, "htrunc", "htrunc", BK_U, TY_BOOL, BR_RN)                          \
  B(HCEIL, "hceil", "hceil", BK_U, TY_BOOL, BR_RN)                             \
  B(HFLOOR, "hfloor", "hfloor", BK_U, TY_BOOL, BR_RN)                          \
  B(HRINT, "hrint", "hrint", BK_U, TY_BOOL, BR_RN)                             \
  B(HSQRT, "hsqrt", "hsqrt", BK_U, TY_BOOL, BR_RN)                             \
  B(HRSQRT, "hrsqrt", "hrsqrt", BK_U, TY_BOOL, BR_RN)                          \
  B(HRCP, "hrcp", "hrcp", BK_U, TY_BOOL, BR_RN)                                \
  B(HCOS, "hcos", "hcos", BK_U, TY_BOOL, BR_RN)                                \
  B(HSIN, "hsin", "hsin", BK_U, TY_BOOL, BR_RN)                                \
  B(HLOG, "hlog", "hlog", BK_U, TY_BOOL, BR_RN)                                \
  B(HLOG2, "hlog2", "hlog2", BK_U, TY_BOOL, BR_RN)                             \
  B(HLOG10, "hlog10", "hlog10", BK_U, TY_BOOL, BR_RN)                          \
  B(HEXP, "hexp", "hexp", BK_U, TY_BOOL, BR_RN)                                \
  B(HEXP2, "hexp2", "hexp2", BK_U, TY_BOOL, BR_RN)                             \
  B(HEXP10, "hexp10", "hexp10", BK_U, TY_BOOL, BR_RN)                          \
  B(HTANH, "htanh", "htanh", BK_U, TY_BOOL, BR_RN)                             \
  B(HTANH_APPROX, "htanh_approx", "htanh_approx", BK_U, TY_BOOL, BR_RN)        \
  B(HEQ, "heq", "__heq", BK_CMP, TY_BOOL, BR_RN)                               \
  B(HNE, "hne", "__hne", BK_CMP, TY_BOOL, BR_RN)                               \
  B(HGE, "hge", "__hge", BK_CMP, TY_BOOL, BR_RN)                               \
  B(HGT, "hgt", "__hgt", BK_CMP, TY_BOOL, BR_RN)                               \
  B(HLE, "hle", "__hle", BK_CMP, TY_BOOL, BR_RN)                               \
  B(HLT, "hlt", "__hlt", BK_CMP, TY_BOOL, BR_RN)                               \
  B(HEQU, "hequ", "__hequ", BK_CMP, TY_BOOL, BR_RN)                            \
  B(HNEU, "hneu", "__hneu", BK_CMP, TY_BOOL, BR_RN)                            \
  B(HGEU, "hgeu", "__hgeu", BK_CMP, TY_BOOL, BR_RN)                            \
  B(HGTU, "hgtu", "__hgtu", BK_CMP, TY_BOOL, BR_RN)                            \
  B(HLEU, "hleu", "__hleu", BK_CMP, TY_BOOL, BR_RN)                            \
  B(HLTU, "hltu", "__hltu", BK_CMP, TY_BOOL, BR_RN)                            \
  B(HISNAN, "hisnan", "__hisnan", BK_TEST, TY_BOOL, BR_RN)                     \
  B(HISINF, "hisinf", "__hisinf", BK_TEST, TY_I32, BR_RN)                      \
  /* conversions: the bf16.py names, then CUDA's */                           \
  B(TO_F32, "bfloat16_to_float32", "__bfloat162float", BK_TO, TY_F32, BR_RN)  \
  B(F32_TO, "float32_to_bfloat16", "__float2bfloat16", BK_FROM, TY_F32, BR_RN) \
  B(F64_TO, "float64_to_bfloat16", "__double2bfloat16", BK_FROM, TY_F64, BR_RN) \
  B(F32_TO_RN, "float32_to_bfloat16_rn", "__float2bfloat16_rn", BK_FROM, TY_F32, BR_RN) \
  B(F32_TO_RZ, "float32_to_bfloat16_rz", "__float2bfloat16_rz", BK_FROM, TY_F32, BR_RZ) \
  B(F32_TO_RD, "float32_to_bfloat16_rd", "__float2bfloat16_rd", BK_FROM, TY_F32, BR_RD) \
  B(F32_TO_RU, "float32_to_bfloat16_ru", "__float2bfloat16_ru", BK_FROM, TY_F32, BR_RU) \
  B(TO_I8_RZ, "bfloat16_to_int8_rz", "__bfloat162char_rz", BK_TO, TY_I8, BR_RZ) \
  B(TO_U8_RZ, "bfloat16_to_uint8_rz", "__bfloat162uchar_rz", BK_TO, TY_U8, BR_RZ) \
  BF16_INT_FNS(B, I16, int16, short, TY_I16)                                   \
  BF16_INT_FNS(B, U16, uint16, ushort, TY_U16)                                 \
  BF16_INT_FNS(B, I32, int32, int, TY_I32)                                     \
  BF16_INT_FNS(B, U32, uint32, uint, TY_U32)                                   \
  BF16_INT_FNS(B, I64, int64, ll, TY_I64)                                      \
  BF16_INT_FNS(B, U64, uint64, ull, TY_U64)                                    \
  B(AS_I16, "bfloat16_as_int16", "__bfloat16_as_short", BK_TO, TY_I16, BR_BITS) \
  B(AS_U16, "bfloat16_as_uint16", "__bfloat16_as_ushort", BK_TO, TY_U16, BR_BITS) \
  B(I16_AS, "int16_as_bfloat16", "__short_as_bfloat16", BK_FROM, TY_I16, BR_BITS) \
  B(U16_AS, "uint16_as_bfloat16", "__ushort_as_bfloat16", BK_FROM, TY_U16, BR_BITS)

/* Eight conversions per integer type: to bfloat16 and back, in each mode. */
#define BF16_INT_FNS(B, T, np, c, TY)                                          \
  B(T##_TO_RN, #np "_to_bfloat16_rn", "__" #c "2bfloat16_rn", BK_FROM, TY, BR_RN) \
  B(T##_TO_RZ, #np "_to_bfloat16_rz", "__" #c "2bfloat16_rz", BK_FROM, TY, BR_RZ) \
  B(T##_TO_RD, #np "_to_bfloat16_rd", "__" #c "2bfloat16_rd", BK_FROM, TY, BR_RD) \
  B(T##_TO_RU, #np "_to_bfloat16_ru", "__" #c "2bfloat16_ru", BK_FROM, TY, BR_RU) \
  B(TO_##T##_RN, "bfloat16_to_" #np "_rn", "__bfloat162" #c "_rn", BK_TO, TY, BR_RN) \
  B(TO_##T##_RZ, "bfloat16_to_" #np "_rz", "__bfloat162" #c "_rz", BK_TO, TY, BR_RZ) \
  B(TO_##T##_RD, "bfloat16_to_" #np "_rd", "__bfloat162" #c "_rd", BK_TO, TY, BR_RD) \
  B(TO_##T##_RU, "bfloat16_to_" #np "_ru", "__bfloat162" #c "_ru", BK_TO, TY, BR_RU)

/* Kept in order: hlog...hexp10 is one range (codegen/cg_bf16.c). */
typedef enum Bf16Fn {
#define B(name, np, c, kind, ty, mode) BF_##name,
  BF16_FNS(B)
#undef B
  BF__COUNT
} Bf16Fn;

typedef struct Bf16Info {
  const char *name;   /* numba.cuda.bf16's name */
  const char *cname;  /* numba.cuda._internal.cuda_bf16's (CUDA's) name */
  Bf16Kind kind;
  int other;          /* TypeKind: the other type of a conversion or test */
  Bf16Round mode;
} Bf16Info;
extern const Bf16Info ir_bf16_info[BF__COUNT];

/* The function named `name` in numba.cuda.bf16 (cuda = false) or in
 * numba.cuda._internal.cuda_bf16 (cuda = true), or -1. */
int ir_bf16_find(const char *name, bool cuda);
/* The bfloat16 function of math.<name> (numba-cuda overloads math.sqrt,
 * math.floor... for bfloat16), or -1. */
int ir_bf16_math(const char *name);
/* Arity of a function (1..3). */
int ir_bf16_arity(int fn);

#endif
