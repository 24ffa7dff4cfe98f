"""Namedtuples as kernel arguments and values, as Numba types them
(NamedUniTuple / NamedTuple): fields by name (p.x), by index (p[0]),
unpacking, len(), iteration, passing to device functions, arrays as
fields, and construction inside a kernel (positional and keyword)."""
from collections import namedtuple
from typing import NamedTuple

import numpy as np
from numba import cuda
from numba.cuda.misc.special import literal_unroll

Point = namedtuple("Point", ["x", "y"])
Span = namedtuple("Span", "lo hi")


class Job(NamedTuple):
    data: object
    scale: float
    count: int


@cuda.jit(device=True)
def dist1(p):
    return abs(p.x) + abs(p.y)


@cuda.jit
def points(p, out):
    i = cuda.grid(1)
    if i < out.size:
        a, b = p
        q = Point(y=p.y * i, x=p[0])
        s = 0.0
        for v in p:
            s += v
        out[i] = a - b + dist1(q) + len(p) + s


@cuda.jit
def jobs(j, s, out):
    i = cuda.grid(1)
    if i < j.count:
        out[i] = j.data[i] * j.scale + s.hi - s.lo
        j.data[i] = -1.0

# RUN: points --grid 1 --block 4 "p=Point(1.5, -2.0)" out=zeros:f64:4
# EXPECT: out: float64[4] [6.5, 8.5, 10.5, 12.5] sum=38 crc=e2388d32
#   (computed in Python from: [1.5 + 2.0 + abs(1.5) + abs(-2.0 * i) + 2 + (1.5 - 2.0) for i in range(4)])
# RUN: points --grid 1 --block 4 "p=Point(y=-2.0, x=1.5)" out=zeros:f64:4
# EXPECT: out: float64[4] [6.5, 8.5, 10.5, 12.5] sum=38 crc=e2388d32
#   (computed in Python from: [1.5 + 2.0 + abs(1.5) + abs(-2.0 * i) + 2 + (1.5 - 2.0) for i in range(4)])
# RUN: jobs --grid 1 --block 8 "j=Job(arange:f32:6, 0.5, 5)" "s=Span(1, 4)" out=zeros:f64:6
# EXPECT: out: float64[6] [3, 3.5, 4, 4.5, 5, 0] sum=20 crc=609b181b
#   (computed in Python from: [i * 0.5 + 3 if i < 5 else 0 for i in range(6)])
# EXPECT: j[0]: float32[6] [-1, -1, -1, -1, -1, 5] sum=0 crc=830599ab
#   (computed in Python from: [-1.0] * 5 + [5.0])
