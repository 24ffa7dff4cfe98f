"""arr.reshape(...) with eager signatures: constant, run-time and inferred
(-1) shapes, as ints and as a tuple."""
from numba import cuda


@cuda.jit("void(int64[::1], int64, int64, int64[:, ::1])")
def rows_cols(arr, r, c, got):
    y = arr.reshape((r, c))
    for i in range(y.shape[0]):
        for j in range(y.shape[1]):
            got[i, j] = y[i, j]


@cuda.jit("void(float32[:, :, ::1], float64[::1])")
def flatten(a, out):
    i = cuda.grid(1)
    flat = a.reshape(-1)
    if i < flat.size:
        out[i] = flat[i] + a.reshape(a.shape[0], -1)[0, 0]
