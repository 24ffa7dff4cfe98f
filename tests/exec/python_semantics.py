"""Python's arithmetic, as Numba types it: floor division and modulo of
negatives (ints and floats), int / int is float64, integer division by
zero gives 0, narrowing stores (float -> int truncates, ints wrap,
uint8 <- 300.7 is 44), int32 + int64 and uint32 + uint32 widen to 64 bits."""
from numba import cuda
import numpy as np

# RUN: corners --grid 1 --block 1 i=zeros:int64:8 f=zeros:float64:5 n8=zeros:int8:2 u8=zeros:uint8:2 w=zeros:int64:3 s=full:int32:2:2147483647 u=full:uint32:2:4294967295 a=-7 b=2
# EXPECT: i: int64[8] [-4, 1, -4, ..., -3] sum=-7 crc=a9f4ef38
#   (computed in Python from: [-4, 1, -4, -1, 3, 1, 0, -3])
# EXPECT: f: float64[5] [-4, 0.5, 3.5, -3.5, 1.5] sum=-2 crc=ff968405
#   (computed in Python from: [-4.0, 0.5, 3.5, -3.5, 1.5])
# EXPECT: n8: int8[2] [-56, 3] sum=-53 crc=dbf31e03
#   (computed in Python from: [-56, 3])
# EXPECT: u8: uint8[2] [44, 255] sum=299 crc=55ea96dc
#   (computed in Python from: [44, 255])
# EXPECT: w: int64[3] [2147483648, 8589934590, 4294967296] sum=1.503238553e+10 crc=0f4759b2
#   (computed in Python from: [2147483648, 8589934590, 4294967296])


@cuda.jit
def corners(i, f, n8, u8, w, s, u, a, b):
    i[0] = a // b            # -7 // 2 = -4
    i[1] = a % b             # -7 % 2 = 1
    i[2] = -a // -b          # 7 // -2 = -4
    i[3] = -a % -b           # 7 % -2 = -1
    i[4] = (-a) // b         # 7 // 2 = 3
    i[5] = 7 % 3             # 1
    i[6] = a // (b - 2)      # division by zero: 0
    i[7] = int(-3.9)         # truncation toward zero
    f[0] = -7.5 // 2.0
    f[1] = -7.5 % 2.0
    f[2] = -a / b            # int / int is float64
    f[3] = a / b
    f[4] = 3 / b
    n8[0] = 200              # wraps
    n8[1] = 3.99             # truncates
    u8[0] = 300.7            # Numba: 44
    u8[1] = -1               # wraps
    w[0] = s[0] + 1          # int32 + int64 -> int64
    w[1] = u[0] + u[1]       # uint32 + uint32 -> uint64
    w[2] = np.int64(s[1]) * 2 + 2
