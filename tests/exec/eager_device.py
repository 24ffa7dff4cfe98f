"""A device function compiled for a declared signature converts the
caller's arguments to it, as Numba's dispatcher does: an int64 passed to a
float32 parameter rounds to float32 (16777217 -> 16777216), and the result
has the declared type.  With several signatures, the one reached by the
cheapest conversions is called (exact, then safe, then unsafe)."""
from numba import cuda, float32, float64, int32, int64

# RUN: caller --grid 1 --block 1 out=zeros:float64:4 n=16777217
# EXPECT: out: float64[4] [1.67772e+07, 2.5, 7, 6] sum=16777231.5 crc=a7d8dbea
#   (computed in Python from: [16777216.0, 2.5, 7.0, 6.0])


@cuda.jit(float32(float32, float32), device=True)
def add32(a, b):
    return a + b


@cuda.jit([int64(int64), float64(float64)], device=True)
def half(x):
    return x / 2


@cuda.jit("float64(int32)", device=True)
def twice(x):
    return x * 2


@cuda.jit
def caller(out, n):
    out[0] = add32(n, 1)     # float32(16777217) is 16777216; + 1 rounds back
    out[1] = half(5.0)       # float64 overload: 2.5
    out[2] = half(14)        # int64 overload: 14 / 2 = 7.0 converted to int64 7
    out[3] = twice(3.9)      # float64 -> int32 truncates: 3 * 2
