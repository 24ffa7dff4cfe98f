# ARGS: ptx %s:scale --sig "void(float32[::1])" --fits32 --grid32 --emit kir
# Both launch facts head the typed IR, which the disk-cache key hashes: the
# grid32 variant and the one of a larger grid are different cache entries.
# CHECK: # assumes: array extents and byte spans < 2^31
# CHECK-NEXT: # assumes: gridDim * blockDim < 2^31 in every dimension
# CHECK-NEXT: kernel scale
from numba import cuda


@cuda.jit
def scale(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2
