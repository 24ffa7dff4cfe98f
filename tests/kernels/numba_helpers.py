# Module constants by unpacking, enum members, dtype variables, @njit and
# @register_jitable helpers, a kernel called as a device function, options.
from enum import IntEnum

import numba
import numpy as np
from numba import cuda, njit
from numba.extending import register_jitable

NX, NY = 8, 4
DT = np.float32


class Mode(IntEnum):
    FAST = 1
    SLOW = 2


@njit(fastmath=True)
def twice(x):
    return x * 2


@register_jitable
def square(x):
    return x * x


@cuda.jit
def minus(x, y):
    return x - y


@cuda.jit("void(float32[::1])", lto=True, forceinline=True, shared_memory_carveout="MaxShared")
def uses(out):
    i = cuda.grid(1)
    s = cuda.shared.array((NX, NY), DT)
    s[i % NX, 0] = twice(i) + square(i) + minus(i, Mode.SLOW)
    cuda.syncthreads()
    out[i] = s[i % NX, 0] + Mode.FAST
