"""Results that must be Numba's (numba-cuda 0.30 / Numba 0.68 semantics):
~ on a uint8 inverts its 8 bits and then widens (int_invert_impl);
cuda.ballot_sync and cuda.match_any_sync are int32, so `>> 16` sign-extends;
cuda.atomic.nanmax/nanmin treat NaN as missing (a NaN value leaves the element,
a NaN element takes the value); float32 ** int is square-and-multiply in float32
(int_power), 1.0 / r for a negative exponent, on the CPU target as on the GPU."""
import math

import numpy as np
from numba import cuda


@cuda.jit
def invert(a, o):
    i = cuda.grid(1)
    if i < a.size:
        o[i] = ~a[i]


@cuda.jit
def votes(o):
    i = cuda.threadIdx.x
    b = cuda.ballot_sync(0xffffffff, True)
    m = cuda.match_any_sync(0xffffffff, 7)
    if i == 0:
        o[0] = b >> 16
        o[1] = m >> 16
        o[2] = b


@cuda.jit
def nan_atomics(a):
    i = cuda.threadIdx.x
    cuda.atomic.nanmax(a, 0, math.nan if i % 2 == 0 else float(i))
    cuda.atomic.nanmin(a, 1, math.nan if i % 2 == 1 else float(i) + 1.0)
    cuda.atomic.nanmax(a, 2, math.nan)
    cuda.atomic.nanmin(a, 3, float(i) - 2.0)


@cuda.jit
def powers(x, o):
    i = cuda.grid(1)
    if i < x.size:
        o[i] = x[i] ** (3 * i - 8)


# RUN: invert --grid 1 --block 4 a=arange:uint8:4 o=zeros:int64:4
# EXPECT: o: int64[4] [255, 254, 253, 252] sum=1014 crc=5033f17c
#   (computed in Python from: [255 - i for i in range(4)])
# RUN: invert --grid 1 --block 4 a=arange:int8:4 o=zeros:int64:4
# EXPECT: o: int64[4] [-1, -2, -3, -4] sum=-10 crc=7766ecac
#   (computed in Python from: [-1 - i for i in range(4)])
# RUN: votes --grid 1 --block 32 o=zeros:int64:3
# EXPECT: o: int64[3] [-1, -1, -1] sum=-3 crc=dcdd16c2
#   (computed in Python from: [-1, -1, -1])
# RUN: nan_atomics --grid 1 --block 8 a=full:float64:4:nan
# EXPECT: a: float64[4] [7, 1, nan, -2] sum=nan crc=585ec60c
#   (computed in Python from: [7, 1, float('nan'), -2])
# RUN: powers --grid 1 --block 8 x=full:float32:8:1.013 o=zeros:float32:8
# EXPECT: o: float32[8] [0.901829, 0.93746, 0.974498, ..., 1.18283] sum=8.295144558 crc=ac2199dc
#   (computed in Python from: [powi_f32(1.013, 3 * i - 8) for i in range(8)])
# RUN: powers --grid 1 --block 8 x=full:float32:8:1.5 o=zeros:float32:8
# EXPECT: o: float32[8] [0.0390184, 0.131687, 0.444444, ..., 194.62] sum=276.5481335 crc=63876434
#   (computed in Python from: [powi_f32(1.5, 3 * i - 8) for i in range(8)])
