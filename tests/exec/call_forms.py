"""Decoration by call at top level, as Numba allows: `kern = cuda.jit(f)`,
`k2 = cuda.jit(sig)(f)`, `dev = cuda.jit(sigs, device=True)(f)` compile the
plain def f under the new name; a module variable naming a function
(`op = math.pow`) is called as that function."""
import math

from numba import cuda


def add(x, y):
    return x + y


add_device = cuda.jit(["int64(int64, int64)", "float64(float64, float64)"], device=True)(add)
op = math.pow


def kern_py(r, x, y):
    r[0] = add_device(x, y) + op(x, 2.0)
    r[1] = add_device(0.5, 0.25)


kern = cuda.jit(kern_py)

# RUN: kern --grid 1 --block 1 r=zeros:float64:2 x=3 y=4
# EXPECT: r: float64[2] [16, 0.75] sum=16.75 crc=7a1b9eb3
#   (computed in Python from: [7 + 9.0, 0.75])
