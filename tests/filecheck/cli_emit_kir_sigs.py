# ARGS: ptx %s:scale --emit kir
# --emit kir prints one typed function per eager signature, in order.
from numba import cuda


@cuda.jit(["void(float32[:], float32)", "void(float64[::1], int64)"])
def scale(a, f):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= f

# CHECK: kernel scale(a: array(float32, 1d, A), f: float32) -> void # symbol scale__a1Af32_f32
# CHECK: array.store
# CHECK: kernel scale(a: array(float64, 1d, C), f: int64) -> void # symbol scale__a1Cf64_i64
# CHECK: array.store
