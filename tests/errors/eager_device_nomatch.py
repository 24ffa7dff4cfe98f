# ARGS: check %s
from numba import cuda, float32


@cuda.jit(float32(float32), device=True)
def f(x):
    return x * 2


@cuda.jit("void(float32[:])")
def k(a):
    a[0] = f(a)
