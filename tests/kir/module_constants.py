# ARGS: ptx %s:k --emit kir
# Module constants: Python folding semantics (floor division and modulo),
# np.float32 casts, tuples, math constants, a later assignment winning.
from numba import cuda
import math
import numpy as np

N = 1 << 10
N = N + 1
Q = -7 // 2
R = -7 % 2
HALF = np.float32(0.5)
TAU = math.pi * 2
PAIR = (3, 4.5)


@cuda.jit("void(float64[:])")
def k(a):
    a[0] = N + Q + R
    a[1] = HALF + TAU
    a[2] = PAIR[1]
