# ARGS: check %s
from numba import cuda

total = cuda.declare_device('total_f32', 'float32(float32[::1])')


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = total(x)
