/* ops.c - the tables generated from ops.h's X-macros. */
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
