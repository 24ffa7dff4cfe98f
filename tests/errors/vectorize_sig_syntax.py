# ARGS: check %s
# A malformed signature string is reported inside the string.
from numba import vectorize


@vectorize(['float32(float32, float32'], target='cuda')
def add(a, b):
    return a + b
