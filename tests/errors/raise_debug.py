"""--debug: a raise in a device function fails the launch with the
exception's class and message, the source line and the failing block and
thread (Numba's report of a kernel exception under debug=True)."""
# ARGS: run %s:k --target cpu --debug --grid 1 --block 4 zeros:f32:4
from numba import cuda


@cuda.jit(device=True)
def check(x):
    if x >= 2:
        raise ValueError("x must stay below 2")
    return x


@cuda.jit
def k(a):
    i = cuda.grid(1)
    a[i] = check(i)
