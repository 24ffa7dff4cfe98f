"""2-D five-point stencil (Jacobi step) over the interior of a grid."""
from numba import cuda
import numpy as np


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def jacobi_step(u, out):
    i, j = cuda.grid(2)
    n, m = u.shape
    if 0 < i < n - 1 and 0 < j < m - 1:
        out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
    elif i < n and j < m:
        out[i, j] = u[i, j]


@cuda.jit("void(float64[:, :], float64[:, :], float64)")
def laplacian(u, out, h):
    i, j = cuda.grid(2)
    if i >= 1 and j >= 1 and i < u.shape[0] - 1 and j < u.shape[1] - 1:
        out[i, j] = (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]
                     - 4 * u[i, j]) / (h * h)


if __name__ == "__main__":
    u = np.random.rand(128, 128).astype(np.float32)
    out = np.zeros_like(u)
    jacobi_step[(8, 8), (16, 16)](u, out)
