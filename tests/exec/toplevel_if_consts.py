"""Top-level `if` on module constants, decided as Python decides it at
import: names bound by the top-level assignments read so far (the last one
wins; one in a branch not taken was never made), literals, not/and/or,
chained comparisons, `is None`, int and float arithmetic.  A condition on
anything else (`__name__`, a call) stays host code, skipped whole.  The
values below are what `python3` gives running this module's top level."""
from numba import cuda
import numpy as np

MODE = "fast"
N = 3 * 4
LIMIT = N // 5 + 0.5
B = None
if MODE == "slow":
    A = 1
elif MODE == "fast" and N >= 12:
    A = 2
    if LIMIT > 2:
        B = 10
    else:
        B = 20
else:
    A = 3
if not (A == 2) or B is None:
    C = -1
else:
    C = A * B
if 0 < N <= 10:
    D = 1
elif N % 5 == 2 and -LIMIT < 0:
    D = 7
else:
    D = 9
if __name__ == "__main__":
    C = 1000

DOUBLE = True
if DOUBLE:
    SCALE = 2.0

    @cuda.jit
    def scale(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] *= SCALE
else:
    @cuda.jit
    def scale(a):
        pass


@cuda.jit
def consts(a):
    a[0] = A
    a[1] = B
    a[2] = C
    a[3] = D


# RUN: consts --grid 1 --block 1 a=zeros:i64:4
# EXPECT: a: int64[4] [2, 10, 20, 7] sum=39 crc=122ad309
#   (python3 running the top level: A, B, C, D == 2, 10, 20, 7)
# RUN: scale --grid 1 --block 4 a=arange:f32:4
# EXPECT: a: float32[4] [0, 2, 4, 6] sum=12 crc=c94c921d
#   (computed in Python from: [2.0 * i for i in range(4)])
