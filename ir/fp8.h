/* fp8.h - the raw conversion intrinsics of numba.cuda._internal.cuda_fp8
 * (X-macro), and its enums.
 *
 * One IR op, OP_FP8, carries them all: Inst.ival = fn | mode << 8, where
 * fn names the function and mode packs its two enum arguments, which Numba
 * types as IntEnumMember and kjit takes as compile-time members
 * (FP8_SAT_BIT: saturation_t.SATFINITE; FP8_MODE_BIT: E5M2 for the fp8
 * functions, cudaRoundPosInf for the e8m0 ones).  The fp8 scalar types and
 * their constructors and conversions are CASTs (codegen/cg_fp8.c).
 * F(NAME, "cuda_fp8 name", ARG, RESULT, MODES): ARG/RESULT are the value's
 * type (FA_RAW: numba's bfloat16_raw, a one-field struct .x: uint16;
 * FA_F32X2/FA_F64X2: the CUDA vector types float2/double2, x in the low
 * byte of the result, y in the high one);
 * MODES says which enum the second mode argument is. */
#ifndef KJIT_IR_FP8_H
#define KJIT_IR_FP8_H

#include <stdbool.h>

typedef enum Fp8Arg { FA_F32, FA_F64, FA_RAW, FA_U8, FA_F32X2, FA_F64X2, FA_U16 } Fp8Arg;
typedef enum Fp8Modes { FM_NONE, FM_INTERP, FM_ROUND } Fp8Modes;

#define FP8_FNS(F)                                                              \
  F(FLOAT_TO_FP8, "cvt_float_to_fp8", FA_F32, FA_U8, FM_INTERP)                 \
  F(DOUBLE_TO_FP8, "cvt_double_to_fp8", FA_F64, FA_U8, FM_INTERP)               \
  F(BF16RAW_TO_FP8, "cvt_bfloat16raw_to_fp8", FA_RAW, FA_U8, FM_INTERP)         \
  F(FLOAT_TO_E8M0, "cvt_float_to_e8m0", FA_F32, FA_U8, FM_ROUND)                \
  F(DOUBLE_TO_E8M0, "cvt_double_to_e8m0", FA_F64, FA_U8, FM_ROUND)              \
  F(BF16RAW_TO_E8M0, "cvt_bfloat16raw_to_e8m0", FA_RAW, FA_U8, FM_ROUND)        \
  F(E8M0_TO_BF16RAW, "cvt_e8m0_to_bf16raw", FA_U8, FA_RAW, FM_NONE)             \
  F(FLOAT2_TO_FP8X2, "cvt_float2_to_fp8x2", FA_F32X2, FA_U16, FM_INTERP)        \
  F(DOUBLE2_TO_FP8X2, "cvt_double2_to_fp8x2", FA_F64X2, FA_U16, FM_INTERP)      \
  F(FLOAT2_TO_E8M0X2, "cvt_float2_to_e8m0x2", FA_F32X2, FA_U16, FM_ROUND)       \
  F(DOUBLE2_TO_E8M0X2, "cvt_double2_to_e8m0x2", FA_F64X2, FA_U16, FM_ROUND)

typedef enum Fp8Fn {
#define F(id, name, arg, res, modes) FP8_##id,
  FP8_FNS(F)
#undef F
  FP8__COUNT
} Fp8Fn;

typedef struct Fp8Info {
  const char *name; /* numba.cuda._internal.cuda_fp8's name */
  Fp8Arg arg, result;
  Fp8Modes modes;
} Fp8Info;

extern const Fp8Info ir_fp8_info[FP8__COUNT];

#define FP8_SAT_BIT 0x100  /* in Inst.ival: saturation_t.SATFINITE */
#define FP8_MODE_BIT 0x200 /* E5M2 (fp8 functions), cudaRoundPosInf (e8m0) */
#define FP8_FN(ival) ((int)((ival) & 0xff))

/* The function named name, or -1. */
int ir_fp8_find(const char *name);
/* Every function takes one operand: its enum arguments are folded into ival. */
#define FP8_ARITY 1

/* The enums: member value of numba.cuda._internal.cuda_fp8.<cls>.<member>
 * or cuda.bindings.runtime.cudaRoundMode.<member> (cls "cudaRoundMode");
 * -1 if there is none. */
int ir_fp8_enum_value(const char *cls, const char *member);
/* The enum class names, NULL-terminated (for messages). */
extern const char *const ir_fp8_enum_classes[];

#endif
