"""Array views in PTX: rows of C and strided arrays (the C view keeps the
contiguous addressing, the A view uses strides), clamped slices with a
negative step, a.T, views passed to a device function, iteration over rows
and zip, and dynamic shared memory split by slicing."""
from numba import cuda, float32


@cuda.jit(device=True)
def dot(x, y):
    s = 0.0
    for p, q in zip(x, y):
        s += p * q
    return s


@cuda.jit(["void(float32[:, ::1], float32[::1], float32[::1])",
           "void(float32[:, :], float32[:], float32[:])"])
def matvec(m, v, out):
    i = cuda.grid(1)
    if i < m.shape[0]:
        out[i] = dot(m[i], v)


@cuda.jit("void(float64[:, ::1], float64[:, ::1])")
def flip_transpose(a, out):
    i, j = cuda.grid(2)
    t = a.T[:, ::-1]
    if i < t.shape[0] and j < t.shape[1]:
        out[i, j] = t[i, j]


@cuda.jit("void(float32[:, :, ::1], float32[::1])")
def plane_sums(c, out):
    k = cuda.grid(1)
    if k < c.shape[0]:
        s = float32(0)
        for row in c[k, 1:-1]:
            for x in row[::2]:
                s += x
        out[k] = s


@cuda.jit("void(float32[::1], float32[::1], int64)")
def split_shared(x, out, n):
    sm = cuda.shared.array(0, float32)
    a = sm[:n]
    b = sm[n:2 * n]
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if t < n and i < x.size:
        a[t] = x[i]
        b[t] = 2 * x[i]
    cuda.syncthreads()
    if t < n and i < x.size:
        out[i] = a[n - 1 - t] + b[t]
