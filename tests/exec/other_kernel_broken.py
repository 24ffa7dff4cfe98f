"""A kernel whose body kjit rejects does not stop the other kernels of the
file: as in Numba, a function's errors are reported when it is compiled
(here `broken` is never launched; `kjit check` still reports it)."""
from numba import cuda

# RUN: good --grid 1 --block 4 out=zeros:int32:4
# EXPECT: out: int32[4] [1, 2, 3, 4] sum=10 crc=af05d4ef
#   (computed in Python from: [i + 1 for i in range(4)])


@cuda.jit
def good(out):
    i = cuda.grid(1)
    out[i] = i + 1


@cuda.jit
def broken(out):
    with open("x") as f:
        out[0] = 1
