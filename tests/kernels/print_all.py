"""print with strings, ints, floats and bools (device printf)."""
from numba import cuda
import numpy as np


@cuda.jit("void(float32[:], int64)")
def show(a, n):
    i = cuda.grid(1)
    if i == 0:
        print("n =", n)
        print(a[0], a[1] * 2, n > 3)
        print("float64", 1.5, "int", 7, "bool", True, False)
        print(cuda.threadIdx.x, cuda.blockIdx.y, np.float32(0.25), np.int8(-4))
        print()


if __name__ == "__main__":
    pass
