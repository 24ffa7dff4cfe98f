# Functions held in variables through ptxas; tests/exec/function_values.py runs them.
# ARGS: ptx %s:k --sig "void(float64[::1], float64, float64)"
from numba import cuda, literal_unroll
from numba.cuda.bf16 import bfloat16, heq, hlt


@cuda.jit(device=True)
def twice(x):
    return 2 * x


@cuda.jit(device=True)
def plus1(x):
    return x + 1


op = twice
op = op
cmp_eq = heq
cmp_lt = hlt
FNS = (twice, plus1, twice)


@cuda.jit
def k(out, a, b):
    out[0] = op(a)
    out[1] = cmp_eq(bfloat16(a), bfloat16(b))
    out[2] = cmp_lt(bfloat16(a), bfloat16(b))
    g = plus1
    out[3] = g(b)
    acc = 0.0
    for f in literal_unroll(FNS):
        acc += f(a)
    out[4] = acc
    for f in literal_unroll((plus1, twice)):
        acc = f(acc)
    out[5] = acc


