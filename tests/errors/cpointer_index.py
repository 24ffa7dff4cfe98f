# ARGS: ptx %s:k
# A raw pointer takes one integer index (Numba's GetItemCPointer): not a
# float, not two indices, and it has no len().
from numba import cuda, types, float32


@cuda.jit(types.void(types.CPointer(types.float32), float32[:]))
def k(p, out):
    p[1.5] = 1.0
    p[0, 1] = 2.0
    out[0] = len(p)
