"""Numba prunes branches whose condition is a compile-time constant before
typing, so code that would not type-check for these arguments may sit in
the untaken branch: `if a.ndim == 2:` on a 1-d array, `if DEBUG:` with a
module constant, `if len(SH) == 3:` on a 2-tuple.  (kjit also freezes a
literal passed to a device function's parameter that a branch reads, and
prunes there too: `pick(a, False)` below; Numba types the flag as bool and
rejects the dead `a[0, 2]`, so that run is kjit's own.)"""
from numba import cuda

DEBUG = False
SH = (4, 2)

# RUN: dims --grid 1 --block 1 a=arange:float32:6 out=zeros:int64:3
# EXPECT: out: int64[3] [6, 0, 8] sum=14 crc=c01983c5
#   (computed in Python from: [6, 0, 8])
# RUN: flag --grid 1 --block 1 a=arange:float32:6 out=zeros:int64:1
# EXPECT: out: int64[1] [2] sum=2 crc=2707d814
#   (computed in Python from: [2])


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


@cuda.jit
def flag(a, out):
    out[0] = pick(a, False)
