# ARGS: check %s
from numba import cuda, float32


@cuda.jit("void(float32[:], int64)")
def k(a, n):
    buf = cuda.shared.array(n, dtype=float32)
    buf[0] = a[0]
