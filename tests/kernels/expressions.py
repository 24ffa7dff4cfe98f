"""Expressions: chained comparisons, conditional expressions, and/or/not,
tuple unpacking and swaps, chained assignment, bitwise and shift operators,
floor division and modulo, powers."""
from numba import cuda
import numpy as np


@cuda.jit("void(int64[:], float64[:], int64, float64)")
def expressions(iout, fout, n, x):
    i = cuda.grid(1)
    if not (0 <= i < iout.size):
        return
    a = b = 0
    a, b = i, n
    a, b = b, a
    c = a if a > b else b
    d = (a < b < c) or (a == b and not c)
    e = (a << 2) | (b >> 1) ^ (c & 7)
    f = ~e
    g = a // 3 + a % 3 - (-7) // 2 + (-7) % 2
    h = x ** 2 + x ** 0.5 + 2 ** 3
    k = 1 if d else -1
    q = x / 3 + a / 2
    t = (1, 2.5, a)
    u, v, w = t
    iout[i] = a + b + c + e + f + g + k + u + w
    fout[i] = h + q + v + (x if x > 0 else -x) + x // 2.0 + x % 1.5


@cuda.jit("void(boolean[:], int32[:], int32)")
def predicates(flags, vals, limit):
    i = cuda.grid(1)
    if i < flags.size:
        v = vals[i]
        flags[i] = v > 0 and v != limit or v == -limit
        if flags[i] and not (v < -limit or v > limit):
            vals[i] = -v if v < 0 else v


if __name__ == "__main__":
    iout = np.zeros(8, dtype=np.int64)
    fout = np.zeros(8, dtype=np.float64)
    expressions[1, 8](iout, fout, 5, 2.0)
