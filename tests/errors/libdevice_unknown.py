# ARGS: check %s
from numba import cuda
from numba.cuda import libdevice


@cuda.jit("void(float32[:])")
def k(a):
    a[0] = libdevice.sinff(a[0])
