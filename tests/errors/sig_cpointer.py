# ARGS: ptx %s:kp
# Raw pointer arguments (types.CPointer) are refused by name.
from numba import cuda, types


@cuda.jit(types.void(types.CPointer(types.float32), types.int64))
def kp(p, n):
    p[0] = n
