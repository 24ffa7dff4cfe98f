"""NumPy ufuncs with an output array in a kernel, as Numba compiles them:
np.sqrt(x, out) (positional) and np.add(a, b, out=m) (keyword), operands
broadcast onto the output's shape (a row, a number), integer operands
through the float loop, a predicate into a bool array, a strided view as
the output, and the call's value being the output array (NumPy returns
it).  Every element is computed in the loop type NumPy picks and stored
converted to the output's dtype (casting='same_kind')."""
import numpy as np
from numba import cuda


@cuda.jit
def roots(r, x):
    np.sqrt(x, r)


@cuda.jit
def grid(m, a, row, ints, f, flags):
    np.add(a, row, out=m)
    y = np.multiply(m, 2.0, m)
    y[0, 0] = -1.0
    np.sqrt(ints, f)
    np.maximum(f[::2], 1.5, out=f[::2])
    np.isnan(a[0], flags)


# RUN: roots --grid 1 --block 1 r=zeros:f64:5 x=arange:f64:5
# EXPECT: r: float64[5] [0, 1, 1.41421, 1.73205, 2] sum=6.14626437 crc=a86772e2
#   (computed in Python from: [math.sqrt(i) for i in range(5)])
# RUN: grid --grid 1 --block 1 m=zeros:f64:3x4 a=arange:f64:3x4 row=arange:f32:4 ints=arange:i64:6 f=zeros:f32:6 flags=full:bool:4:1
# EXPECT: m: float64[3x4] [-1, 4, 8, ..., 28] sum=167 crc=6f670da0
#   (computed in Python from: [-1.0] + [2.0 * (4 * i + j + j) for i in range(3) for j in range(4)][1:])
# EXPECT: f: float32[6] [1.5, 1, 1.5, 1.73205, 2, 2.23607] sum=9.968118787 crc=e6755e33
#   (computed in Python from: [f32(max(math.sqrt(i), 1.5)) if i % 2 == 0 else f32(math.sqrt(i)) for i in range(6)])
# EXPECT: flags: bool[4] [False, False, False, False] sum=0 crc=2144df1c
#   (computed in Python from: [False, False, False, False])
