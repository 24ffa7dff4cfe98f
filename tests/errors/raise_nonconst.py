"""An exception's arguments are frozen when compiling: a value known only at
run time is refused by name."""
# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:], int64)")
def k(a, n):
    if n > 3:
        raise ValueError("too many:", n)
    a[0] = n
