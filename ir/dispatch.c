/* dispatch.c - Numba's choice among eager signatures (rule in dispatch.h).
 *
 * The number table is the closure of Numba's typeconv rules (numba-cuda's
 * typeconv/rules.py): bool -> int8/uint8 safe; each int to the next wider
 * of its signedness promote; uint8/16/32 -> int16/32/64 safe; int8 ->
 * float16, int16 -> float32, int32 -> float64 safe; int16 -> float16 and
 * int32 -> float32 unsafe; int64/uint64 -> float64 safe; float16 -> float32
 * -> float64 promote; float32 -> complex64, float64 -> complex128 safe;
 * complex64 -> complex128 promote; every reverse direction unsafe.  A chain
 * of conversions is as bad as its worst step, and the best chain counts;
 * nothing converts from complex to a real type. */
#include "ir/dispatch.h"

#define E TYCONV_EXACT
#define P TYCONV_PROMOTE
#define S TYCONV_SAFE
#define U TYCONV_UNSAFE
#define N TYCONV_NONE

enum { NNUM = TY_C128 - TY_BOOL + 1 }; /* bool, int8..int64, uint8..uint64, f16..f64, c64, c128 */

static const unsigned char number_conv[NNUM][NNUM] = {
    /*           to: b  i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64 c64 c128 */
    /* b    */ {E, S, S, S, S, S, S, S, S, S, S, S, S, S},
    /* i8   */ {U, E, P, P, P, U, U, U, U, S, S, S, S, S},
    /* i16  */ {U, U, E, P, P, U, U, U, U, U, S, S, S, S},
    /* i32  */ {U, U, U, E, P, U, U, U, U, U, U, S, U, S},
    /* i64  */ {U, U, U, U, E, U, U, U, U, U, U, S, U, S},
    /* u8   */ {U, U, S, S, S, E, P, P, P, U, S, S, S, S},
    /* u16  */ {U, U, U, S, S, U, E, P, P, U, U, S, U, S},
    /* u32  */ {U, U, U, U, S, U, U, E, P, U, U, S, U, S},
    /* u64  */ {U, U, U, U, U, U, U, U, E, U, U, S, U, S},
    /* f16  */ {U, U, U, U, U, U, U, U, U, E, P, P, S, S},
    /* f32  */ {U, U, U, U, U, U, U, U, U, U, E, P, S, S},
    /* f64  */ {U, U, U, U, U, U, U, U, U, U, U, E, U, S},
    /* c64  */ {N, N, N, N, N, N, N, N, N, N, N, N, E, P},
    /* c128 */ {N, N, N, N, N, N, N, N, N, N, N, N, U, E},
};

#undef E
#undef P
#undef S
#undef U
#undef N

_Static_assert(TY_I8 == TY_BOOL + 1 && TY_U8 == TY_BOOL + 5 && TY_F16 == TY_BOOL + 9 &&
                   TY_C64 == TY_BOOL + 12,
               "number_conv rows follow TypeKind's order");

static bool is_table_number(const Type *t) {
  return t->kind >= TY_BOOL && t->kind <= TY_C128;
}

static bool same_elem(const Type *a, const Type *b) {
  return a == b || (a->kind == TY_RECORD && b->kind == TY_RECORD && ty_record_layout_eq(a, b));
}

/* Numba's Array.can_convert_to: same dtype and ndim, to the same layout or
 * to A, never from read-only to writable. */
static TyConv array_conversion(const Type *from, const Type *to) {
  if (to->kind != TY_ARRAY || !same_elem(from->elem, to->elem) || from->ndim != to->ndim ||
      (from->readonly && !to->readonly))
    return TYCONV_NONE;
  if (from->layout == to->layout && from->readonly == to->readonly)
    return TYCONV_EXACT;
  return to->layout == LAYOUT_A || to->layout == from->layout ? TYCONV_SAFE : TYCONV_NONE;
}

/* Anonymous tuples of one length: the worst of the elements' conversions
 * (named tuples convert to nothing else). */
static TyConv tuple_conversion(const Type *from, const Type *to) {
  if (to->kind != TY_TUPLE || from->tname || to->tname || from->nelems != to->nelems)
    return TYCONV_NONE;
  TyConv worst = from->nelems == 0 ? TYCONV_SAFE : TYCONV_EXACT;
  for (int i = 0; i < from->nelems; i++) {
    TyConv c = ty_conversion(from->elems[i], to->elems[i], true);
    if (c == TYCONV_NONE)
      return TYCONV_NONE;
    worst = c > worst ? c : worst;
  }
  return worst;
}

TyConv ty_conversion(const Type *from, const Type *to, bool all) {
  if (from == to || (from->kind == TY_RECORD && to->kind == TY_RECORD && ty_record_layout_eq(from, to)))
    return TYCONV_EXACT;
  if (is_table_number(from) && is_table_number(to))
    return (TyConv)number_conv[from->kind - TY_BOOL][to->kind - TY_BOOL];
  if (!all)
    return TYCONV_NONE;
  if (from->kind == TY_ARRAY)
    return array_conversion(from, to);
  if (from->kind == TY_TUPLE)
    return tuple_conversion(from, to);
  return TYCONV_NONE;
}

TyConv ir_type_arg_conv(const void *args, int i, const Type *param, bool all) {
  return ty_conversion(((const Type *const *)args)[i], param, all);
}

/* ------------------------------------------------------------ picking --- */

/* Numba's Rating: how many arguments need each kind of conversion. */
typedef struct Rating {
  int unsafe, safe, promote;
} Rating;

static int rating_cmp(Rating a, Rating b) {
  if (a.unsafe != b.unsafe)
    return a.unsafe < b.unsafe ? -1 : 1;
  if (a.safe != b.safe)
    return a.safe < b.safe ? -1 : 1;
  return a.promote < b.promote ? -1 : a.promote > b.promote;
}

/* Rates sig for the arguments; false when one of them does not convert. */
static bool rate(const Signature *sig, int nargs, IrArgConv conv, const void *args, bool all,
                 Rating *r) {
  *r = (Rating){0, 0, 0};
  if (sig->nparams != nargs)
    return false;
  for (int i = 0; i < nargs; i++) {
    if (!sig->params[i])
      return false;
    switch (conv(args, i, sig->params[i], all)) {
    case TYCONV_EXACT: break;
    case TYCONV_PROMOTE: r->promote++; break;
    case TYCONV_SAFE: r->safe++; break;
    case TYCONV_UNSAFE: r->unsafe++; break;
    case TYCONV_NONE: return false;
    }
  }
  return true;
}

static bool same_params(const Signature *a, const Signature *b) {
  for (int i = 0; i < a->nparams; i++)
    if (a->params[i] != b->params[i])
      return false;
  return true;
}

/* One pass: the best-rated signature, IR_PICK_NONE, or IR_PICK_AMBIGUOUS. */
static int pick_pass(const Signature *sigs, int nsigs, int nargs, IrArgConv conv, const void *args,
                     bool all, int tied[2]) {
  int best = IR_PICK_NONE, rival = IR_PICK_NONE;
  Rating rb = {0, 0, 0}, r;
  for (int s = 0; s < nsigs; s++) {
    if (!rate(&sigs[s], nargs, conv, args, all, &r))
      continue;
    if (r.unsafe + r.safe + r.promote == 0)
      return s; /* exact: nothing beats it, and only the same types tie it */
    int c = best < 0 ? -1 : rating_cmp(r, rb);
    if (c < 0)
      best = s, rb = r, rival = IR_PICK_NONE;
    else if (c == 0 && rival < 0 && !same_params(&sigs[s], &sigs[best]))
      rival = s;
  }
  if (rival >= 0) {
    tied[0] = best, tied[1] = rival;
    return IR_PICK_AMBIGUOUS;
  }
  return best;
}

int ir_pick_signature(const Signature *sigs, int nsigs, int nargs, IrArgConv conv,
                      const void *args, int tied[2]) {
  int k = pick_pass(sigs, nsigs, nargs, conv, args, false, tied);
  return k != IR_PICK_NONE ? k : pick_pass(sigs, nsigs, nargs, conv, args, true, tied);
}

int ir_pick_overload(const Signature *sigs, int nsigs, int nargs, IrArgConv conv, const void *args) {
  int tied[2];
  int k = pick_pass(sigs, nsigs, nargs, conv, args, true, tied);
  return k == IR_PICK_AMBIGUOUS ? tied[0] : k;
}
