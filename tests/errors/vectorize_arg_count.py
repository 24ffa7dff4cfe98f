# ARGS: run %s:add --target cpu arange:float32:4 1.0 2.0
# Three values for a function of two inputs.
from numba import vectorize


@vectorize(['float32(float32, float32)'], target='cuda')
def add(a, b):
    return a + b
