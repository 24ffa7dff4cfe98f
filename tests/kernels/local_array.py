"""Per-thread local arrays with constant shapes (literals and globals)."""
from numba import cuda, float64, int32
import numpy as np

K = 8
SHAPE = (4, 4)


@cuda.jit("void(float64[:, :], float64[:])")
def row_sort_median(a, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    buf = cuda.local.array(K, dtype=float64)
    n = min(a.shape[1], K)
    for j in range(n):
        buf[j] = a[i, j]
    # insertion sort
    for j in range(1, n):
        key = buf[j]
        k = j - 1
        while k >= 0 and buf[k] > key:
            buf[k + 1] = buf[k]
            k -= 1
        buf[k + 1] = key
    out[i] = buf[n // 2]


@cuda.jit("void(int32[:])")
def local_2d(out):
    i = cuda.grid(1)
    m = cuda.local.array(SHAPE, int32)
    counts = cuda.local.array(shape=3, dtype=int32)
    for r in range(SHAPE[0]):
        for c in range(SHAPE[1]):
            m[r, c] = r * c + i
    for q in range(3):
        counts[q] = q
    if i < out.size:
        out[i] = m[3, 3] + counts[2]


if __name__ == "__main__":
    a = np.random.rand(64, 8)
    out = np.zeros(64)
    row_sort_median[1, 64](a, out)
