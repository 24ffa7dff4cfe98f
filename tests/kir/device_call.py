# ARGS: ptx %s:k --emit kir
# A device function called with positional and keyword arguments; n-ary
# min/max fold pairwise into intrinsics.
from numba import cuda


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@cuda.jit("void(float32[:])")
def k(a):
    i = cuda.grid(1)
    a[i] = clamp(a[i], hi=1.0, lo=0.0) + max(a[0], a[1], a[2])
