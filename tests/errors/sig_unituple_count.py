"""Signatures: types.UniTuple needs its element count as a literal"""
from numba import cuda, types

# ARGS: check %s


@cuda.jit("void(UniTuple(float32, 0), float32[:])")
def k(t, out):
    out[0] = 1
