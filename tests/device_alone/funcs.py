"""Device functions compiled alone (kjit ptx FILE:FUNC), as Numba's
compile_ptx(..., device=True, abi='c') compiles them: tests/device_alone/run.sh
checks their PTX entries, links them with caller.cu, and on a GPU runs it."""
from numba import cuda
import math


@cuda.jit(device=True)
def sq(x):
    return x * x


@cuda.jit("float64(float64, boolean)", device=True)
def wave(x, neg):
    s = math.sin(x) + sq(x)
    return -s if neg else s


@cuda.jit(device=True)
def axpy(a, x, y):
    return a * x + y


@cuda.jit(device=True)
def first(a):
    return a[0]
