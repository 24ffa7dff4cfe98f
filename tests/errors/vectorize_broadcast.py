# ARGS: run %s:add --target cpu arange:float32:3 arange:float32:2x4
# Shapes (3,) and (2, 4) do not broadcast (NumPy's rule).
from numba import vectorize


@vectorize(['float32(float32, float32)'], target='cuda')
def add(a, b):
    return a + b
