from numba import cuda

from . import vec3


@cuda.jit
def k(a):
    a[0] = vec3.abs2rel(a[0], a[1], a[2])
