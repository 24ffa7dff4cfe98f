# ARGS: check %s
# A module does not see the kernel file's names (Python: NameError).
from numba import cuda
from errmods.uses_main import leak

ONLY_IN_MAIN = 3


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = leak(a[0])
