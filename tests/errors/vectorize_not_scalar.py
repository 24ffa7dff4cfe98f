# ARGS: check %s
# A @vectorize function is written for one element: indexing is an error.
from numba import vectorize


@vectorize(['float32(float32)'], target='cuda')
def first(a):
    return a[0] + 1
