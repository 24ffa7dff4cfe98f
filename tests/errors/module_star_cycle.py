# ARGS: check %s
# A name looked up through `import *` cycles (a package's __init__ and its
# modules star-importing each other) is reported at once: each module is
# followed once per lookup, not once per path through the cycle (which hung).
from numba import cuda

from errmods.starcyc import *


@cuda.jit("void(int64[:])")
def k(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a_VALUE + d_VALUE + not_defined_anywhere
