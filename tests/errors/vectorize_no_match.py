# ARGS: run %s:add --target cpu arange:int64:3 arange:int64:3
# int64 converts safely to neither float32 (nor int32): no signature fits.
from numba import vectorize


@vectorize(['float32(float32, float32)', 'int32(int32, int32)'], target='cuda')
def add(a, b):
    return a + b
