"""Vector add, one float32 element per thread (2^26 elements, 256 threads per block)."""
from numba import cuda


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def vector_add(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]
