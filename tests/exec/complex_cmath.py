"""cmath on complex128 over a grid of points in all four quadrants, stored
into complex64 (so the check is on float32-rounded values: a last-bit
difference from CPython's cmath in float64 does not show)."""
import cmath
from numba import cuda

# RUN: cm --grid 1 --block 32 out=zeros:c8:16x32
# EXPECT: out: complex64[16x32] [(0.431225-1.39139j), (0.491311-1.22122j), (0.57667-1.04046j), ..., (0.412367+1.27789j)] sum=210.5154116 crc=5add6c40
#   (computed in Python from: [f(complex((k % 8) * 0.5 - 1.75, (k // 8) * 0.75 - 1.2)) for f in (cmath.sqrt, cmath.exp, cmath.log, cmath.log10, cmath.sin, cmath.cos, cmath.tan, cmath.asin, cmath.acos, cmath.atan, cmath.sinh, cmath.cosh, cmath.tanh, cmath.asinh, cmath.acosh, cmath.atanh) for k in range(32)])


@cuda.jit
def cm(out):
    k = cuda.threadIdx.x
    z = complex((k % 8) * 0.5 - 1.75, (k // 8) * 0.75 - 1.2)
    out[0, k] = cmath.sqrt(z)
    out[1, k] = cmath.exp(z)
    out[2, k] = cmath.log(z)
    out[3, k] = cmath.log10(z)
    out[4, k] = cmath.sin(z)
    out[5, k] = cmath.cos(z)
    out[6, k] = cmath.tan(z)
    out[7, k] = cmath.asin(z)
    out[8, k] = cmath.acos(z)
    out[9, k] = cmath.atan(z)
    out[10, k] = cmath.sinh(z)
    out[11, k] = cmath.cosh(z)
    out[12, k] = cmath.tanh(z)
    out[13, k] = cmath.asinh(z)
    out[14, k] = cmath.acosh(z)
    out[15, k] = cmath.atanh(z)
