# The elementwise benchmark's ufunc (bench/gpu/elementwise.sh): out = a + b
# on float32, the same source under Numba and kjit.
# ARGS: ptx %s:add
from numba import vectorize


@vectorize(['float32(float32, float32)'], target='cuda')
def add(a, b):
    return a + b
