"""In-place update of an array element with an augmented assignment."""
from numba import cuda
import numpy as np


@cuda.jit("void(int32[:], int32[:])")
def increment_by_array(a, b):
    idx = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    if idx < b.size:
        b[idx] += a[idx]


@cuda.jit("void(float64[:], float64)")
def scale_in_place(a, factor):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] *= factor
        a[i] -= 1.0


if __name__ == "__main__":
    a = np.arange(1000, dtype=np.int32)
    b = np.ones_like(a)
    increment_by_array[4, 256](a, b)
    print(b[:10])
