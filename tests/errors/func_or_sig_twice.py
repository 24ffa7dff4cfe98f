# ARGS: ptx %s:k
# A signature given both as cuda.jit's argument and as func_or_sig=.
from numba import cuda


@cuda.jit("void(float32[:])", func_or_sig="void(float64[:])")
def k(a):
    a[0] = 1
