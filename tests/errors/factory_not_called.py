# ARGS: ptx %s:k --sig "void(float32[:])"
# A kernel nested in a factory that no top-level statement calls: the hint
# says how to name it (by its variable, or by the call).
from numba import cuda


def make_k(f):
    @cuda.jit
    def k(a):
        a[0] = f
    return k
