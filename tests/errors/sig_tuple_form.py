"""Signatures: types.Tuple takes one sequence of element types, as
numba.types spells it (types.Tuple((types.int64, types.float32)))"""
from numba import cuda, types

# ARGS: check %s


@cuda.jit(types.void(types.Tuple(types.int64, types.float32), types.float32[:]))
def k(t, out):
    out[0] = t[0] * t[1]
