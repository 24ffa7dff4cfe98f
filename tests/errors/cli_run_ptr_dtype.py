# ARGS: run %s:k --grid 1 --block 1 --target cpu p=ptr:zeros:float64:4 n=1
# The array behind ptr:VALUE gives the pointee's type (float64*), which
# must match the signature's CPointer (float32*), as for arrays.
from numba import cuda, types


@cuda.jit(types.void(types.CPointer(types.float32), types.int64))
def k(p, n):
    p[0] = n
