"""--debug: a failing assert without a message fails the launch with an
AssertionError carrying the statement's own text, the first failing block
and thread, and the source line"""
from numba import cuda

# ARGS: run %s:k --target cpu --debug --grid 2 --block 4 arange:i32:8 6


@cuda.jit
def k(a, n):
    i = cuda.grid(1)
    assert i < n
    a[i] = 0
