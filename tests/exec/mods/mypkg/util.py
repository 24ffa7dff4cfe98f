"""Constants, an enum and device functions of a package module."""
import math
from enum import IntEnum

from numba import cuda

TPB = 4
FACTOR = TPB * 2


class Color(IntEnum):
    RED = 1
    BLUE = 20


@cuda.jit(device=True)
def helper(x):
    return x * FACTOR


@cuda.jit(device=True)
def scale(x):
    return helper(x) + int(math.sqrt(16.0))
