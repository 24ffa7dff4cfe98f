# ARGS: check %s
# An imported helper is lowered only when a compiled function uses it:
# errmods.mixed.cpu_only is never reported, errmods.mixed.used is.
from numba import cuda
from errmods.mixed import used


@cuda.jit("void(float32[:])")
def k(a):
    a[0] = used(a[0])
