# compute-sanitizer's memcheck must name this file and line 10 (the store
# past the end) when the kernel is compiled with lineinfo=True:
# "at oob__a1Cf32+0x.. in .../oob.py:10" (scripts/gpu_tools.sh).
from numba import cuda


@cuda.jit("void(float32[::1])", lineinfo=True)
def oob(a):
    i = cuda.grid(1)
    a[i + 1000000] = 1.0
