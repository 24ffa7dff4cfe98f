# ARGS: check %s
# Two modules import a name from each other and neither defines it.
from numba import cuda
from errmods.loop_a import shared_name


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = shared_name
