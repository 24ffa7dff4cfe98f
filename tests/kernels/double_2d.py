"""A 2-D grid doubling every element, with a bounds check on .shape."""
from numba import cuda
import numpy as np


@cuda.jit("void(float32[:, :])")
def double_elements(a):
    x, y = cuda.grid(2)
    if x < a.shape[0] and y < a.shape[1]:
        a[x, y] *= 2


@cuda.jit("void(float64[:, ::1], float64[:, ::1])")
def double_into(src, dst):
    row, col = cuda.grid(2)
    rows, cols = src.shape
    if row < rows and col < cols:
        dst[row, col] = 2.0 * src[row, col]


if __name__ == "__main__":
    a = np.ones((100, 60), dtype=np.float32)
    threads = (16, 16)
    blocks = ((a.shape[0] + 15) // 16, (a.shape[1] + 15) // 16)
    double_elements[blocks, threads](a)
    assert (a == 2).all()
