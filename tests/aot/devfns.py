"""Device functions for tests/aot.sh's `kjit aot --emit ptx`: C-ABI
functions of several scalar types that tests/aot/dev_main.cu calls from
CUDA C (scalars in and out, a bool, libdevice math); `first` takes an array,
which has no C form, and the kernel is no device function: both refused."""
from numba import cuda
import math


@cuda.jit(device=True)
def axpy(a, x, y):
    return a * x + y


@cuda.jit("float64(float64, boolean)", device=True)
def wave(x, neg):
    v = math.sin(x) + x * x
    return -v if neg else v


@cuda.jit(device=True)
def clamp_index(i, n):
    if i < 0:
        return 0
    if i >= n:
        return n - 1
    return i


@cuda.jit("uint32(uint32, uint32)", device=True)
def mix(a, b):
    return (a * 2654435761 + b) ^ (a >> 3)


@cuda.jit(device=True)
def first(x):
    return x[0]


@cuda.jit("void(int32[:])")
def not_a_device_function(x):
    x[0] = 1
