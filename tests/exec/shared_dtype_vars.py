"""cuda.shared.array / cuda.local.array whose dtype is a module variable
holding a compile-time dtype, in the forms numba-cuda's test_sm uses: the
numba type of a host array's dtype (dt = numpy_support.from_dtype(arr.dtype)
with arr = np.recarray(n, dtype=rec)), a NumPy constructor's dtype, a numba
type held in a variable.  Numba reads these values when it compiles."""
import numpy as np
from numba import cuda, float32
from numba.cuda.np import numpy_support as nps

# RUN: use_sm_chunk_copy --grid 2 --block 16 "x=arange:[('i', 'i4'), ('j', 'f4', (3, 2))]:32" "y=zeros:[('i', 'i4'), ('j', 'f4', (3, 2))]:32"
# EXPECT: y.i: int32[32] [0, 1, 2, ..., 31] sum=496 crc=c4edd0b0
#   (computed in Python from: list(range(32)))
# EXPECT: y.j: float32[32x3x2] [0, 1, 2, ..., 191] sum=18336 crc=78129b09
#   (computed in Python from: [6 * i + k for i in range(32) for k in range(6)])

# RUN: local_copy --grid 1 --block 8 x=arange:float64:8 y=zeros:float64:8 z=zeros:float32:8
# EXPECT: y: float64[8] [0, 2, 4, ..., 14] sum=56 crc=20dc48c1
#   (computed in Python from: [v * 2 for v in range(8)])
# EXPECT: z: float32[8] [0.5, 1.5, 2.5, ..., 7.5] sum=32 crc=6f93fdb3
#   (computed in Python from: [v + 0.5 for v in range(8)])

recordwith2darray = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])
arr = np.recarray(128, dtype=recordwith2darray)
nthreads = 16
dt = nps.from_dtype(arr.dtype)          # Record(i int32, j float32 (3, 2))
buf = np.zeros(8, dtype=np.float64)
bdt = buf.dtype                          # float64
ft = float32                             # a numba type in a variable


@cuda.jit
def use_sm_chunk_copy(x, y):
    sm = cuda.shared.array(nthreads, dtype=dt)
    tx = cuda.threadIdx.x
    bx = cuda.blockIdx.x
    bd = cuda.blockDim.x
    i = bx * bd + tx
    if i < len(x):
        sm[tx] = x[i]
    cuda.syncthreads()
    if tx == 0:
        for j in range(nthreads):
            y[bd * bx + j] = sm[j]


@cuda.jit
def local_copy(x, y, z):
    i = cuda.grid(1)
    a = cuda.local.array(2, dtype=bdt)
    b = cuda.local.array(1, ft)
    a[0] = x[i]
    a[1] = a[0] * 2
    b[0] = a[0] + 0.5
    y[i] = a[1]
    z[i] = b[0]
