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


# numba-cuda's test_array_reshape: a 6-d C array in, 1 to 3 dimensions out.
@cuda.jit("void(int64[:, :, :, :, :, ::1], UniTuple(int64, 3), int64[:, :, ::1])")
def from_6d(arr, newshape, got):
    y = arr.reshape(newshape)
    for i in range(y.shape[0]):
        for j in range(y.shape[1]):
            for k in range(y.shape[2]):
                got[i, j, k] = y[i, j, k]


# 8 dimensions, strided, indexed, sliced and transposed.
@cuda.jit("void(float32[:, :, :, :, :, :, :, :], float32[:, :, :, :, :, :, :, ::1])")
def eight(a, out):
    t = a[:, :, :, :, :, :, :, ::-1]
    v = a[0, :, 1, :, 0, :, 0, :]
    out[0, 0, 0, 0, 0, 0, 0, 0] = t[1, 0, 1, 0, 1, 0, 1, 0] + v[0, 0, 0, 0] + v.shape[3]
