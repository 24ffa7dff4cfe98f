"""np.min / np.max / np.argmin / np.argmax / np.nanmin / np.nanmax of arrays
(and the methods a.min(), a.max(), a.argmin(), a.argmax()), as Numba's
arraymath loops compute them: min/max and argmin/argmax stop at the first
NaN, nanmin/nanmax skip NaNs, ties keep the first index."""
import math

import numpy as np
from numba import cuda


@cuda.jit
def search(a, o):
    o[0] = np.min(a)
    o[1] = np.max(a)
    o[2] = np.argmin(a)
    o[3] = np.argmax(a)
    o[4] = np.nanmin(a)
    o[5] = np.nanmax(a)
    o[6] = a.min() + a.max()
    o[7] = a.argmin() + 10 * a.argmax()


@cuda.jit
def search_nan(a, o):
    a[2] = math.nan
    a[4] = -1.0
    o[0] = np.min(a)
    o[1] = np.argmin(a)
    o[2] = np.argmax(a)
    o[3] = np.nanmin(a)
    o[4] = np.nanmax(a)
    o[5] = np.max(a[3:])


@cuda.jit
def search2d(a, o):
    o[0] = np.argmax(a)
    o[1] = np.min(a)
    o[2] = np.max(a)


# RUN: search --grid 1 --block 1 a=arange:float32:6 o=zeros:float64:8
# EXPECT: o: float64[8] [0, 5, 0, ..., 50] sum=70 crc=9016e1c9
#   (computed in Python from: [0, 5, 0, 5, 0, 5, 5, 50])
# RUN: search --grid 1 --block 1 a=arange:int32:5 o=zeros:float64:8
# EXPECT: o: float64[8] [0, 4, 0, ..., 40] sum=56 crc=c8a5c127
#   (computed in Python from: [0, 4, 0, 4, 0, 4, 4, 40])
# RUN: search2d --grid 1 --block 1 a=arange:int64:3x4 o=zeros:int64:3
# EXPECT: o: int64[3] [11, 0, 11] sum=22 crc=74b843e0
#   (computed in Python from: [11, 0, 11])
# RUN: search_nan --grid 1 --block 1 a=arange:float64:6 o=zeros:float64:6
# EXPECT: o: float64[6] [nan, 2, 2, -1, 5, 5] sum=nan crc=7cb11569
#   (computed in Python from: [float('nan'), 2, 2, -1, 5, 5])
