# Recursive device functions (explicit signatures) through ptxas: the PTX
# calls them out of line with a call stack (tests/exec/recursion.py runs them).
# ARGS: ptx %s:facts --sig "void(int64[:])"
# ARGS: ptx %s:mixed --sig "void(float64[:])"
# ARGS: ptx %s:fact
from numba import cuda


@cuda.jit('int64(int64)', device=True)
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


@cuda.jit('int64(int64)', device=True)
def is_even(n):
    if n == 0:
        return 1
    return is_odd(n - 1)


@cuda.jit('int64(int64)', device=True)
def is_odd(n):
    if n == 0:
        return 0
    return is_even(n - 1)


@cuda.jit('float64(float64, int64)', device=True)
def power(x, n):
    if n == 0:
        return 1.0
    h = power(x, n // 2)
    return h * h * (x if n % 2 else 1.0)


@cuda.jit
def facts(o):
    i = cuda.grid(1)
    if i < o.size:
        o[i] = fact(i)


@cuda.jit
def mixed(o):
    i = cuda.grid(1)
    if i < o.size:
        o[i] = 1000 * is_even(i) + power(2.0, i)
