"""Signatures: tuple parameters hold numbers, arrays or tuples of them; a
tuple of void is refused by name"""
from numba import cuda

# ARGS: check %s


@cuda.jit("void(UniTuple(void, 2))")
def k(t):
    pass
