# ARGS: ptx %s ./%s -o errors
# -o DIR writes DIR/NAME.ptx per input: two inputs named NAME would write
# one file, so nothing is compiled.
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = 1
