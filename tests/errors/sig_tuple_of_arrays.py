"""Signatures: tuple parameters hold numbers or tuples of numbers; a tuple
of arrays is refused by name"""
from numba import cuda

# ARGS: check %s


@cuda.jit("void(UniTuple(float32[:], 2))")
def k(t):
    t[0][0] = t[1][0]
