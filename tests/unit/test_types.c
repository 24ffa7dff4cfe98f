/* test_types.c - table-driven tests of Numba's typing rules (ir/type.c) and
 * of signature parsing (ir/sig.c).
 *
 * Each table row is one rule of docs/language.md "Typing rules"; the row's
 * label (T-xxx) is what the doc cites.  Signature rows give the text and
 * either the expected type names or the exact rendered diagnostic.  The
 * program carries its own driver: it prints each failure and exits 1. */
#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/diag.h"
#include "ir/ir.h"
#include "lower/lower.h"
#include "ir/ops.h"
#include "ir/type.h"

static int nfail, npass;

static const char *nm(const Type *t, char *buf) {
  return t ? ty_name(t, buf, 128) : "NULL";
}

static void check_type(const char *label, const char *what, const Type *got,
                       const Type *want) {
  char b1[128], b2[128];
  if (got == want) {
    npass++;
    return;
  }
  nfail++;
  printf("FAIL %s: %s: got %s, want %s\n", label, what, nm(got, b1), nm(want, b2));
}

/* ---------------------------------------------------------------- binops -- */

#define B TY_BOOL_T
#define I8 TY_I8_T
#define I16 TY_I16_T
#define I32 TY_I32_T
#define I64 TY_I64_T
#define U8 TY_U8_T
#define U16 TY_U16_T
#define U32 TY_U32_T
#define U64 TY_U64_T
#define F16 TY_F16_T
#define F32 TY_F32_T
#define F64 TY_F64_T
#define C64 TY_C64_T
#define C128 TY_C128_T
#define NO NULL

typedef struct BinCase {
  const char *label;
  int op;
  const Type *a, *b;
  const Type *result, *operand; /* result NULL: no typing */
} BinCase;

static const BinCase bin_cases[] = {
    /* T-INT-WIDEN: integer arithmetic widens to 64 bits, signed if either is */
    {"T-INT-WIDEN", OP_ADD, I32, I32, I64, I64},
    {"T-INT-WIDEN", OP_ADD, U32, U32, U64, U64},
    {"T-INT-WIDEN", OP_ADD, U64, I64, I64, I64},
    {"T-INT-WIDEN", OP_MUL, I8, U8, I64, I64},
    {"T-INT-WIDEN", OP_SUB, I16, I64, I64, I64},
    {"T-INT-WIDEN", OP_SUB, U8, U16, U64, U64},
    {"T-INT-WIDEN", OP_LSHIFT, I32, I32, I64, I64},
    {"T-INT-WIDEN", OP_RSHIFT, U32, I32, U64, U64}, /* shifts: left's signedness */
    {"T-INT-WIDEN", OP_LSHIFT, I8, U64, I64, I64},
    {"T-INT-WIDEN", OP_LSHIFT, B, U8, I64, I64},
    {"T-INT-WIDEN", OP_BITAND, U32, U32, U64, U64},
    {"T-INT-WIDEN", OP_BITOR, I8, I8, I64, I64},
    {"T-INT-WIDEN", OP_BITXOR, U64, U8, U64, U64},
    {"T-INT-WIDEN", OP_ADD, I32, I64, I64, I64}, /* threadIdx.x + 1 */
    /* T-BOOL-ARITH: bool with bool in + - * is int64, in & | ^ stays bool */
    {"T-BOOL-ARITH", OP_ADD, B, B, I64, I64},
    {"T-BOOL-ARITH", OP_SUB, B, B, I64, I64},
    {"T-BOOL-ARITH", OP_MUL, B, B, I64, I64},
    {"T-BOOL-ARITH", OP_BITAND, B, B, B, B},
    {"T-BOOL-ARITH", OP_BITOR, B, B, B, B},
    {"T-BOOL-ARITH", OP_BITXOR, B, B, B, B},
    {"T-BOOL-ARITH", OP_LSHIFT, B, B, I64, I64},
    {"T-BOOL-ARITH", OP_ADD, B, I32, I64, I64},
    {"T-BOOL-ARITH", OP_ADD, B, U32, I64, I64}, /* measured: bool counts as signed */
    {"T-BOOL-ARITH", OP_MUL, U64, B, I64, I64},
    {"T-BOOL-ARITH", OP_BITAND, B, I8, I64, I64},
    /* T-FLOAT-INT: float with int by safe casts */
    {"T-FLOAT-INT", OP_MUL, F32, I16, F32, F32},
    {"T-FLOAT-INT", OP_MUL, F32, I8, F32, F32},
    {"T-FLOAT-INT", OP_MUL, F32, U8, F32, F32},
    {"T-FLOAT-INT", OP_MUL, F32, U16, F64, F64}, /* uint16 -> float32 is unsafe */
    {"T-FLOAT-INT", OP_ADD, F32, B, F32, F32},
    {"T-FLOAT-INT", OP_MUL, F32, I32, F64, F64},
    {"T-FLOAT-INT", OP_MUL, F32, I64, F64, F64}, /* float32*2 */
    {"T-FLOAT-INT", OP_MUL, F32, U32, F64, F64},
    {"T-FLOAT-INT", OP_MUL, U64, F32, F64, F64},
    {"T-FLOAT-INT", OP_ADD, F64, I8, F64, F64},
    {"T-FLOAT-INT", OP_SUB, I64, F64, F64, F64},
    {"T-FLOAT-INT", OP_ADD, F16, I8, F16, F16},
    {"T-FLOAT-INT", OP_ADD, F16, B, F16, F16},
    {"T-FLOAT-INT", OP_ADD, F16, U8, F32, F32},
    {"T-FLOAT-INT", OP_ADD, F16, U16, F64, F64},
    {"T-FLOAT-INT", OP_ADD, F16, I16, F32, F32},
    {"T-FLOAT-INT", OP_ADD, F16, I32, F64, F64},
    /* T-FLOAT-FLOAT: two floats give the wider */
    {"T-FLOAT-FLOAT", OP_MUL, F32, F64, F64, F64}, /* float32*2.0 */
    {"T-FLOAT-FLOAT", OP_MUL, F32, F32, F32, F32}, /* float32*np.float32(2) */
    {"T-FLOAT-FLOAT", OP_ADD, F16, F16, F16, F16},
    {"T-FLOAT-FLOAT", OP_ADD, F16, F32, F32, F32},
    /* T-TRUEDIV: / on two ints is float64, float32/float32 float32 */
    {"T-TRUEDIV", OP_TRUEDIV, I32, I32, F64, F64},
    {"T-TRUEDIV", OP_TRUEDIV, U8, I64, F64, F64},
    {"T-TRUEDIV", OP_TRUEDIV, B, B, F64, F64},
    {"T-TRUEDIV", OP_TRUEDIV, F32, F32, F32, F32},
    {"T-TRUEDIV", OP_TRUEDIV, F32, I32, F64, F64},
    {"T-TRUEDIV", OP_TRUEDIV, F32, I16, F32, F32},
    /* T-FLOORDIV-MOD: // and % widen ints, keep floats */
    {"T-FLOORDIV-MOD", OP_FLOORDIV, I32, I32, I64, I64},
    {"T-FLOORDIV-MOD", OP_FLOORDIV, U32, U16, U64, U64},
    {"T-FLOORDIV-MOD", OP_MOD, I32, U64, I64, I64},
    {"T-FLOORDIV-MOD", OP_FLOORDIV, F32, F32, F32, F32},
    {"T-FLOORDIV-MOD", OP_MOD, F64, I32, F64, F64},
    {"T-FLOORDIV-MOD", OP_MOD, C64, C64, NO, NO},
    /* T-POW: int**int int64 (uint64 if both unsigned), float**int keeps the
     * float (exponent int64), float**float unifies */
    {"T-POW", OP_POW, I32, I32, I64, I64},
    {"T-POW", OP_POW, U32, U8, U64, U64},
    {"T-POW", OP_POW, U32, I8, I64, I64},
    {"T-POW", OP_POW, F32, I64, F32, F32}, /* float32**2 */
    {"T-POW", OP_POW, F32, I32, F32, F32},
    {"T-POW", OP_POW, F16, I64, F32, F32}, /* no float16 pow: float32 */
    {"T-POW", OP_POW, B, I32, F32, F32},   /* measured Numba quirk */
    {"T-POW", OP_POW, B, I16, I64, I64},
    {"T-FLOORDIV-MOD", OP_FLOORDIV, F16, F16, F32, F32},
    {"T-FLOORDIV-MOD", OP_MOD, F16, I8, F32, F32},
    {"T-POW", OP_POW, F64, U8, F64, F64},
    {"T-POW", OP_POW, F32, F64, F64, F64},
    {"T-POW", OP_POW, F32, F32, F32, F32},
    {"T-POW", OP_POW, I32, F32, F64, F64},
    /* T-CMP: comparisons give bool, operands unified */
    {"T-CMP", OP_LT, I32, I32, B, I32},
    {"T-CMP", OP_LT, I32, I64, B, I64},
    {"T-CMP", OP_EQ, I32, U32, B, I64},
    {"T-CMP", OP_GE, U64, I64, B, I64},
    {"T-CMP", OP_LE, F32, I32, B, F64},
    {"T-CMP", OP_GT, F32, I16, B, F32},
    {"T-CMP", OP_GT, F32, U16, B, F64},
    {"T-CMP", OP_NE, B, B, B, B},
    {"T-CMP", OP_EQ, B, I8, B, I8},
    {"T-CMP", OP_EQ, C64, F32, B, C64},
    {"T-CMP", OP_LT, C64, F32, NO, NO},
    /* T-COMPLEX: complex arithmetic */
    {"T-COMPLEX", OP_ADD, C64, F32, C64, C64},
    {"T-COMPLEX", OP_ADD, C64, F64, C128, C128},
    {"T-COMPLEX", OP_MUL, C64, I32, C128, C128},
    {"T-COMPLEX", OP_MUL, C64, I16, C64, C64},
    {"T-COMPLEX", OP_TRUEDIV, C128, C64, C128, C128},
    /* T-NO-TYPING: bitwise on floats */
    {"T-NO-TYPING", OP_BITAND, F32, I32, NO, NO},
    {"T-NO-TYPING", OP_LSHIFT, I32, F64, NO, NO},
    {"T-NO-TYPING", OP_BITXOR, B, F32, NO, NO},
    {"T-NO-TYPING", OP_ADD, TY_NONE_T, I32, NO, NO},
    {"T-NO-TYPING", OP_ADD, TY_STR_T, I32, NO, NO},
    {"T-NO-TYPING", OP_ADD, NULL, I32, NO, NO},
};

static void test_binops(void) {
  char what[256], b1[128], b2[128];
  for (size_t i = 0; i < sizeof bin_cases / sizeof bin_cases[0]; i++) {
    const BinCase *c = &bin_cases[i];
    const Type *operand = TY_UNKNOWN_T;
    const Type *r = ty_binop(c->op, c->a, c->b, &operand);
    snprintf(what, sizeof what, "%s %s %s", nm(c->a, b1), ir_op_info[c->op].name,
             nm(c->b, b2));
    check_type(c->label, what, r, c->result);
    if (c->result) {
      snprintf(what, sizeof what, "operand of %s %s %s", nm(c->a, b1),
               ir_op_info[c->op].name, nm(c->b, b2));
      check_type(c->label, what, operand, c->operand);
    }
  }
}

/* ---------------------------------------------------------------- unops -- */

typedef struct UnCase {
  const char *label;
  int op;
  const Type *a, *result;
} UnCase;

static const UnCase un_cases[] = {
    {"T-UNARY", OP_NEG, I32, I64},   {"T-UNARY", OP_NEG, I8, I64},
    {"T-UNARY", OP_NEG, I64, I64},   {"T-UNARY", OP_NEG, U32, U64},
    {"T-UNARY", OP_NEG, U64, U64},   {"T-UNARY", OP_POS, U8, U64},
    {"T-UNARY", OP_POS, I16, I64},   {"T-UNARY", OP_NEG, B, I64},
    {"T-UNARY", OP_NEG, F32, F32},   {"T-UNARY", OP_NEG, F16, F16},
    {"T-UNARY", OP_POS, F64, F64},   {"T-UNARY", OP_NEG, C64, C64},
    {"T-INVERT", OP_INVERT, I32, I64}, {"T-INVERT", OP_INVERT, U8, U64},
    {"T-INVERT", OP_INVERT, B, B},   {"T-INVERT", OP_INVERT, F32, NO},
    {"T-NOT", OP_NOT, I32, B},       {"T-NOT", OP_NOT, F64, B},
    {"T-NOT", OP_NOT, B, B},         {"T-NOT", OP_NOT, TY_NONE_T, NO},
};

static void test_unops(void) {
  char what[256], b1[128];
  for (size_t i = 0; i < sizeof un_cases / sizeof un_cases[0]; i++) {
    const UnCase *c = &un_cases[i];
    snprintf(what, sizeof what, "%s %s", ir_op_info[c->op].name, nm(c->a, b1));
    check_type(c->label, what, ty_unop(c->op, c->a), c->result);
  }
}

/* ---------------------------------------------------------------- unify -- */

typedef struct UnifyCase {
  const char *label;
  const Type *a, *b, *result;
} UnifyCase;

static const UnifyCase unify_cases[] = {
    {"T-UNIFY-INT", I32, I32, I32},   {"T-UNIFY-INT", I32, I64, I64},
    {"T-UNIFY-INT", I16, I32, I32},   {"T-UNIFY-INT", U8, U32, U32},
    {"T-UNIFY-INT", I8, U8, I16},     {"T-UNIFY-INT", I32, U32, I64},
    {"T-UNIFY-INT", I64, U32, I64},   {"T-UNIFY-INT", U16, I32, I32},
    {"T-UNIFY-INT", U64, I64, F64},   {"T-UNIFY-INT", U64, I8, F64}, /* NumPy */
    {"T-UNIFY-FLOAT", I64, F64, F64}, /* int then float -> float64 */
    {"T-UNIFY-FLOAT", I32, F32, F64}, {"T-UNIFY-FLOAT", I16, F32, F32},
    {"T-UNIFY-FLOAT", I8, F16, F16},  {"T-UNIFY-FLOAT", F32, F64, F64},
    {"T-UNIFY-FLOAT", U8, F16, F16},  {"T-UNIFY-FLOAT", U16, F32, F32}, /* NumPy table */
    {"T-UNIFY-FLOAT", I64, F32, F64}, {"T-UNIFY-FLOAT", B, F32, F32},
    {"T-UNIFY-BOOL", B, I32, I32},    {"T-UNIFY-BOOL", U8, B, U8},
    {"T-UNIFY-COMPLEX", C64, F64, C128}, {"T-UNIFY-COMPLEX", F32, C64, C64},
    {"T-UNIFY-NONE", TY_NONE_T, I64, NO}, {"T-UNIFY-NONE", TY_NONE_T, TY_NONE_T, TY_NONE_T},
    {"T-UNIFY-NONE", TY_STR_T, I64, NO}, {"T-UNIFY-NONE", TY_UNKNOWN_T, I64, NO},
};

static void test_unify(TypeTable *tt) {
  char what[256], b1[128], b2[128];
  for (size_t i = 0; i < sizeof unify_cases / sizeof unify_cases[0]; i++) {
    const UnifyCase *c = &unify_cases[i];
    snprintf(what, sizeof what, "unify(%s, %s)", nm(c->a, b1), nm(c->b, b2));
    check_type(c->label, what, ty_unify(tt, c->a, c->b), c->result);
    snprintf(what, sizeof what, "unify(%s, %s)", nm(c->b, b1), nm(c->a, b2));
    check_type(c->label, what, ty_unify(tt, c->b, c->a), c->result);
  }
  /* T-UNIFY-ARRAY: C with A is A; dtype and ndim must agree */
  const Type *c1 = ty_array(tt, F32, 1, LAYOUT_C), *a1 = ty_array(tt, F32, 1, LAYOUT_A);
  check_type("T-UNIFY-ARRAY", "C with A", ty_unify(tt, c1, a1), a1);
  check_type("T-UNIFY-ARRAY", "C with C", ty_unify(tt, c1, c1), c1);
  check_type("T-UNIFY-ARRAY", "f32 with f64", ty_unify(tt, c1, ty_array(tt, F64, 1, LAYOUT_C)), NULL);
  check_type("T-UNIFY-ARRAY", "1d with 2d", ty_unify(tt, c1, ty_array(tt, F32, 2, LAYOUT_C)), NULL);
  check_type("T-UNIFY-ARRAY", "array with int", ty_unify(tt, c1, I64), NULL);
  /* T-UNIFY-TUPLE: element-wise */
  const Type *t32 = ty_unituple(tt, I32, 2), *t64 = ty_unituple(tt, I64, 2);
  check_type("T-UNIFY-TUPLE", "UniTuple i32 with i64", ty_unify(tt, t32, t64), t64);
  check_type("T-UNIFY-TUPLE", "length mismatch", ty_unify(tt, t32, ty_unituple(tt, I32, 3)), NULL);
  const Type *mix[2] = {I32, F32};
  const Type *mixt = ty_tuple(tt, mix, 2);
  const Type *want[2] = {I64, F64};
  check_type("T-UNIFY-TUPLE", "Tuple with UniTuple", ty_unify(tt, mixt, t64), ty_tuple(tt, want, 2));
  check_type("T-UNIFY-TUPLE", "tuple with int", ty_unify(tt, mixt, I32), NULL);
}

/* ---------------------------------------------------------------- names -- */

static void check_str(const char *label, const char *got, const char *want) {
  if (strcmp(got, want) == 0) {
    npass++;
    return;
  }
  nfail++;
  printf("FAIL %s:\n--- got ---\n%s\n--- want ---\n%s\n", label, got, want);
}

static void test_names(TypeTable *tt) {
  char buf[128];
  check_str("T-NAME", ty_name(F32, buf, sizeof buf), "float32");
  check_str("T-NAME", ty_name(I64, buf, sizeof buf), "int64");
  check_str("T-NAME", ty_name(B, buf, sizeof buf), "bool");
  check_str("T-NAME", ty_name(TY_NONE_T, buf, sizeof buf), "none");
  check_str("T-NAME", ty_name(TY_VOID_T, buf, sizeof buf), "void");
  check_str("T-NAME", ty_name(ty_array(tt, F32, 1, LAYOUT_C), buf, sizeof buf),
            "array(float32, 1d, C)");
  check_str("T-NAME", ty_name(ty_array(tt, I32, 2, LAYOUT_A), buf, sizeof buf),
            "array(int32, 2d, A)");
  check_str("T-NAME", ty_name(ty_unituple(tt, I64, 2), buf, sizeof buf), "UniTuple(int64 x 2)");
  const Type *mix[2] = {I64, F32};
  check_str("T-NAME", ty_name(ty_tuple(tt, mix, 2), buf, sizeof buf), "Tuple(int64, float32)");
  check_str("T-NAME", ty_name(ty_tuple(tt, NULL, 0), buf, sizeof buf), "Tuple()");
  char small[8];
  check_str("T-NAME truncation", ty_name(ty_array(tt, F32, 1, LAYOUT_C), small, sizeof small),
            "array(f");
  /* interning: equal types are the same pointer */
  check_type("T-INTERN", "array", ty_array(tt, F32, 3, LAYOUT_A), ty_array(tt, F32, 3, LAYOUT_A));
  check_type("T-INTERN", "bad ndim", ty_array(tt, F32, TY_MAX_NDIM + 1, LAYOUT_A), NULL);
}

/* bfloat16 is no number to the generic rules (ir/infer_bf16.c types it):
 * its own name, 16 bits, unifies only with itself, arrays of it exist. */
static void test_bf16(TypeTable *tt) {
  char buf[128];
  const Type *bf = TY_BF16_T;
  check_str("T-BF16", ty_name(bf, buf, sizeof buf), "bfloat16");
  check_str("T-BF16", ty_name(ty_array(tt, bf, 2, LAYOUT_C), buf, sizeof buf),
            "array(bfloat16, 2d, C)");
  check_type("T-BF16", "not a float", ty_is_float(bf) || ty_is_number(bf) ? bf : NULL, NULL);
  check_type("T-BF16", "16 bits", ty_bits(bf) == 16 && ty_size(bf) == 2 ? bf : NULL, bf);
  check_type("T-BF16", "unify self", ty_unify(tt, bf, bf), bf);
  check_type("T-BF16", "unify float32", ty_unify(tt, bf, F32), NULL);
  check_type("T-BF16", "no binop rule", ty_binop(OP_ADD, bf, bf, NULL), NULL);
}

typedef struct NameCase {
  const char *name;
  const Type *type;
} NameCase;

static const NameCase name_cases[] = {
    {"int8", I8},     {"uint64", U64},   {"float16", F16}, {"complex128", C128},
    {"bool", B},      {"boolean", B},    {"bool_", B},     {"b1", B},
    {"i1", I8},       {"i2", I16},       {"i4", I32},      {"i8", I64},
    {"u1", U8},       {"u2", U16},       {"u4", U32},      {"u8", U64},
    {"f2", F16},      {"f4", F32},       {"f8", F64},      {"c8", C64},
    {"c16", C128},    {"intp", I64},     {"uintp", U64},   {"intc", I32},
    {"uintc", U32},   {"float_", F64},   {"double", F64},  {"single", F32},
    {"half", F16},    {"byte", I8},      {"ubyte", U8},    {"short", I16},
    {"ushort", U16},  {"int_", I64},     {"uint", U64},    {"longlong", I64},
    {"ulonglong", U64}, {"void", TY_VOID_T}, {"none", TY_NONE_T},
    {"flaot32", NO},  {"", NO},          {"float", NO},
};

static void test_from_name(void) {
  for (size_t i = 0; i < sizeof name_cases / sizeof name_cases[0]; i++)
    check_type("T-DTYPE-NAMES", name_cases[i].name, ty_from_name(name_cases[i].name),
               name_cases[i].type);
}

/* ------------------------------------------------------------ signatures -- */

typedef struct SigCase {
  const char *text;
  const char *want; /* "ret(params, ...)" by type name, or the rendered error */
} SigCase;

static const SigCase sig_cases[] = {
    {"void(float32[::1], int64)", "void(array(float32, 1d, C), int64)"},
    {"void(float32[:], int32)", "void(array(float32, 1d, A), int32)"},
    {"void(float32[:, :], float64[:, ::1])",
     "void(array(float32, 2d, A), array(float64, 2d, C))"},
    {"void(float32[::1, :])", "void(array(float32, 2d, A))"},
    {"void(int32[:, :, :, ::1])", "void(array(int32, 4d, C))"},
    {"float32(float32, float32)", "float32(float32, float32)"},
    {"void()", "void()"},
    {"(float32[:], int64)", "?(array(float32, 1d, A), int64)"},
    {"void(numba.float32[:], types.int64, numba.types.uint8, nb.f4, np.float32)",
     "void(array(float32, 1d, A), int64, uint8, float32, float32)"},
    {"void(boolean[:], u1, intp)", "void(array(bool, 1d, A), uint8, int64)"},
    {"void(flaot32[:])",
     "<signature>:1:6: error[E401]: unknown type 'flaot32'\n"
     "void(flaot32[:])\n"
     "     ^~~~~~~\n"
     "hint: did you mean 'float32'?\n"},
    {"void(float32[:, :, :, :, :, :, :, :, :])",
     "<signature>:1:6: error[E403]: arrays have at most 8 dimensions, got 9\n"
     "void(float32[:, :, :, :, :, :, :, :, :])\n"
     "     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"},
    {"void(float32[1:])",
     "<signature>:1:14: error[E405]: malformed array type: expected ':' or '::1'\n"
     "void(float32[1:])\n"
     "             ^~\n"
     "hint: write float32[:] (any layout) or float32[::1] (C-contiguous)\n"},
    {"void(float32[::2])",
     "<signature>:1:14: error[E405]: malformed array type: expected ':' or '::1'\n"
     "void(float32[::2])\n"
     "             ^~~\n"
     "hint: write float32[:] (any layout) or float32[::1] (C-contiguous)\n"},
    {"void(float32[:, ::1, :])",
     "<signature>:1:17: error[E405]: malformed array type: only the last dimension can be '::1'\n"
     "void(float32[:, ::1, :])\n"
     "                ^~~\n"},
    {"", "<signature>:1:1: error[E404]: empty signature\n\n^\n"
         "hint: write it as 'void(float32[:], int64)'\n"},
    {"   ", "<signature>:1:1: error[E404]: empty signature\n   \n^\n"
            "hint: write it as 'void(float32[:], int64)'\n"},
    {"void(void)",
     "<signature>:1:6: error[E402]: 'void' is not a parameter type\n"
     "void(void)\n"
     "     ^~~~\n"},
    {"void(float32[::1, ::1])",
     "<signature>:1:14: error[E405]: malformed array type: only the last dimension can be '::1'\n"
     "void(float32[::1, ::1])\n"
     "             ^~~\n"},
    {"float32", "<signature>:1:1: error[E402]: expected a signature, got a name\n"
                "float32\n"
                "^~~~~~~\n"
                "hint: write it as 'void(float32[:], int64)'\n"},
    {"void(int32) x",
     "<signature>:1:13: error[E120]: invalid syntax\n"
     "void(int32) x\n"
     "            ^\n"},
    {"void(3)",
     "<signature>:1:6: error[E402]: expected a type, got an integer literal\n"
     "void(3)\n"
     "     ^\n"},
};

static void format_sig(const Signature *s, char *out, size_t size) {
  char b[128];
  size_t n = (size_t)snprintf(out, size, "%s(", s->ret ? ty_name(s->ret, b, sizeof b) : "?");
  for (int i = 0; i < s->nparams && n < size; i++)
    n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "",
                          ty_name(s->params[i], b, sizeof b));
  if (n < size)
    snprintf(out + n, size - n, ")");
}

static void test_signatures(void) {
  for (size_t i = 0; i < sizeof sig_cases / sizeof sig_cases[0]; i++) {
    Arena arena;
    arena_init(&arena);
    Diags d;
    diags_init(&d, &arena);
    IrProgram p = {0};
    p.arena = &arena;
    p.types = ty_table_new(&arena);
    Source src = {"<signature>", sig_cases[i].text, strlen(sig_cases[i].text)};
    Signature sig = {0};
    bool ok = ir_parse_signature(&p, &src, &sig, &d);
    char got[1024];
    if (ok && d.nerrors == 0) {
      format_sig(&sig, got, sizeof got);
      check_str(sig_cases[i].text, got, sig_cases[i].want);
    } else {
      StrBuf sb;
      sb_init(&sb);
      diags_render(&d, &sb);
      check_str(sig_cases[i].text, sb.data ? sb.data : "", sig_cases[i].want);
      if (ok) {
        nfail++;
        printf("FAIL %s: returned true with errors\n", sig_cases[i].text);
      }
      sb_free(&sb);
    }
    arena_destroy(&arena);
  }
}

int main(void) {
  Arena arena;
  arena_init(&arena);
  TypeTable *tt = ty_table_new(&arena);
  test_binops();
  test_unops();
  test_unify(tt);
  test_names(tt);
  test_bf16(tt);
  test_from_name();
  test_signatures();
  arena_destroy(&arena);
  printf("test_types: %d passed, %d failed\n", npass, nfail);
  return nfail ? 1 : 0;
}
