# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    """Docstring that never ends.
    a[0] = 1
