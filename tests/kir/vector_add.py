# ARGS: ptx %s:add --emit kir
# Core path: cuda.grid(1) as int64 arithmetic, a bounds check, loads/stores.
from numba import cuda


@cuda.jit("void(float32[:], float32[:], float32[:])")
def add(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] + y[i]
