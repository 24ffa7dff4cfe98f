# ARGS: ptx %s:scale2d --sig "void(float32[:, ::1])" --fits32 --emit kir
# The launch fact heads the typed IR, which the disk-cache key hashes: the
# 32-bit-offset variant and the general one are different cache entries.
# CHECK: # assumes: array extents and byte spans < 2^31
# CHECK-NEXT: kernel scale2d
from numba import cuda


@cuda.jit
def scale2d(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] *= 2
