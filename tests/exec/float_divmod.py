"""Python floor division and modulo of floats, negatives and infinite
divisors included: the remainder takes the divisor's sign, the quotient is
floored (CPython's float_divmod, Numba's real_divmod, whose remainder is
LLVM's frem).  Quotients here are small, where the GPU's frem (x - trunc(x
/ y) * y) is exact, so both targets print Python's values."""
import math

from numba import cuda, float32

DIV = (4.0, -0.75, 3.5, -2.0, 1.25)


@cuda.jit
def divmod_f64(x, q, r):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i] - 20.5
        b = DIV[i % 5]
        q[i] = a // b
        r[i] = a % b


@cuda.jit
def divmod_f32(x, q, r):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i] - float32(20.5)
        b = float32(DIV[i % 5])
        q[i] = a // b
        r[i] = a % b


@cuda.jit
def mod_inf(x, r, s):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i] - 2.5
        r[i] = a % math.inf
        s[i] = a % -math.inf


# RUN: divmod_f64 --grid 1 --block 64 x=arange:f64:40 q=zeros:f64:40 r=zeros:f64:40
# EXPECT: q: float64[40] [-6, 26, -6, ..., 14] sum=-1 crc=d7b59317
#   (computed in Python from: [(k - 20.5) // [4.0, -0.75, 3.5, -2.0, 1.25][k % 5] for k in range(40)])
# EXPECT: r: float64[40] [3.5, -0, 2.5, ..., 1] sum=27.25 crc=e1d8379f
#   (computed in Python from: [(k - 20.5) % [4.0, -0.75, 3.5, -2.0, 1.25][k % 5] for k in range(40)])
# RUN: divmod_f32 --grid 1 --block 64 x=arange:f32:40 q=zeros:f32:40 r=zeros:f32:40
# EXPECT: q: float32[40] [-6, 26, -6, ..., 14] sum=-1 crc=fb5259ce
#   (computed in Python from: [(k - 20.5) // [4.0, -0.75, 3.5, -2.0, 1.25][k % 5] for k in range(40)])
# EXPECT: r: float32[40] [3.5, -0, 2.5, ..., 1] sum=27.25 crc=58d68f9f
#   (computed in Python from: [(k - 20.5) % [4.0, -0.75, 3.5, -2.0, 1.25][k % 5] for k in range(40)])
# RUN: mod_inf --grid 1 --block 8 x=arange:f64:5 r=zeros:f64:5 s=zeros:f64:5
# EXPECT: r: float64[5] [inf, inf, inf, 0.5, 1.5] sum=inf crc=007edb70
#   (computed in Python from: [(k - 2.5) % math.inf for k in range(5)])
# EXPECT: s: float64[5] [-2.5, -1.5, -0.5, -inf, -inf] sum=-inf crc=ffded430
#   (computed in Python from: [(k - 2.5) % -math.inf for k in range(5)])
