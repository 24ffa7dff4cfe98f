# ARGS: check %s
from numba import cuda, types


@cuda.jit(types.void(types.Array(types.float32, 2, 'Q')))
def k(a):
    a[0, 0] = 1
