/* typing_internal.h - internal interface between the parts of type
 * inference; private to typing/ (the public side is typing/typing.h).
 *
 * infer.c drives specialization (memo, fixed point over locals, return
 * type, mangling); infer_ops.c holds the typing rule of every IR op;
 * infer_cast.c materializes the conversions the rules ask for.  One Infer
 * lives on the stack of each ir_specialize call.  Invariant: the rules are
 * pure functions of operand and local types (plus the silent/report mode),
 * so running them again after the fixed point yields the same answers. */
#ifndef KJIT_TYPING_INTERNAL_H
#define KJIT_TYPING_INTERNAL_H

#include "typing/typing.h"

/* Diagnostic codes: common/diag_codes.h (E3xx typing, signatures: lower/). */

/* Per local, the value its only STORE in reachable blocks stores (-1: none,
 * -2: several); built on demand by infer_ctvalue.c, rebuilt when stale. */
struct InferOnce {
  bool valid;
  int nlocals;
  int *value;
};

typedef struct Infer {
  IrCompile *c;
  IrFunc *f;
  TypeTable *tt;
  Diags *d;
  bool report;        /* final pass: report errors (fixed-point passes are silent,
                         since an operand may still widen) */
  bool changed;       /* a pass changed some type */
  bool narrow;        /* typing="narrow" */
  int ninsts;         /* instructions before materialization */
  bool *reachable;    /* per block */
  signed char *taken; /* per block ending in a CBR: 1 / 0 when its condition is
                         a compile-time constant (the other edge is pruned, as
                         Numba prunes dead branches), -1 when not known */
  bool *dead;         /* per instruction: failed for good (error already out) */
  bool *reported;     /* per instruction: an error was reported for it */
  int *nstores;       /* per local: STOREs in reachable blocks */
  struct InferOnce *once; /* per local: the value its only reachable STORE
                             stores (infer_ctvalue.c); rebuilt when stale */
  const Type *declared_ret; /* from an eager signature, or NULL */
  bool callee_failed; /* a callee could not be specialised (its errors may have
                         been reported by an earlier caller) */
} Infer;

/* infer_ctvalue.c: marks the table of single stores stale (blocks became
 * unreachable, or a pass may have added stores). */
void ir_infer_once_stale(Infer *inf);

/* infer_ops.c: the result type of instruction idx given its operands'
 * current types, or NULL while unknown or on error (reported only in report
 * mode).  When need is non-NULL it receives, per operand, the type that
 * operand must be converted to (NULL: leave it).  STORE also unifies its
 * local's type (setting inf->changed). */
const Type *ir_infer_inst(Infer *inf, int idx, const Type **need);

/* infer_random.c: OP_RANDOM (numba.cuda.random's xoroshiro128p_*). */
const Type *ir_infer_random(Infer *inf, int idx, const Type **need);

/* infer_view.c: ARRAY_VIEW (Numba's layout rule), ARRAY_T, TUPLE_INDEX. */
const Type *ir_infer_view(Infer *inf, int idx, const Type **need);
const Type *ir_infer_transpose(Infer *inf, int idx);
const Type *ir_infer_tuple_index(Infer *inf, int idx, const Type **need);

/* infer_array_reduce.c: ARRAY_REDUCE (np.sum(a), a.mean(), ...). */
const Type *ir_infer_array_reduce(Infer *inf, int idx);

/* infer_host_global.c: HOST_GLOBAL, a global the host bound to an array. */
const Type *ir_infer_host_global(Infer *inf, int idx);

/* infer_grid.c: GRID_GROUP, GRID_SYNC (Numba's cooperative groups). */
const Type *ir_infer_grid(Infer *inf, int idx);

/* infer_reshape.c: ARRAY_RESHAPE (C arrays only, as Numba). */
const Type *ir_infer_reshape(Infer *inf, int idx, const Type **need);

/* infer_is.c: IS/ISNOT typing; branches decided by types alone taken before
 * typing (Numba's branch pruning); IS/ISNOT rewritten after typing. */
const Type *ir_infer_is(Infer *inf, int idx, const Type **need);
const Type *ir_infer_isinstance(Infer *inf, int idx);
void ir_prune_type_branches(Infer *inf);
void ir_resolve_is(Infer *inf);

/* infer_num.c: the rule of OP_NUMFN (complex and float16 functions). */
const Type *ir_infer_numfn(Infer *inf, int idx, const Type **need);

/* infer_bf16.c: bfloat16.  claims: instruction idx is OP_BF16 or meets a
 * bfloat16 (operator, math.*, conversion), so ir_infer_bf16 types it
 * (rewriting operators and math.* into OP_BF16).  storable: a bfloat16
 * converts to an array element of type elem. */
bool ir_infer_bf16_claims(const Infer *inf, int idx);
const Type *ir_infer_bf16(Infer *inf, int idx, const Type **need);
bool ir_bf16_storable(const Type *elem);
/* infer_fp8.c: the fp8 types.  claims: instruction idx is OP_FP8, a CAST
 * to or from an fp8 type, or an operator or math function meeting one
 * (refused: Numba has no fp8 arithmetic). */
bool ir_infer_fp8_claims(const Infer *inf, int idx);
const Type *ir_infer_fp8(Infer *inf, int idx, const Type **need);

/* infer_npmath.c: the rule of OP_NPUFUNC (NumPy ufuncs on scalars). */
const Type *ir_infer_npufunc(Infer *inf, int idx, const Type **need);
/* np.sin(x, out) (OP_ARRAY_UFUNC): the loop type, checked against out's dtype */
const Type *ir_infer_array_ufunc(Infer *inf, int idx);
/* infer_ops.c: arr may be written (else reported, false) */
bool ir_infer_check_writable(Infer *inf, int idx, const Type *arr);

/* infer_libdevice.c: the rule of OP_LIBDEVICE (cuda.libdevice.<f>). */
const Type *ir_infer_libdevice(Infer *inf, int idx, const Type **need);

/* infer_record.c: records (structured dtypes): REC_GET, REC_SET, and
 * r['x'] / r['x'] = v on a record (array loads and stores rewritten). */
const Type *ir_infer_rec_get(Infer *inf, int idx);
const Type *ir_infer_rec_set(Infer *inf, int idx, const Type **need);
const Type *ir_infer_rec_index(Infer *inf, int idx);
const Type *ir_infer_rec_store(Infer *inf, int idx, const Type **need);

/* infer_vector.c: the rule of OP_VECTOR (cuda.float32x4(...)). */
const Type *ir_infer_vector(Infer *inf, int idx, const Type **need);

/* infer_fail.c: report an error at instruction idx in report mode (and mark it);
 * always returns NULL so rules can `return ir_infer_fail(...)`. */
const Type *ir_infer_fail(Infer *inf, int idx, int code, const char *hint,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Type name in Numba's spelling, in the compile's arena (error text only). */
const char *ir_infer_tname(Infer *inf, const Type *t);

/* infer_ctvalue.c: compile-time values (functions and dtypes as values,
 * shapes and dtypes known per call, constants frozen into callees). */
const Type *ir_infer_ctvalue(Infer *inf, int idx);        /* OP_VALUE */
const Type *ir_infer_array_dtype(Infer *inf, int idx);    /* OP_ARRAY_DTYPE */
const Type *ir_infer_call_value(Infer *inf, int idx, const Type **need); /* OP_CALL_VALUE */
/* SHARED/LOCAL_ARRAY whose shape or dtype lowering left as operands. */
const Type *ir_infer_deferred_array(Infer *inf, int idx);
/* The integer value idx always yields, when typing can know it (also
 * comparisons, not, truth and a.ndim of such values: 0 or 1). */
bool ir_infer_const_int(const Infer *inf, int idx, int64_t *out);
/* For the call at idx to gen: the arguments to freeze into the callee
 * (parameters an array shape needs, given constants), or NULL: none. */
IrConstArg *ir_infer_call_consts(Infer *inf, int idx, const IrFunc *gen);

/* infer_foreign.c: typing of OP_CALL_FOREIGN (arguments to the declared types). */
const Type *ir_type_foreign(Infer *inf, int idx, const Type **need);

/* infer_cast.c: insert the conversions every operand needs; afterwards each
 * operand has exactly the type its op requires (ops.h). */
void ir_infer_materialize(Infer *inf);

#endif
