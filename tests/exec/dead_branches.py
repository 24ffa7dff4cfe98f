"""Numba prunes branches whose condition is a compile-time constant before
typing, so code that would not type-check for these arguments may sit in
the untaken branch: `if a.ndim == 2:` on a 1-d array, `if DEBUG:` with a
module constant, `if len(SH) == 3:` on a 2-tuple, and a literal passed to a
device function's parameter that a condition reads (Numba retries the call
with the literal's type, Literal[bool](False), and prunes)."""
from numba import cuda

DEBUG = False
SH = (4, 2)

# RUN: dims --grid 1 --block 1 a=arange:float32:6 out=zeros:int64:4
# EXPECT: out: int64[4] [6, 0, 8, 2] sum=16 crc=6173daa0
#   (computed in Python from: [6, 0, 8, 2])


@cuda.jit(device=True)
def pick(a, use_2d):
    if use_2d:
        return a[0, 2]
    return a[2]


@cuda.jit
def dims(a, out):
    if a.ndim == 2:
        out[0] = a.shape[1]
    else:
        out[0] = a.shape[0]
    if DEBUG:
        out[1] = a[0, 0]
    if len(SH) == 3:
        out[2] = SH[2]
    else:
        out[2] = SH[0] * SH[1]
    out[3] = pick(a, False)
