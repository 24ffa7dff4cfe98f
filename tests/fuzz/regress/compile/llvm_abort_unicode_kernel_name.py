# ARGS: ptx %s:k --emit kir
# NumPy/numba dtype constructors on literals gs float32).
from numba import cuda, float32
import numpy as np


@cuda.jit("void(float32[::1], int32)")
def ݐªk(a, n):
    t = float32(0.)
    u = np.float32(1.5)
    v = float(a[0])
    w = int(n)
    a[0] = t + u + v + w
