# ARGS: run %s:add --target cpu arange:float32:4 1.0 out=zeros:float32:5
# The out array must have the broadcast shape of the inputs.
from numba import vectorize


@vectorize(['float32(float32, float32)'], target='cuda')
def add(a, b):
    return a + b
