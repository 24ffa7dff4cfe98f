# ARGS: ptx %s:k --emit kir
# math.* intrinsics, cuda.fma/popc, abs/round/int/float/bool, dtype
# constructors, math constants, len and print.
from numba import cuda, float32
import math
import numpy as np


@cuda.jit("void(float64[:], int32)")
def k(a, n):
    x = math.sqrt(a[0]) + math.atan2(a[1], 2.0) + math.fabs(-1.5) + math.pi
    y = cuda.fma(x, 2.0, 1.0) + cuda.popc(n)
    z = abs(n) + round(x) + int(y) + float(n) + bool(n)
    w = float32(x) + np.float32(n) + round(x, 2)
    print("values", x, n)
    a[len(a) - 1] = x + y + z + w
