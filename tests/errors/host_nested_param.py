# ARGS: ptx %s:run.fill --sig "void(float32[:])"
# A kernel defined inside a host function reads one of its parameters: the
# hint says how to name the call with constant arguments.
from numba import cuda


def run(out, value=2.0):
    @cuda.jit
    def fill(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = value

    fill[1, 32](out)
