/* ufunc.h - @vectorize: a scalar function made into elementwise kernels.
 *
 * Lowering (lower/lower_ufunc.c) turns `@vectorize([...sigs], target=...)` into
 * a device function marked is_ufunc, with its scalar signatures as eager
 * signatures.  At a call the runtime (api/ufunc.c) asks for an
 * elementwise kernel that calls it: generic IR built here, then typed,
 * compiled and cached as any lazy kernel, on either target.  A kernel
 * variant depends only on UfuncShape, never on the argument values. */
#ifndef KJIT_LOWER_UFUNC_H
#define KJIT_LOWER_UFUNC_H

#include "ir/ir.h"

#define UFUNC_MAX_VEC 16    /* elements per thread and step, at most */
#define UFUNC_MAX_NDIM 4    /* dimensions of the general kernel */
#define UFUNC_MAX_ARGS 30   /* inputs (the out array makes one more) */

/* The layout the runtime picked for one call. */
typedef struct UfuncShape {
  bool contiguous;          /* 1-d C arrays of one size: grid-stride over
                               `vec`-element groups, then a scalar tail */
  int ndim;                 /* general kernel: dimensions of every array */
  int vec;                  /* contiguous: elements per group (1..16) */
  int align;                /* contiguous: bytes the groups are aligned to */
  uint32_t scalars;         /* bit i: input i is a scalar parameter */
  const Signature *sig;     /* the scalar signature picked, NULL if lazy:
                               inputs are converted to its types and the
                               result to its return type */
} UfuncShape;

/* Builds the generic IR of the elementwise kernel of ufunc `uf` (nin
 * inputs, then `out`) for shape s, named `name`, in p's arena; it is not
 * added to p->funcs.  Never fails on user input (the scalar function is
 * typed when the kernel is specialized). */
IrFunc *ir_ufunc_kernel(IrProgram *p, IrFunc *uf, const UfuncShape *s, const char *name);

#endif
