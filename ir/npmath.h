/* npmath.h - NumPy's math ufuncs on scalars inside kernels (X-macro).
 *
 * One IR op, OP_NPUFUNC, carries them all; Inst.ival names the ufunc.
 * U(NAME, "numpy name", NIN, "LOOPS", PRED): LOOPS lists the homogeneous
 * loops Numba can use, as NumPy type letters in NumPy's ufunc.types order
 * (? b B h H i I l L f d; float16 loops are skipped by Numba, complex and
 * object ones are not offered here).  Typing (typing/infer_npmath.c) picks the
 * first loop every operand casts to safely, as Numba's
 * ufunc_find_matching_loop does; PRED ufuncs return bool, the others the
 * loop type.  Codegen is codegen/cg_npmath.c, identical on both targets. */
#ifndef KJIT_IR_NPMATH_H
#define KJIT_IR_NPMATH_H

#define NP_FLOAT "fd"               /* float math: ints become floats */
#define NP_NUM "bBhHiIlLfd"         /* every int and float, no bool */
#define NP_ALL "?bBhHiIlLfd"        /* bool too */
#define NP_INT "bBhHiIlL"           /* integers only */
#define NP_BITS "?bBhHiIlL"         /* bool and integers */

#define NP_UFUNCS(U)                                                           \
  U(SIN, "sin", 1, NP_FLOAT, 0) U(COS, "cos", 1, NP_FLOAT, 0)                  \
  U(TAN, "tan", 1, NP_FLOAT, 0) U(ARCSIN, "arcsin", 1, NP_FLOAT, 0)            \
  U(ARCCOS, "arccos", 1, NP_FLOAT, 0) U(ARCTAN, "arctan", 1, NP_FLOAT, 0)      \
  U(SINH, "sinh", 1, NP_FLOAT, 0) U(COSH, "cosh", 1, NP_FLOAT, 0)              \
  U(TANH, "tanh", 1, NP_FLOAT, 0) U(ARCSINH, "arcsinh", 1, NP_FLOAT, 0)        \
  U(ARCCOSH, "arccosh", 1, NP_FLOAT, 0) U(ARCTANH, "arctanh", 1, NP_FLOAT, 0)  \
  U(EXP, "exp", 1, NP_FLOAT, 0) U(EXP2, "exp2", 1, NP_FLOAT, 0)                \
  U(EXPM1, "expm1", 1, NP_FLOAT, 0) U(LOG, "log", 1, NP_FLOAT, 0)              \
  U(LOG2, "log2", 1, NP_FLOAT, 0) U(LOG10, "log10", 1, NP_FLOAT, 0)            \
  U(LOG1P, "log1p", 1, NP_FLOAT, 0) U(SQRT, "sqrt", 1, NP_FLOAT, 0)            \
  U(CBRT, "cbrt", 1, NP_FLOAT, 0) U(FABS, "fabs", 1, NP_FLOAT, 0)              \
  U(RINT, "rint", 1, NP_FLOAT, 0)                                              \
  U(DEG2RAD, "deg2rad", 1, NP_FLOAT, 0) U(RADIANS, "radians", 1, NP_FLOAT, 0)  \
  U(RAD2DEG, "rad2deg", 1, NP_FLOAT, 0) U(DEGREES, "degrees", 1, NP_FLOAT, 0)  \
  U(ARCTAN2, "arctan2", 2, NP_FLOAT, 0) U(HYPOT, "hypot", 2, NP_FLOAT, 0)      \
  U(COPYSIGN, "copysign", 2, NP_FLOAT, 0)                                      \
  /* NumPy >= 2.1: floor/ceil/trunc keep integer and bool types */             \
  U(FLOOR, "floor", 1, NP_ALL, 0) U(CEIL, "ceil", 1, NP_ALL, 0)                \
  U(TRUNC, "trunc", 1, NP_ALL, 0)                                              \
  U(ABSOLUTE, "absolute", 1, NP_ALL, 0) U(ABS, "abs", 1, NP_ALL, 0)            \
  U(SIGN, "sign", 1, NP_NUM, 0) U(SQUARE, "square", 1, NP_NUM, 0)              \
  U(RECIPROCAL, "reciprocal", 1, NP_NUM, 0)                                    \
  U(POWER, "power", 2, NP_NUM, 0) U(FLOOR_DIVIDE, "floor_divide", 2, NP_NUM, 0) \
  U(REMAINDER, "remainder", 2, NP_NUM, 0) U(MOD, "mod", 2, NP_NUM, 0)          \
  U(FMOD, "fmod", 2, NP_NUM, 0)                                                \
  U(MAXIMUM, "maximum", 2, NP_ALL, 0) U(MINIMUM, "minimum", 2, NP_ALL, 0)      \
  U(FMAX, "fmax", 2, NP_ALL, 0) U(FMIN, "fmin", 2, NP_ALL, 0)                  \
  U(ISNAN, "isnan", 1, NP_ALL, 1) U(ISINF, "isinf", 1, NP_ALL, 1)              \
  U(ISFINITE, "isfinite", 1, NP_ALL, 1)                                        \
  U(SIGNBIT, "signbit", 1, NP_FLOAT, 1) U(NEXTAFTER, "nextafter", 2, NP_FLOAT, 0) \
  U(FLOAT_POWER, "float_power", 2, "d", 0)                                     \
  /* arithmetic, logic and comparison ufuncs, computed in the loop type */     \
  U(ADD, "add", 2, NP_ALL, 0) U(SUBTRACT, "subtract", 2, NP_NUM, 0)            \
  U(MULTIPLY, "multiply", 2, NP_ALL, 0) U(NEGATIVE, "negative", 1, NP_NUM, 0)  \
  U(POSITIVE, "positive", 1, NP_NUM, 0) U(CONJUGATE, "conjugate", 1, NP_NUM, 0) \
  U(LOGICAL_AND, "logical_and", 2, NP_ALL, 1) U(LOGICAL_OR, "logical_or", 2, NP_ALL, 1) \
  U(LOGICAL_XOR, "logical_xor", 2, NP_ALL, 1) U(LOGICAL_NOT, "logical_not", 1, NP_ALL, 1) \
  U(BITWISE_AND, "bitwise_and", 2, NP_BITS, 0) U(BITWISE_OR, "bitwise_or", 2, NP_BITS, 0) \
  U(BITWISE_XOR, "bitwise_xor", 2, NP_BITS, 0) U(INVERT, "invert", 1, NP_BITS, 0) \
  U(BITWISE_NOT, "bitwise_not", 1, NP_BITS, 0)                                 \
  U(LEFT_SHIFT, "left_shift", 2, NP_INT, 0) U(RIGHT_SHIFT, "right_shift", 2, NP_INT, 0) \
  U(GREATER, "greater", 2, NP_ALL, 1) U(GREATER_EQUAL, "greater_equal", 2, NP_ALL, 1) \
  U(LESS, "less", 2, NP_ALL, 1) U(LESS_EQUAL, "less_equal", 2, NP_ALL, 1)      \
  U(EQUAL, "equal", 2, NP_ALL, 1) U(NOT_EQUAL, "not_equal", 2, NP_ALL, 1)

typedef enum NpUfunc {
#define U(name, text, nin, loops, pred) NU_##name,
  NP_UFUNCS(U)
#undef U
  NU__COUNT
} NpUfunc;

typedef struct NpUfuncInfo {
  const char *name;   /* numpy.<name> */
  int nin;            /* operands */
  const char *loops;  /* candidate loop letters, NumPy's order */
  int pred;           /* 1: the result is bool */
} NpUfuncInfo;
extern const NpUfuncInfo ir_npufunc_info[NU__COUNT];

/* The ufunc named numpy.<name>, or -1. */
int ir_npufunc_find(const char *name);

#endif
