# Functions, dtypes and frozen constants as values (see tests/exec/ctvalues_calls.py).
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



@cuda.jit("void(float32[::1], float32[::1], float64[::1])")
def calls(vals, out, r):
    i = cuda.grid(1)
    block_sum(out, vals, 8, float32, cuda.atomic.add, int32)
    loc = cuda.local.array(4, vals.dtype)
    m = 4
    tmp = cuda.local.array(m, np.float64)
    loc[0] = vals[i]
    tmp[1] = loc[0] * 4
    r[i] = apply(twice, vals[i]) + apply(negate, vals[i]) + tmp[1]
