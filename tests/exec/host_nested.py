"""Kernels defined inside host functions (a common shape of real code: a
function defines a @cuda.jit kernel, allocates, launches it).  Numba compiles
the kernel when the function launches it, freezing what it reads of the
function's variables; kjit compiles it without running the function, named
FUNCTION.KERNEL, when what it reads is known at compile time: locals assigned
once from constants, @cuda.jit defs of the function, and, when the function
is named as a call with constant arguments (FILE:'run(None, 3).fill'), its
parameters."""
import numpy as np
from numba import cuda

SCALE = 3


def run(x, tpb=16):
    n = x.shape[0]
    K = 4
    W = K * 2 + 1

    @cuda.jit(device=True)
    def twice(v):
        return v * 2 + K

    @cuda.jit
    def plain(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = twice(a[i]) + W * SCALE

    @cuda.jit
    def fill(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = tpb + i

    out = np.zeros(n)
    plain[1, tpb](out)
    fill[1, tpb](out)
    return out


def with_host_code():
    d_out = cuda.device_array(8, dtype=np.float32)
    for step in range(2):
        print(step)

    @cuda.jit
    def neg(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = -a[i]

    neg[1, 8](d_out)
    return d_out.copy_to_host()


# RUN: run.plain --grid 1 --block 8 a=arange:f64:8
# EXPECT: a: float64[8] [31, 33, 35, ..., 45] sum=304 crc=e8d2cb84
#   (computed in Python from: [2 * i + 4 + 9 * 3 for i in range(8)])
# RUN: 'run(None, 3).fill' --grid 1 --block 8 a=zeros:f32:8
# EXPECT: a: float32[8] [3, 4, 5, ..., 10] sum=52 crc=6d7163c7
#   (computed in Python from: [3 + i for i in range(8)])
# RUN: 'run(None).fill' --grid 1 --block 8 a=zeros:f32:8
# EXPECT: a: float32[8] [16, 17, 18, ..., 23] sum=156 crc=ebd97a0c
#   (computed in Python from: [16 + i for i in range(8)]: the default of tpb)
# RUN: with_host_code.neg --grid 1 --block 8 a=arange:i32:8
# EXPECT: a: int32[8] [0, -1, -2, ..., -7] sum=-28 crc=1537ccc7
#   (computed in Python from: [-i for i in range(8)])
