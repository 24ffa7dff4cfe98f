# ARGS: check %s
# Each signature lists one type per parameter of the function.
from numba import vectorize


@vectorize(['float32(float32, float32)', 'float64(float64)'], target='cuda')
def add(a, b):
    return a + b
