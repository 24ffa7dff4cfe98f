# ARGS: ptx %s:k
# types.CPointer points to numbers; another pointee is refused by name.
from numba import cuda, types


@cuda.jit(types.void(types.CPointer(types.UniTuple(types.int32, 2))))
def k(p):
    pass
