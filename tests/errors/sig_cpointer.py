# ARGS: ptx %s:kp
# Untyped raw pointers (types.voidptr) are refused by name; CPointer(T) is
# supported (tests/exec/cpointer.py).
from numba import cuda, types


@cuda.jit(types.void(types.voidptr, types.int64))
def kp(p, n):
    pass
