# ARGS: check %s
from numba import cuda
import errmods.util as util
from errmods.util import helpr


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = util.hlper(a[0]) + util.TBP
    a[1] = helpr(a[1])
    a[2] = util
