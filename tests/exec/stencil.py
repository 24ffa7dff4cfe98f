"""5-point Laplacian of v*v over a 2-D float64 grid; the boundary stays 0.
For v = 16*i + j the interior value is 2*(256 + 1) = 514 everywhere."""
from numba import cuda

# RUN: laplace --grid 2,2 --block 8,8 a=arange:float64:16x16 out=zeros:float64:16x16
# EXPECT: out: float64[16x16] [0, 0, 0, ..., 0] sum=100744 crc=08d2cbde
#   (computed in Python from: [514.0 if 0 < k // 16 < 15 and 0 < k % 16 < 15 else 0.0 for k in range(256)])


@cuda.jit
def laplace(a, out):
    j, i = cuda.grid(2)
    n, m = a.shape
    if 0 < i < n - 1 and 0 < j < m - 1:
        c = a[i, j] * a[i, j]
        out[i, j] = (a[i - 1, j] ** 2 + a[i + 1, j] ** 2 + a[i, j - 1] ** 2 +
                     a[i, j + 1] ** 2 - 4 * c)
