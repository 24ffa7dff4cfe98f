"""Module values Numba freezes at compile time: constants bound by tuple
unpacking (NX, NY = 8, 4) and chained assignment, expressions of other
constants, a dtype held in a module variable (DT = np.float32, also through
np.dtype), and members of Enum / IntEnum classes (Color.GREEN is an int,
Shape.CI.value its value; members compare by value)."""
from enum import Enum, IntEnum

from numba import cuda
import numpy as np

NX, NY = 8, 4
TOTAL = NX * NY
A = B = 3
DT = np.float32
DT2 = np.dtype(np.int32)
(P, Q), R = (1, 2), 5


class Color(IntEnum):
    RED = 1
    GREEN = 2


class Shape(Enum):
    SQUARE = 10
    CIRCLE = 20

# RUN: frozen --grid 1 --block 8 out=zeros:float64:8
# EXPECT: out: float64[8] [36, 22, 6, ..., 7] sum=80.25 crc=1e07ef8b
#   (computed in Python from: [32 + 4, 2 + 20, 6, 1 + 2 + 5, 1, 0, 0.25, 7])


@cuda.jit
def frozen(out):
    i = cuda.grid(1)
    s = cuda.shared.array(NX, DT)
    t = cuda.local.array((NX, NY), DT2)
    s[i] = i * 0.25
    t[NX - 1, NY - 1] = 7
    cuda.syncthreads()
    if i == 0:
        out[0] = TOTAL + NY
        out[1] = Color.GREEN + Shape.CIRCLE.value
        out[2] = A + B
        out[3] = P + Q + R
        out[4] = Color.RED == 1
        out[5] = Shape.SQUARE == Shape.CIRCLE
        out[6] = s[1]
        out[7] = t[NX - 1, NY - 1]
