"""A module constant bound to None is frozen as None, as Numba freezes
globals: `if COND is None:` is decided when the kernel is compiled, so the
other branch (which would add to None) is never typed."""
from numba import cuda

COND = None
LIMIT = 3

# RUN: k --grid 1 --block 1 out=zeros:int64:2
# EXPECT: out: int64[2] [1, 4] sum=5 crc=c699d43e
#   (computed in Python from: [1, 4])


@cuda.jit
def k(out):
    if COND is None:
        out[0] = 1
    else:
        out[0] = COND + 1
    if LIMIT is not None:
        out[1] = LIMIT + 1
