"""numba-cuda 0.27+ fp8 types (numba.cuda.fp8) are refused by name, with a
hint, wherever the name comes from (the module, cuda.fp8, the _internal
bindings)."""
# ARGS: check %s
from numba import cuda
from numba.cuda.fp8 import fp8_e4m3, float32_to_fp8


@cuda.jit("void(float32[:], float32[:])")
def k(a, o):
    x = fp8_e4m3(a[0])
    o[0] = float(x)


@cuda.jit("void(float32[:], float32[:])")
def k2(a, o):
    o[0] = float(cuda.fp8.fp8_e5m2(a[0]))
