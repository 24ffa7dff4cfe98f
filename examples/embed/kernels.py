# The kjit side of the examples in this folder: Numba kernels that a CUDA
# program launches on its own memory and streams (docs/api.md,
# "Embedding in a CUDA program").
from numba import cuda


@cuda.jit
def saxpy(a, x, y):
    i = cuda.grid(1)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@cuda.jit
def incr(v):
    i = cuda.grid(1)
    if i < v.shape[0]:
        v[i] += 1
