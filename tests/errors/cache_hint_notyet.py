# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[::1], float32[::1])")
def f(r, x):
    r[0] = cuda.ldcg(x, 0)
