from numba import cuda


@cuda.jit(device=True)
def f(x):
    return x +
