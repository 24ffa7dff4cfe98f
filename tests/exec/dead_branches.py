"""Numba prunes branches whose condition is a compile-time constant before
typing, so code that would not type-check for these arguments may sit in
the untaken branch: `if a.ndim == 2:` on a 1-d array, `if DEBUG:` with a
module constant (both checked against Numba 0.68).  kjit also prunes on
`len(SH) == 3` of a module tuple and on a literal passed to a device
function's parameter that a branch reads (`pick(a, False)`); Numba types
both branches there and rejects `SH[2]` and the dead `a[0, 2]`, so the
`flag` run is kjit's own."""
from numba import cuda

DEBUG = False
SH = (4, 2)

# RUN: dims --grid 1 --block 1 a=arange:float32:6 out=zeros:int64:2
# EXPECT: out: int64[2] [6, 0] sum=6 crc=bf2a22b1
#   (computed in Python from: [6, 0])
# RUN: flag --grid 1 --block 1 a=arange:float32:6 out=zeros:int64:2
# EXPECT: out: int64[2] [2, 8] sum=10 crc=b8fe7583
#   (computed in Python from: [2, 8])


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


@cuda.jit
def flag(a, out):
    out[0] = pick(a, False)
    if len(SH) == 3:
        out[1] = SH[2]
    else:
        out[1] = SH[0] * SH[1]
