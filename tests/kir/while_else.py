# ARGS: ptx %s:k --emit kir
# while with break and else; augmented assignment on locals.
from numba import cuda


@cuda.jit("void(int32[:], int32)")
def k(a, n):
    i = 0
    while i < n:
        i += 2
        if a[i] == 0:
            break
    else:
        i = -1
    a[0] = i
