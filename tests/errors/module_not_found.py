# ARGS: check %s
# A module that is neither found nor known: importing it is fine (host
# code may use it), using it in a kernel is the error, naming the folders.
from numba import cuda
import cupy_like_module as cp


@cuda.jit("void(float32[:])")
def k(a):
    a[0] = cp.sqrt(a[0])
