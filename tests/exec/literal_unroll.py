"""literal_unroll (numba-cuda's, numba.cuda.misc.special; numba.literal_unroll too) over a tuple (a display or a module constant, its
elements of different types): the loop body is repeated per element."""
from numba import cuda
from numba.cuda.misc.special import literal_unroll

TUP = (1, 2.5, 3)

# RUN: unrolled --grid 1 --block 1 out=zeros:float64:2
# EXPECT: out: float64[2] [6.5, 3] sum=9.5 crc=bca092eb
#   (computed in Python from: [6.5, 3.0])


@cuda.jit
def unrolled(out):
    s = 0.0
    for x in literal_unroll(TUP):
        s += x
    out[0] = s
    t = 0
    for y in literal_unroll((1, 2)):
        t += y
    out[1] = t
