# ARGS: ptx %s:k --arch sm_80
# A foreign function declared with a CPointer parameter takes a raw
# pointer of that type: an array has no conversion to it (Numba's users
# pass ffi.from_buffer(a)).
from numba import cuda, types, float32

sum_reduce = cuda.declare_device("sum_reduce", "float32(CPointer(float32), int32)")


@cuda.jit(types.void(float32[:], float32[:], types.int32))
def k(a, out, n):
    out[0] = sum_reduce(a, n)
