# ARGS: check %s
# What a module runs on import (decorators, constants) does not see the
# kernel file's names either.
from numba import cuda
from errmods.no_cuda_import import g, STEP

ONLY_IN_MAIN = 1


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = g(a[0]) + STEP
