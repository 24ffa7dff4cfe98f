# ARGS: ptx %s:k --emit kir
# NumPy/numba dtype constructors on literals give that dtype (float32(0.)
# is float32, as in Numba), while Python's float()/int() keep a same-kind
# operand's type (float(float32) stays float32).
from numba import cuda, float32
import numpy as np


@cuda.jit("void(float32[::1], int32)")
def k(a, n):
    t = float32(0.)
    u = np.float32(1.5)
    v = float(a[0])
    w = int(n)
    a[0] = t + u + v + w
