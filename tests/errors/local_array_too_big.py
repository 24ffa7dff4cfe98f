"""A thread's local arrays may take at most 512 KiB, the local memory every
CUDA GPU gives a thread (ptxas refuses more; on the cpu target it would
overrun the thread's stack): a located error at the array that crosses it."""
# ARGS: check %s
from numba import cuda, float32, float64


@cuda.jit("void(float32[:])")
def k(x):
    small = cuda.local.array(1024, float64)
    big = cuda.local.array(131072, float32)
    small[0] = 1.0
    big[0] = small[0]
    x[0] = big[0]
