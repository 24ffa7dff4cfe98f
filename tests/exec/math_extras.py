"""int.bit_count() (numba-cuda: cuda.popc of the integer, its own type)
and math.nextafter (float32 and float64 cases, ints go to float64)."""
import math

import numpy as np
from numba import cuda


# RUN: extras --grid 1 --block 1 out=zeros:float64:8 u8a=full:uint8:1:255 i64a=full:int64:1:-1 fa=full:float32:1:1.0
# EXPECT: out: float64[8] [8, 64, 3, ..., 0] sum=79.00000012 crc=514f79b4
#   (computed in Python from: [8, 64, 3, 1.0 + 2.0 ** -52, 1.0 + 2.0 ** -23, -(5e-324), 2.0, 0])
@cuda.jit
def extras(out, u8a, i64a, fa):
    u8 = u8a[0]
    i64 = i64a[0]
    f = fa[0]
    out[0] = u8.bit_count()
    out[1] = i64.bit_count()
    out[2] = np.int32(7).bit_count()
    out[3] = math.nextafter(1.0, 2.0)
    out[4] = math.nextafter(f, np.float32(2.0))   # float32: one float32 ulp
    out[5] = math.nextafter(0.0, -1.0)
    out[6] = math.nextafter(2, 2)
    out[7] = math.nextafter(0.0, 0.0)
