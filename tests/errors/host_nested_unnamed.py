# ARGS: ptx %s:fill --sig "void(float32[:])"
# A kernel defined inside a host function asked for by its own name: the
# hint gives the name it has (FUNCTION.KERNEL).
from numba import cuda


def run(out):
    @cuda.jit
    def fill(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = 1.0

    fill[1, 32](out)
