# Assignment to array slices through ptxas, with and without --debug (the
# shape check reports and traps; without it the thread exits).
# tests/exec/slice_assign.py runs them.
# ARGS: ptx %s:mixed --sig "void(float32[:], float32[:], float32[:, :])"
# ARGS: ptx %s:copy2d --sig "void(float64[:, ::1], int32[:, :])"
# ARGS: ptx %s:copy2d --sig "void(float64[:, ::1], int32[:, :])" --debug
# ARGS: ptx %s:shared_fill --sig "void(float32[::1])"
from numba import cuda, float32


@cuda.jit
def mixed(a, b, m):
    a[:] = 0
    a[2:5] = b[2:5]
    a[::2] = 9
    m[1, :] = b[0:4]
    m[:, 3] = -1


@cuda.jit
def copy2d(dst, src):
    i = cuda.grid(1)
    if i < dst.shape[0]:
        dst[i, :] = src[i, :]
    dst[0:2, :] = src[0]


@cuda.jit
def shared_fill(out):
    s = cuda.shared.array(8, float32)
    if cuda.threadIdx.x == 0:
        s[:] = 2.5
    cuda.syncthreads()
    out[cuda.threadIdx.x] = s[cuda.threadIdx.x]
