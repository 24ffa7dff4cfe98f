/* reduce.h - @cuda.reduce: the kernels that reduce a 1-d array with a
 * user's binary function.
 *
 * A @cuda.reduce def is lowered as a device function marked is_reduce.
 * When an array of a new dtype is first reduced, ir_reduce_kernels writes
 * the reduction kernels for that dtype as kjit kernel source (a template
 * calling the function by name), parses and lowers them into the program,
 * so typing, caching and both targets treat them like any kernel. */
#ifndef KJIT_LOWER_REDUCE_H
#define KJIT_LOWER_REDUCE_H

#include "ir/ir.h"

/* Both kernels take (a, part, init, use_init, ...): each block reduces its
 * part of the 1-d array `a` to part[blockIdx.x], converting every step to
 * the array's dtype; with use_init != 0 (a one-block launch) the block's
 * result is f(result, dtype(init)), and an empty `a` gives dtype(init). */
typedef struct IrReduceKernels {
  IrFunc *cuda;  /* (a, part, init, use_init): grid-stride slices, warp
                    shuffles and shared memory; blockDim a multiple of 32 */
  IrFunc *cpu;   /* (a, part, init, use_init, chunk): one-thread blocks, block
                    b folds a[b*chunk : (b+1)*chunk] in order */
} IrReduceKernels;

/* Generates the kernels of reduction `fn` for arrays of `dtype` into p (its
 * arena).  Errors (a dtype the kernels cannot take) go to diags. */
bool ir_reduce_kernels(IrProgram *p, IrFunc *fn, const Type *dtype, Diags *diags,
                       IrReduceKernels *out);

/* The dtypes a reduction takes: integers and float32/float64. */
bool ir_reduce_dtype_ok(const Type *dtype);

#endif
