"""Raw pointer arguments: parameters typed types.CPointer(T) (Numba's
CPointer) index as p[i] with one integer, load and store the pointee's
type, pass on to device functions; `kjit run` gives one as NAME=ptr:VALUE
(the address of the array VALUE, printed afterwards as arrays are).  The
first three kernels are numba-cuda's own (test_cpointer, test_dispatcher)."""
import numpy as np
from numba import cuda, types, float32, int32, uint32
from numba.cuda.np.numpy_support import carray, farray

# RUN: add_one --grid 1 --block 32 x=ptr:arange:uint8:10 n=10
# EXPECT: x: uint8[10] [1, 2, 3, ..., 10] sum=55 crc=2520577b
#   (computed in Python from: [v + 1 for v in range(10)])

# RUN: axpy --grid 1 --block 32 r=ptr:zeros:int32:10 a=5 x=ptr:arange:int32:10 y=ptr:full:int32:10:3 n=10
# EXPECT: r: int32[10] [3, 8, 13, ..., 48] sum=255 crc=af6ff0f8
#   (computed in Python from: [5 * v + 3 for v in range(10)])

# RUN: scale_dev --grid 2 --block 8 p=ptr:arange:float32:12 out=zeros:float64:12 n=12
# EXPECT: out: float64[12] [0, 5, 10, ..., 55] sum=330 crc=0b6a04cf
#   (computed in Python from: [2.5 * v * 2 for v in range(12)])
# EXPECT: p: float32[12] [0, 2.5, 5, ..., 27.5] sum=165 crc=b2da313c
#   (computed in Python from: [2.5 * v for v in range(12)])

# RUN: lazy_sum --grid 1 --block 8 p=ptr:arange:int32:8 q=ptr:full:float32:8:0.5 out=zeros:float64:8
# EXPECT: out: float64[8] [1.5, 3.5, 5.5, ..., 7.5] sum=60 crc=c6808247
#   (computed in Python from: [v + 0.5 + (v + 1) % 8 for v in range(8)])

# RUN: string_sig --grid 1 --block 4 p=ptr:arange:int64:4 k=7
# EXPECT: p: int64[4] [-1, 6, 13, 20] sum=38 crc=c1f65831
#   (computed in Python from: [v * 7 - 1 for v in range(4)])

sig = types.void(types.CPointer(types.uint8), types.uint32)


@cuda.jit(sig)
def add_one(x, n):
    i = cuda.grid(1)
    if i < n:
        x[i] += 1


ptr = types.CPointer(types.int32)


@cuda.jit(types.void(ptr, int32, ptr, ptr, uint32))
def axpy(r, a, x, y, n):
    i = cuda.grid(1)
    if i < n:
        r[i] = a * x[i] + y[i]


@cuda.jit(device=True)
def twice(p, i):
    return p[i] * 2


@cuda.jit(types.void(types.CPointer(float32), types.float64[:], types.int64))
def scale_dev(p, out, n):
    i = cuda.grid(1)
    if i < n:
        p[i] *= 2.5          # float32 * float64 stored back as float32
        out[i] = twice(p, i)


@cuda.jit
def lazy_sum(p, q, out):
    # lazy: specialized on (int32*, float32*, array(float64, 1d, C))
    i = cuda.grid(1)
    j = np.uint32((i + 1) % 8)   # an unsigned index
    out[i] = p[i] + q[np.int32(i)] + p[j]


@cuda.jit("void(CPointer(int64), int64)")
def string_sig(p, k):
    i = cuda.threadIdx.x
    p[i] = p[i] * k - 1


# RUN: views --grid 1 --block 1 p=ptr:arange:float32:6 out=zeros:float32:2x3
# EXPECT: out: float32[2x3] [0, 102, 204, 301, 403, 505] sum=1515 crc=02af9bbe
#   (computed in Python from: [100 * (3 * i + j) + (i + 2 * j) for i in range(2) for j in range(3)])
# EXPECT: p: float32[6] [0, 1, 2, 3, 4, 1005] sum=1015 crc=84dcc51a
#   (computed in Python from: [v + (1000 if v == 5 else 0) for v in range(6)])

# RUN: count_into --grid 2 --block 32 p=ptr:zeros:uint32:4 n=64
# EXPECT: p: uint32[4] [16, 16, 16, 16] sum=64 crc=2a26fe83
#   (computed in Python from: [16, 16, 16, 16])


@cuda.jit(types.void(types.CPointer(float32), float32[:, :]))
def views(p, out):
    # numba-cuda's test_array._test_cfarray: carray/farray view a pointer
    a = carray(p, (2, 3), dtype=np.float32)   # C order: a[i, j] = p[3*i + j]
    b = farray(p, (2, 3))                     # Fortran order: b[i, j] = p[i + 2*j]
    c = carray(p, 6)
    for i in range(2):
        for j in range(3):
            out[i, j] = a[i, j] * 100 + b[i, j] + c[i * 3 + j] * 0
    a[1, 2] += 1000


@cuda.jit(types.void(types.CPointer(types.uint32), types.int64))
def count_into(p, n):
    # atomics take arrays: a carray over the pointer
    i = cuda.grid(1)
    if i < n:
        cuda.atomic.add(carray(p, 4), i % 4, 1)


# RUN: hinted --grid 1 --block 1 ptr=ptr:zeros:float32:4 values=arange:float32:4 n=4
# EXPECT: ptr: float32[4] [0, 1, 2, 3] sum=6 crc=25601b8b
#   (computed in Python from: [0, 1, 2, 3])
# EXPECT: values: float32[4] [0, 1, 3, 3] sum=7 crc=2a3811e7
#   (computed in Python from: [0 + 0, 1 + 0, 2 + 1, 3 + 0])


@cuda.jit(types.void(types.CPointer(float32), float32[:], types.intp))
def hinted(ptr, values, n):
    # numba-cuda's test_cache_hints f_ptr: cache-hinted stores and loads
    # through a pointer, in order (ptr[n-1-i] is read before it is stored)
    for i in range(n):
        cuda.stcs(ptr, i, values[i])
        values[i] = cuda.ldcg(ptr, i) + cuda.ldca(ptr, n - 1 - i)
