"""cuda.declare_device: the first argument is the C name of the function"""
from numba import cuda

# ARGS: check %s

f = cuda.declare_device('mul f32', 'float32(float32)')


@cuda.jit
def k(x):
    x[0] = f(x[0])
