# ARGS: ptx %s errors/bad_arch.py -o out.ptx
# Several inputs cannot be written to one -o FILE: give -o DIR or no -o.
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = 1
