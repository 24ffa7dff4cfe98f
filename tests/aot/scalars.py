"""Kernels for tests/aot.sh: scalar parameters of every width (their packing
on both targets), a bool, several signatures of one kernel, a strided
array, dynamic shared memory and a debug check."""
from numba import cuda
import numpy as np


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1], int64, boolean)")
def saxpy(a, x, y, out, n, neg):
    i = cuda.grid(1)
    if i < n:
        v = a * x[i] + y[i]
        out[i] = -v if neg else v


@cuda.jit(["void(int8, int16, int32, uint8, uint16, uint32, uint64, float64, int64[::1])",
           "void(int8, int16, int32, uint8, uint16, uint32, uint64, float64, float64[::1])"])
def widths(a, b, c, d, e, f, g, h, out):
    if cuda.grid(1) == 0:
        out[0] = a + b + c + d + e + f + g + h


@cuda.jit("void(float64[:, :], float64[::1])")
def row_sums(m, out):
    i = cuda.grid(1)
    if i < m.shape[0]:
        s = 0.0
        for j in range(m.shape[1]):
            s += m[i, j]
        out[i] = s


@cuda.jit("void(int32[::1], int32[::1])")
def reverse_blocks(x, out):
    buf = cuda.shared.array(0, dtype=np.int32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * cuda.blockDim.x + t
    if i < x.size:
        buf[t] = x[i]
    cuda.syncthreads()
    if i < x.size:  # whole blocks only: each reads its own block's values
        out[i] = buf[cuda.blockDim.x - 1 - t]


@cuda.jit("void(int32[::1], int64)", debug=True)
def poke(x, i):
    x[i] = 1


@cuda.jit("void(CPointer(int32), CPointer(float64), uint32)")
def ptr_axpy(p, q, n):
    # raw pointers (types.CPointer): the launcher takes int32_t * and double *
    i = cuda.grid(1)
    if i < n:
        q[i] = 0.5 * p[i] + q[i]
        p[i] = -p[i]
