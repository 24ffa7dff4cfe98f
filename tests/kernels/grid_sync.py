"""Grid barriers with eager signatures: g.sync() in a loop, chained
cuda.cg.this_grid().sync(), and this_grid() alone (a cooperative kernel)."""
from numba import cuda


@cuda.jit("void(int32[:, ::1])")
def sequential_rows(M):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, M.shape[0]):
        M[row, col] = M[row - 1, M.shape[1] - col - 1] + 1
        g.sync()


@cuda.jit("void(float64[::1])")
def chained(a):
    i = cuda.grid(1)
    a[i] = i
    cuda.cg.this_grid().sync()
    a[i] += a[a.size - 1 - i]


@cuda.jit("void(float64[::1])")
def this_grid(A):
    cuda.cg.this_grid()
    A[0] = 1.0
