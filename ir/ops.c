/* ops.c - the tables generated from ops.h's X-macros, and the name tables
 * of the op kinds (random, array reductions, atomics) that lowering, typing
 * and the printer share. */
#include <string.h>

#include "ir/ir.h"
#include "ir/ops.h"

const OpInfo ir_op_info[OP__COUNT] = {
#define X(name, text, nargs, flags) {text, nargs, flags},
    IR_OPS(X)
#undef X
};

const IntrinsicInfo ir_intrinsic_info[IN__COUNT] = {
#define I(name, py, arity, kind) {py, arity, kind},
    INTRINSICS(I)
#undef I
};

const char *const ir_random_names[RK__COUNT] = {
    "xoroshiro128p_next",           "xoroshiro128p_uniform_float32",
    "xoroshiro128p_uniform_float64", "xoroshiro128p_normal_float32",
    "xoroshiro128p_normal_float64", "xoroshiro128p_jump",
};

const char *const ir_array_reduce_names[AR__COUNT] = {
    "all", "any", "sum", "prod", "mean", "var", "std", "nansum", "nanprod",
    "nanmean", "nanvar", "nanstd", "count_nonzero", "min", "max", "argmin", "argmax",
    "nanmin", "nanmax"};

/* cuda.atomic's members in AtomicKind order (NULL-terminated). */
const char *const ir_atomic_names[] = {"add", "sub", "and_", "or_", "xor", "max",
                                       "min", "exch", "inc", "dec", "cas", "nanmax",
                                       "nanmin", NULL};

int ir_atomic_kind_of(const char *member) {
  for (int k = 0; ir_atomic_names[k]; k++)
    if (strcmp(ir_atomic_names[k], member) == 0)
      return k;
  return -1;
}
