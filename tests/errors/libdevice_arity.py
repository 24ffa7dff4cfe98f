# ARGS: check %s
from numba import cuda
from numba.cuda import libdevice


@cuda.jit("void(float32[:])")
def k(a):
    s, c, e = libdevice.sincosf(a[0], a[1])
