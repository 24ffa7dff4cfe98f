# ARGS: ptx %s:k
# Numba's atomics take arrays (its templates read ary.ndim): on a raw
# pointer they are refused by name.
from numba import cuda, types


@cuda.jit(types.void(types.CPointer(types.float32)))
def k(p):
    cuda.atomic.add(p, 0, 1.0)
