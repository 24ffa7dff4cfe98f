"""Kernels defined under a top-level `if` kjit decides and inside `try`, as
Python runs them at import: `if cuda.is_available():` is taken (on every
target: a kernel file is read as Numba reads it on a machine with a GPU),
`if True/False:` and `not` decide too, an `elif`/`else` not taken is
skipped; a `try:` block is read, its `except` clauses (which run only when
it fails) skipped, its `else` read.  `if __name__ == "__main__":` stays
host code."""
import math
try:
    from numba import cuda
    import numpy as np
except ImportError:
    cuda = None
    BAD = 1 / 0
else:
    HAVE = 1

DEBUG = False

if cuda.is_available():
    @cuda.jit
    def add1(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] += 1 + HAVE
else:
    def add1(a):
        pass

if not cuda.is_available():
    @cuda.jit
    def gone(a):
        pass
elif True:
    @cuda.jit
    def twice(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] *= 2

if False:
    X = 1
else:
    X = 5

if __name__ == "__main__":
    @cuda.jit
    def main_only(a):
        pass


@cuda.jit
def usex(a):
    a[0] = X


# RUN: add1 --grid 1 --block 4 a=arange:f32:4
# EXPECT: a: float32[4] [2, 3, 4, 5] sum=14 crc=8f866fb1
#   (computed in Python from: [i + 1 + 1 for i in range(4)]: HAVE is the try's else)
# RUN: twice --grid 1 --block 4 a=arange:f32:4
# EXPECT: a: float32[4] [0, 2, 4, 6] sum=12 crc=c94c921d
#   (computed in Python from: [2 * i for i in range(4)])
# RUN: usex --grid 1 --block 4 a=arange:f32:4
# EXPECT: a: float32[4] [5, 1, 2, 3] sum=11 crc=d6fa1d1a
#   (computed in Python from: X is 5, the else of `if False:`)
