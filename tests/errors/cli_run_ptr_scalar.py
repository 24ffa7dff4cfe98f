# ARGS: run %s:k --grid 1 --block 1 --target cpu p=ptr:float32:2.5 n=1
# kjit run's ptr:VALUE passes the address of an array: a scalar VALUE is
# refused, naming the argument, with the forms that work.
from numba import cuda, types


@cuda.jit(types.void(types.CPointer(types.float32), types.int64))
def k(p, n):
    p[0] = n
