"""debug=True: every array index is checked; the PTX prints and traps."""
from numba import cuda


@cuda.jit("void(float32[:, :], int32[::1], float64[::1])", debug=True)
def bounds_debug(a, h, out):
    i, j = cuda.grid(2)
    cuda.atomic.add(h, i, 1)
    out[-1 - j] = a[i, j] + a[-i, -j]


@cuda.jit("void(float32[::1])", boundscheck=True)
def bounds_check_only(a):
    i = cuda.grid(1)
    a[i] = a[i - 1]
