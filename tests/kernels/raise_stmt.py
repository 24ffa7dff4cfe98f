# raise in kernels and device functions through ptxas: without --debug the
# thread exits (PTX `exit`), with --debug it prints the exception and traps.
# tests/exec/raise_stmt.py runs them.
# ARGS: ptx %s:through_calls --sig "void(int64[:])"
# ARGS: ptx %s:through_calls --sig "void(int64[:])" --debug
# ARGS: ptx %s:in_kernel --sig "void(int32[:], int64)"
# ARGS: ptx %s:in_kernel --sig "void(int32[:], int64)" --debug
from numba import cuda


@cuda.jit(device=True)
def checked(x):
    if x > 3:
        raise ValueError("x too large")
    return x * 2


@cuda.jit(device=True)
def outer(x):
    y = checked(x) + 1
    if y == 3:
        raise RuntimeError
    return y


@cuda.jit
def through_calls(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = outer(i)


@cuda.jit
def in_kernel(a, limit):
    i = cuda.grid(1)
    if i >= a.size:
        return
    a[i] = 1
    if i >= limit:
        raise IndexError("past the limit")
    a[i] = 2
