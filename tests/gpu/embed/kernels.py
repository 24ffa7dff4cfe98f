# Kernels of the embedding tests (tests/gpu/embed/embed_gpu.c): the host
# program owns the memory, streams and contexts; kjit runs these in them.
from numba import cuda, vectorize


@cuda.jit
def scale(x, out, k):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = x[i] * k


@cuda.jit
def incr(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] += 1


@cuda.jit
def fill2d(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = i * 100 + j


@cuda.jit
def poke(a, i):
    a[i] = 1.0


@vectorize(["float32(float32, float32)"], target="cuda")
def vadd(a, b):
    return a + b


@cuda.reduce
def total(a, b):
    return a + b
