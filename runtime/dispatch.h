/* dispatch.h - which eager signature a launch's argument values run with
 * (Numba's rule: ir/dispatch.h), shared by the C API's argument check
 * (api/api_launch.c) and the target runners (cuda_run.c,
 * host_launch.c), so all three pick the same one. */
#ifndef KJIT_RUNTIME_DISPATCH_H
#define KJIT_RUNTIME_DISPATCH_H

#include <stddef.h>

#include "ir/dispatch.h"
#include "data/array.h"

/* The conversion of argument value v to parameter type p (ty_conversion's
 * rule, with the value's Numba type: a scalar's dtype; an array's dtype,
 * ndim and layout, C for C-contiguous, F for Fortran-contiguous (which
 * converts only to [:]), else A; a tuple's elements). */
TyConv rt_value_conversion(const RtValue *v, const Type *p, bool all);

/* ir_pick_signature over f's eager signatures for vals[0..n) (IrArgConv for
 * const RtValue *). */
TyConv rt_value_arg_conv(const void *vals, int i, const Type *param, bool all);
int rt_pick_eager(const IrFunc *f, const RtValue *vals, int n, int tied[2]);

/* "(float64[::1], int64)": signature s's parameter types, for messages. */
void rt_sig_params_text(const Signature *s, char *buf, size_t n);

#endif
