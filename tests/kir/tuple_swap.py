# ARGS: ptx %s:k --emit kir
# a, b = b, a evaluates the right-hand side fully first; chained a = b = v.
from numba import cuda


@cuda.jit("void(int64[:])")
def k(a):
    x = y = a[0]
    y = a[1]
    x, y = y, x
    a[0] = x
    a[1] = y
