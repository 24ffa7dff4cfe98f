# ARGS: check %s
# Numba reshapes contiguous arrays only: a strided view (or an A-layout
# parameter) is rejected at the call.
from numba import cuda


@cuda.jit("void(float32[::1], float32[:, ::1])")
def k(a, out):
    b = a[::2].reshape(2, -1)
    out[0, 0] = b[0, 0]
