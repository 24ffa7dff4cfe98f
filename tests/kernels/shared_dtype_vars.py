# Shared and local arrays whose dtype is a module variable: the numba type
# of a host array's dtype (numba-cuda's test_sm use_sm_chunk_copy: a
# record of a nested float32 (3, 2) field), a constructor's dtype.
# ARGS: ptx %s:use_sm_chunk_copy --sig "void(np.dtype([('i', np.int32), ('j', np.float32, (3, 2))])[::1], np.dtype([('i', np.int32), ('j', np.float32, (3, 2))])[::1])"
# ARGS: ptx %s:local_copy --sig "void(float64[::1], float64[::1])"
import numpy as np
from numba import cuda
from numba.cuda.np import numpy_support as nps

recordwith2darray = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])
arr = np.recarray(128, dtype=recordwith2darray)
nthreads = 16
dt = nps.from_dtype(arr.dtype)
buf = np.empty(4, np.float64)
bdt = buf.dtype


@cuda.jit
def use_sm_chunk_copy(x, y):
    sm = cuda.shared.array(nthreads, dtype=dt)
    tx = cuda.threadIdx.x
    i = cuda.blockIdx.x * cuda.blockDim.x + tx
    if i < len(x):
        sm[tx] = x[i]
    cuda.syncthreads()
    if tx == 0:
        for j in range(nthreads):
            y[cuda.blockDim.x * cuda.blockIdx.x + j] = sm[j]


@cuda.jit
def local_copy(x, y):
    i = cuda.grid(1)
    a = cuda.local.array(2, dtype=bdt)
    a[0] = x[i]
    y[i] = a[0] * 2
