from numba import cuda


@cuda.jit(device=True)
def leak(x):
    return x + ONLY_IN_MAIN
