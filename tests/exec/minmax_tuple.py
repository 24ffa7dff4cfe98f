"""min() / max() of a tuple or list written out (min((a, b, c)), max([x, y]))
or of a module tuple: the extreme of the elements, as min(a, b, c) gives it."""
from numba import cuda

LIMITS = (4.0, -2.5, 9.0)


@cuda.jit
def k(a, o):
    o[0] = min((a[0], a[1], a[2]))
    o[1] = max([a[0], a[1], a[2]])
    o[2] = min(LIMITS)
    o[3] = max(LIMITS) + min((a[3],))


# RUN: k --grid 1 --block 1 a=arange:float64:4 o=zeros:float64:4
# EXPECT: o: float64[4] [0, 2, -2.5, 12] sum=11.5 crc=dee17c51
#   (computed in Python from: [0, 2, -2.5, 12])
