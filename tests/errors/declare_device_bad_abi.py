"""cuda.declare_device: abi= is 'numba' (the default) or 'c'"""
from numba import cuda

# ARGS: check %s

f = cuda.declare_device('f', 'float32(float32)', abi='cpp')


@cuda.jit
def k(x):
    x[0] = f(x[0])
