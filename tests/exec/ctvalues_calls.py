"""Values Numba freezes per call: a device function or cuda.atomic.add
passed to a device function and called there (specialised per function), a
dtype passed as an argument (a shared array's dtype, and called to convert),
an integer literal passed to the parameter a shared array's shape reads
(frozen into the callee), arr.dtype as a local array's dtype, and a local
variable assigned a constant as a shape."""
from numba import cuda, float32, int32
import numpy as np


@cuda.jit(device=True)
def twice(x):
    return x * 2


@cuda.jit(device=True)
def negate(x):
    return -x


@cuda.jit(device=True)
def apply(f, x):
    return f(x)


@cuda.jit(device=True)
def block_sum(out, vals, n, dtype, op, cast):
    sm = cuda.shared.array(n, dtype)
    t = cuda.threadIdx.x
    sm[t] = cast(vals[t])
    cuda.syncthreads()
    if t == 0:
        acc = dtype(0)
        for k in range(n):
            acc += sm[k]
        op(out, 0, acc)

# RUN: calls --grid 1 --block 8 vals=arange:float32:8 out=zeros:float32:1 r=zeros:float64:8
# EXPECT: out: float32[1] [28] sum=28 crc=7ee15df6
#   (computed in Python from: [float(sum(range(8)))])
# EXPECT: r: float64[8] [0, 5, 10, ..., 35] sum=140 crc=5c475893
#   (computed in Python from: [(2.0 * i - i) + 4 * i for i in range(8)])


@cuda.jit
def calls(vals, out, r):
    i = cuda.grid(1)
    block_sum(out, vals, 8, float32, cuda.atomic.add, int32)
    loc = cuda.local.array(4, vals.dtype)
    m = 4
    tmp = cuda.local.array(m, np.float64)
    loc[0] = vals[i]
    tmp[1] = loc[0] * 4
    r[i] = apply(twice, vals[i]) + apply(negate, vals[i]) + tmp[1]
