# ARGS: ptx %s:k --sig "void(float32[:, :, :, :, :, :, :, :, :], float32[:])"
from numba import cuda


@cuda.jit
def k(a, b):
    i = cuda.grid(1)
    if i < a.size:
        b[i] = a[i]
