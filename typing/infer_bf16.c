/* infer_bf16.c - typing of bfloat16: OP_BF16 (numba.cuda.bf16's functions),
 * and every other op that meets a bfloat16 operand (operators, math.*,
 * conversions), which ir_infer_inst hands here first.
 *
 * The rules are numba-cuda's (types/ext_types.py Bfloat16 and the
 * cuda_bf16 bindings): bfloat16 is a Number but no Float, so the generic
 * rules of ir/type.c never see it.  Functions take bfloat16 and convert an
 * int or float argument to it (Numba allows these unsafe conversions in a
 * call); operators between two bfloat16 values (a + b, a < b, -a, +a) are
 * rewritten into the OP_BF16 of the same CUDA function (operator+ is
 * __hadd, != is the unordered __hneu); with another number they are
 * refused, as numba-cuda cannot lower them; math.sqrt & co. of a
 * bfloat16 are numba-cuda's overloads (hsqrt...).  A bfloat16 converts to
 * and from every int and float type except float16 and bool. */
#include "ir/bf16.h"
#include "typing/typing_internal.h"

#define TN(t) ir_infer_tname(inf, (t))

static const char *const mixed_hint =
    "convert explicitly: bfloat16(x) for bfloat16 arithmetic, or float32(b) to compute in float32";

static const Type *operand_error(Infer *inf, int idx, const Inst *in);

static const Type *arg_type(const Infer *inf, const Inst *in, int k) {
  const Type *t = inf->f->insts.data[in->args[k]].type;
  return t && t->kind != TY_UNKNOWN ? t : NULL;
}

static bool is_bf16(const Type *t) { return t == TY_BF16_T; }

static bool any_bf16(const Infer *inf, const Inst *in) {
  for (int k = 0; k < in->nargs; k++)
    if (is_bf16(arg_type(inf, in, k)))
      return true;
  return false;
}

/* Numba's Bfloat16.can_convert_from/to, less what has no lowering: ints
 * and float32/float64 (float16 converts in, not out); never bool. */
static bool converts(const Type *from, const Type *to) {
  if (from == to)
    return true;
  if (is_bf16(to))
    return ty_is_int(from) || ty_is_float(from);
  return is_bf16(from) && (ty_is_int(to) || to == TY_F32_T || to == TY_F64_T);
}

bool ir_bf16_storable(const Type *elem) { return converts(TY_BF16_T, elem); }

bool ir_infer_bf16_claims(const Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  int flags = ir_op_info[in->op].flags;
  if (in->op == OP_BF16)
    return true;
  if (in->op == OP_CAST)
    return is_bf16(in->tyimm) || any_bf16(inf, in);
  return (flags & (OPF_BINARY | OPF_CMP | OPF_UNARY) || in->op == OP_INTRINSIC) && any_bf16(inf, in);
}

static void rewrite(Inst *in, Bf16Fn fn) {
  in->op = OP_BF16;
  in->ival = fn;
}

static const Type *operand_error(Infer *inf, int idx, const Inst *in) {
  const Type *a = arg_type(inf, in, 0), *b = in->nargs > 1 ? arg_type(inf, in, 1) : NULL;
  const char *hint = b && (!is_bf16(a) || !is_bf16(b)) ? mixed_hint : NULL;
  static const char *const sym[OP__COUNT] = {
      [OP_ADD] = "+",   [OP_SUB] = "-",   [OP_MUL] = "*",     [OP_TRUEDIV] = "/", [OP_FLOORDIV] = "//",
      [OP_MOD] = "%",   [OP_POW] = "**",  [OP_LSHIFT] = "<<", [OP_RSHIFT] = ">>", [OP_BITAND] = "&",
      [OP_BITOR] = "|", [OP_BITXOR] = "^", [OP_NEG] = "-",    [OP_INVERT] = "~",  [OP_NOT] = "not",
      [OP_EQ] = "==",   [OP_NE] = "!=",   [OP_LT] = "<",      [OP_LE] = "<=",     [OP_GT] = ">",
      [OP_GE] = ">="};
  const char *op = sym[in->op] ? sym[in->op] : ir_op_info[in->op].name;
  if (!b)
    return ir_infer_fail(inf, idx, E_TY_OPERANDS, NULL, "unsupported operand type for %s: '%s'",
                         op, TN(a));
  return ir_infer_fail(inf, idx, E_TY_OPERANDS, hint, "unsupported operand types for %s: '%s' and '%s'",
                       op, TN(a), TN(b));
}

/* a + b, a < b, -a, +a on bfloat16: the CUDA operator's function. */
static int operator_fn(const Inst *in) {
  switch (in->op) {
  case OP_ADD: return BF_HADD;
  case OP_SUB: return BF_HSUB;
  case OP_MUL: return BF_HMUL;
  case OP_TRUEDIV: return BF_HDIV;
  case OP_EQ: return BF_HEQ;
  case OP_NE: return BF_HNEU;
  case OP_LT: return BF_HLT;
  case OP_LE: return BF_HLE;
  case OP_GT: return BF_HGT;
  case OP_GE: return BF_HGE;
  case OP_NEG: return BF_HNEG;
  default: return -1;
  }
}

static const Type *type_fn(Infer *inf, int idx, const Type **need);

static const Type *type_operator(Infer *inf, int idx, const Type **need) {
  Inst *in = &inf->f->insts.data[idx];
  for (int k = 0; k < in->nargs; k++)
    if (!arg_type(inf, in, k))
      return NULL;
  if (in->op == OP_POS) { /* +a is a itself: a conversion to its own type */
    in->op = OP_CAST;
    in->tyimm = TY_BF16_T;
    in->ival = 0;
    return TY_BF16_T;
  }
  int fn = operator_fn(in);
  /* bfloat16 with another number: numba-cuda 0.68 types some of these but
   * cannot lower them (NotImplementedError), so they are refused here with
   * the explicit conversion to write instead. */
  if (fn >= 0 && in->nargs == 2 && !(is_bf16(arg_type(inf, in, 0)) && is_bf16(arg_type(inf, in, 1))))
    return operand_error(inf, idx, in);
  if (fn < 0)
    return operand_error(inf, idx, in);
  rewrite(in, (Bf16Fn)fn);
  return type_fn(inf, idx, need);
}

/* math.<f>(b): numba-cuda overloads eleven of them for bfloat16. */
static const Type *type_math(Infer *inf, int idx, const Type **need) {
  Inst *in = &inf->f->insts.data[idx];
  const char *name = ir_intrinsic_info[in->ival].name;
  int fn = in->nargs == 1 ? ir_bf16_math(name) : -1;
  if (fn < 0)
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC,
                         "numba.cuda.bf16 overloads math.trunc ceil floor sqrt log log10 cos sin tanh "
                         "exp exp2 for bfloat16; convert with float32(b) for the others",
                         "%s() does not support bfloat16", name);
  rewrite(in, (Bf16Fn)fn);
  return type_fn(inf, idx, need);
}

static const Type *type_cast(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *a = arg_type(inf, in, 0);
  if (!a)
    return NULL;
  if (!converts(a, in->tyimm))
    return ir_infer_fail(inf, idx, E_TY_CONVERT,
                         is_bf16(in->tyimm) ? "bfloat16(x) takes an int or a float"
                                            : "bfloat16 converts to the int types, float32 and float64",
                         "cannot convert %s to %s", TN(a), TN(in->tyimm));
  return in->tyimm;
}

/* The declared type of argument k and the result of fn. */
static const Type *fn_types(int fn, const Type **arg) {
  const Bf16Info *bi = &ir_bf16_info[fn];
  static const Type *const kinds[] = {[TY_BOOL] = TY_BOOL_T, [TY_I8] = TY_I8_T, [TY_I16] = TY_I16_T,
                                      [TY_I32] = TY_I32_T, [TY_I64] = TY_I64_T, [TY_U8] = TY_U8_T,
                                      [TY_U16] = TY_U16_T, [TY_U32] = TY_U32_T, [TY_U64] = TY_U64_T,
                                      [TY_F32] = TY_F32_T, [TY_F64] = TY_F64_T};
  const Type *other = kinds[bi->other];
  *arg = bi->kind == BK_FROM ? other : TY_BF16_T;
  switch (bi->kind) {
  case BK_CMP: return TY_BOOL_T;
  case BK_TEST: case BK_TO: return other;
  default: return TY_BF16_T;
  }
}

static const Type *type_fn(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  int fn = (int)in->ival;
  if (fn < 0 || fn >= BF__COUNT || in->nargs != ir_bf16_arity(fn))
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: malformed bf16 op");
  const Type *want, *ret = fn_types(fn, &want);
  for (int k = 0; k < in->nargs; k++) {
    const Type *t = arg_type(inf, in, k);
    if (!t)
      return NULL;
    /* other numbers convert to a declared int or float as Numba converts
     * arguments (unsafely); a bfloat16 to an int by value */
    bool ok = converts(t, want) ||
              (!is_bf16(want) && (ty_is_int(t) || ty_is_float(t) || t == TY_BOOL_T));
    if (!ok)
      return ir_infer_fail(inf, idx, E_TY_INTRINSIC,
                           is_bf16(want) ? "pass a bfloat16, an int or a float" : NULL,
                           "%s() does not support %s (it takes %s)", ir_bf16_info[fn].name, TN(t),
                           TN(want));
    if (need)
      need[k] = want;
  }
  return ret;
}

const Type *ir_infer_bf16(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  switch (in->op) {
  case OP_BF16: return type_fn(inf, idx, need);
  case OP_CAST: return type_cast(inf, idx);
  case OP_INTRINSIC: return type_math(inf, idx, need);
  default: return type_operator(inf, idx, need);
  }
}
