# Reductions for tests/aot.sh: kjit aot makes one launcher per
# @cuda.reduce function and array type (tests/aot/reduce_main.c runs them).
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b


@cuda.reduce
def max_reduce(a, b):
    return max(a, b)


@cuda.jit("void(float32[::1], float32)")
def fill(x, v):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = v
