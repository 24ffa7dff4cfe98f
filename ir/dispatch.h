/* dispatch.h - Numba's rule for choosing among a kernel's eager signatures
 * (`@cuda.jit(["void(float64[::1], float64)", "void(float64[::1], int64)"])`).
 *
 * Each signature the arguments convert to is rated by the conversions it
 * needs, counted per kind (unsafe, then safe, then promote: fewer is
 * better, compared in that order); the best one wins, and a tie between
 * signatures of different types is an error, as in Numba's dispatcher once
 * compilation is disabled.  Conversion kinds are Numba's (its typeconv
 * rules and their closure): exact < promote < safe < unsafe.
 *
 * Two passes, as a fresh Numba process makes them: first only the number
 * conversions Numba registers at start-up (arrays, tuples and records must
 * match exactly); only if no signature matches so, every conversion Numba
 * can install (an array to a strided [:] parameter, tuples element by
 * element). */
#ifndef KJIT_IR_DISPATCH_H
#define KJIT_IR_DISPATCH_H

#include <stdbool.h>

#include "ir/ir.h"

typedef enum TyConv {
  TYCONV_EXACT,   /* the same type */
  TYCONV_PROMOTE, /* same kind, wider (int32 -> int64, float32 -> float64) */
  TYCONV_SAFE,    /* no information lost (int32 -> float64, [::1] -> [:]) */
  TYCONV_UNSAFE,  /* may lose information (int64 -> int32, float64 -> int64) */
  TYCONV_NONE,    /* no conversion (complex -> float, another dtype's array) */
} TyConv;

/* The conversion from `from` to `to`.  all == false: only what Numba's type
 * manager knows at start-up (numbers; other types exact or nothing);
 * all == true: also arrays (same dtype and ndim, to a [:] parameter: safe;
 * read-only ones only to read-only) and anonymous tuples (the worst of
 * their elements). */
TyConv ty_conversion(const Type *from, const Type *to, bool all);

/* The conversion of argument i to a parameter type (a callback, so the
 * runtime can rate its argument values without making Types of them). */
typedef TyConv (*IrArgConv)(const void *args, int i, const Type *param, bool all);

/* Arguments given as Types (args: const Type *const *). */
TyConv ir_type_arg_conv(const void *args, int i, const Type *param, bool all);

enum { IR_PICK_NONE = -1, IR_PICK_AMBIGUOUS = -2 };

/* The index of the signature Numba's dispatcher picks for nargs arguments
 * among sigs[0..nsigs), IR_PICK_NONE when none accepts them, or
 * IR_PICK_AMBIGUOUS with two of the tied signatures in tied[0..1].
 * Signatures of other arities never match; signatures with identical
 * parameter types count once (the first). */
int ir_pick_signature(const Signature *sigs, int nsigs, int nargs, IrArgConv conv,
                      const void *args, int tied[2]);

/* The overload a call from kernel code reaches (an eager device function
 * called with argument types): Numba types such a call with the same
 * ratings in one pass over every conversion, and a tie goes to the first
 * of the tied signatures.  IR_PICK_NONE when none accepts the arguments. */
int ir_pick_overload(const Signature *sigs, int nsigs, int nargs, IrArgConv conv, const void *args);

#endif
