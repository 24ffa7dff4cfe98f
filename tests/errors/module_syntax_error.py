# ARGS: check %s
# A syntax error in an imported module is reported in that file.
from numba import cuda
from errmods.syntax_bad import f


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = f(a[0])
