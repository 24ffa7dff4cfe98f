from numba import cuda


@cuda.jit(device=True)
def norm2(x, y, z):
    return x * x + y * y + z * z
