import math
from numba import cuda

@cuda.jit("void(float16[:], float32[:])", fastmath=True)
def k(x, out):
    out[0] = math.sqrt(x[0])
