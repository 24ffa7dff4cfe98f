# ARGS: ptx %s errors/bad_arch.py --emit cubin
# Binary cubins of several inputs are not concatenated on stdout.
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = 1
