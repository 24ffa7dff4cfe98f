"""@vectorize without signatures: typed at each call from the inputs'
dtypes with Numba's rules (int32 * int32 is int64; a Python int is int64),
the result dtype being the function's return type."""
from numba import vectorize

# RUN: poly arange:int32:5 3
# EXPECT: out: int64[5] [3, 4, 7, 12, 19] sum=45 crc=d6d44564
#   (computed in Python from: [i * i + 3 for i in range(5)])
# RUN: poly arange:float32:9 float32:1.5
# EXPECT: out: float32[9] [1.5, 2.5, 5.5, ..., 65.5] sum=217.5 crc=3dbf2b90
#   (computed in Python from: [i * i + 1.5 for i in range(9)])
# RUN: clip arange:float64:4x2 2.0 5.0
# EXPECT: out: float64[4x2] [2, 2, 2, ..., 5] sum=28 crc=b96f6fe5
#   (computed in Python from: [float(min(max(i, 2), 5)) for i in range(8)])
# RUN: clip arange:int16:6 int16:1 int16:3
# EXPECT: out: int16[6] [1, 1, 2, 3, 3, 3] sum=13 crc=f29b68c0
#   (computed in Python from: [min(max(i, 1), 3) for i in range(6)])


@vectorize
def poly(x, y):
    return x * x + y


@vectorize(target="cuda")
def clip(x, lo, hi):
    if x < lo:
        return lo
    return min(x, hi)
