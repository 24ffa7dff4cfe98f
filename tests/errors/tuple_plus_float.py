# ARGS: ptx %s:k --sig "void(float64[:])"
# float + tuple: the hint speaks of tuples, not of bitwise operators.
from numba import cuda


@cuda.jit
def k(a):
    t = (1.0, 2.0)
    a[0] = a[1] + t
