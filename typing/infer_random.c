/* infer_random.c - typing of numba.cuda.random's kernel functions
 * (OP_RANDOM): xoroshiro128p_next/uniform/normal/jump(states, index).
 *
 * kjit's state array is a uint64 2-d array of shape (n, 2), row i holding
 * generator i's (s0, s1): byte for byte what Numba's record array of
 * xoroshiro128p_dtype holds.  Any layout is accepted (a strided view of a
 * larger array works as well).  The index is any integer, converted to
 * int64 as Numba does with int64(index); floats are rejected (Numba would
 * truncate them silently: a deliberate divergence). */
#include <stdio.h>

#include "typing/typing_internal.h"

#define STATES_HINT                                                                  \
  "create the states on the host with create_xoroshiro128p_states (kjit run: "      \
  "states=xoroshiro:N:SEED)"

static const Type *random_result(int kind) {
  switch (kind) {
  case RK_NEXT: return TY_U64_T;
  case RK_UNIFORM32: case RK_NORMAL32: return TY_F32_T;
  case RK_UNIFORM64: case RK_NORMAL64: return TY_F64_T;
  default: return TY_VOID_T; /* jump returns None */
  }
}

static const Type *operand(const Infer *inf, const Inst *in, int k) {
  int a = in->args[k];
  if (a < 0 || a >= inf->f->insts.len)
    return NULL;
  const Type *t = inf->f->insts.data[a].type;
  return t && t->kind != TY_UNKNOWN ? t : NULL;
}

const Type *ir_infer_random(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  if (in->ival < 0 || in->ival >= RK__COUNT || in->nargs != 2)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: malformed random op");
  const char *name = ir_random_names[in->ival];
  const Type *st = operand(inf, in, 0), *ix = operand(inf, in, 1);
  if (!st || !ix)
    return NULL;
  if (st->kind != TY_ARRAY || st->ndim != 2 || st->elem->kind != TY_U64)
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC, STATES_HINT,
                         "%s needs a xoroshiro128p state array (uint64, shape (n, 2)) as its "
                         "first argument, not %s",
                         name, ir_infer_tname(inf, st));
  if (!ty_is_int(ix) && ix->kind != TY_BOOL)
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC,
                         ty_is_float(ix) ? "convert it, e.g. int(i)" : NULL,
                         "%s index must be an integer, not %s", name, ir_infer_tname(inf, ix));
  if (need)
    need[1] = TY_I64_T;
  return random_result((int)in->ival);
}
