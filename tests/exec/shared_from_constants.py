"""Shared arrays sized and typed by module constants that host code
computes, as Numba reads them when the kernel compiles (numba-cuda's
test_reduction and test_sm's test_issue_5073): len() of a constant array
or tuple, A.dtype of a constant array, numba.from_dtype(dtype)."""
from numba import cuda
from numba.cuda.np import numpy_support as nps
import numpy as np
from numba.cuda.types import int32

a = cuda.to_device(np.arange(32))
nelem = len(a)
arr = np.arange(8, dtype=np.int16)
dt = nps.from_dtype(arr.dtype)
SHAPE = (4, 2)
ROWS = len(SHAPE) * 4

# RUN: array_sum --grid 1 --block 32 data=arange:int64:32
# EXPECT: data: int64[32] [496, 1, 2, ..., 31] sum=992 crc=87549257
#   (computed in Python from: [sum(range(32))] + list(range(1, 32)))
# RUN: typed_copy --grid 1 --block 8 x=arange:int64:8 y=zeros:float64:8
# EXPECT: y: float64[8] [6, 5006, 10006, ..., -30530] sum=74512 crc=792fdbee
#   (computed in Python from: [float(((i * 5000) + 32768) % 65536 - 32768) + 2 + 4 for i in range(8)])


@cuda.jit
def array_sum(data):
    tid = cuda.threadIdx.x
    shr = cuda.shared.array(nelem, int32)
    shr[tid] = data[tid]
    cuda.syncthreads()
    s = 1
    while s < cuda.blockDim.x:
        if tid % (2 * s) == 0:
            shr[tid] += shr[tid + s]
        s *= 2
        cuda.syncthreads()
    if tid == 0:
        data[tid] = shr[tid]


@cuda.jit
def typed_copy(x, y):
    sm = cuda.shared.array(ROWS, dtype=dt)
    i = cuda.threadIdx.x
    sm[i % ROWS] = x[i] * 5000
    y[i] = sm[i % ROWS] + arr.size // 4 + ROWS // 2
