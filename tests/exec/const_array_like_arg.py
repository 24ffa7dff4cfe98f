"""cuda.const.array_like on a kernel's array argument is the argument
itself, as Numba lowers it (a no-op on any array: only a module-level NumPy
constant becomes constant memory), so lattice codes that pass their
velocity table and wrap it (`cv = cuda.const.array_like(v)`) compile.
Writes through the result reach the argument, as in Numba."""
import numpy as np
from numba import cuda

W = np.array([1.0, 2.0, 4.0])


@cuda.jit
def weighted(v, out):
    cv = cuda.const.array_like(v)
    cw = cuda.const.array_like(W)
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = cv[i, 0] * cw[i % 3] + cv[i, 1]


@cuda.jit
def write_through(a):
    c = cuda.const.array_like(a)
    i = cuda.grid(1)
    if i < c.size:
        c[i] = c[i] * 2 + 1


# RUN: weighted --grid 1 --block 4 v=arange:f64:4x2 out=zeros:f64:4
# EXPECT: out: float64[4] [1, 7, 21, 13] sum=42 crc=861390c8
#   (computed in Python from: [2 * i * [1, 2, 4][i % 3] + 2 * i + 1 for i in range(4)] with v = arange(8).reshape(4, 2))
# RUN: write_through --grid 1 --block 4 a=arange:i64:4
# EXPECT: a: int64[4] [1, 3, 5, 7] sum=16 crc=c0522d20
#   (computed in Python from: [2 * i + 1 for i in range(4)])
