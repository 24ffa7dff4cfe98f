"""--debug: a message that is not a string literal (an f-string, a number)
is not evaluated; the AssertionError carries the statement's source text"""
from numba import cuda

# ARGS: run %s:k --target cpu --debug --grid 1 --block 2 zeros:f32:2 1.5


@cuda.jit
def k(a, s):
    i = cuda.grid(1)
    assert s < 1.0, f"scale {s} out of range"   # checked before the store
    a[i] = s
