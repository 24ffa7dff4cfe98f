# ARGS: ptx %s:k --emit kir
# Chained comparison (middle operand evaluated once), and/or returning an
# operand, not, and a conditional expression, each through a hidden local.
from numba import cuda


@cuda.jit("void(float32[:], int64, int64)")
def k(a, i, n):
    if 0 <= i < n:
        a[i] = 1.0
    b = i > 0 and n or 3
    c = not (i == n)
    a[0] = a[1] if c else -a[2]
    a[1] = b
