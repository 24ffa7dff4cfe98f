"""numba-cuda's print has no form for tuples ("printing unimplemented for
values of type UniTuple(int64 x 2)"): refused by name, with a hint."""
# ARGS: check %s
from numba import cuda


@cuda.jit("void(int64[:])")
def k(a):
    t = (a[0], a[1])
    print("pair", t)
