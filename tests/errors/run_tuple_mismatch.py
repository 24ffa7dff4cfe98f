"""kjit run: a tuple whose length differs from the eager signature's
UniTuple is refused, naming both types"""
from numba import cuda

# ARGS: run %s:k --grid 1 --block 1 --target cpu "t=(1, 2)" out=zeros:f32:1


@cuda.jit("void(UniTuple(float32, 3), float32[:])")
def k(t, out):
    out[0] = t[0] + t[1] + t[2]
