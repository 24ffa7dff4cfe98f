# ARGS: check %s
from numba import cuda


@cuda.jit(device=True)
def total(x, step=None):
    for i in range(3):
        if step is None:
            step = 1.0
        x += step
    return x


@cuda.jit("void(float64[:])")
def k(a):
    a[0] = total(a[0])
