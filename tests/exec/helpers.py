"""Helpers people reuse from kernels, as numba-cuda compiles them: @njit,
@numba.jit(nopython=True) and @register_jitable functions become device
functions; a @cuda.jit function without device=True called from GPU code is
a device function too (returning a value there is fine); the last of two
defs of one name wins, as in Python; decorator options lto=, forceinline=,
shared_memory_carveout= (an option value held in a module variable)."""
import numba
from numba import cuda, njit
from numba.extending import register_jitable

CARVEOUT = 50


@njit
def twice(x):
    return x * 2


@numba.jit(nopython=True, cache=True, nogil=True)
def plus_one(x):
    return x + 1


@register_jitable
def square(x):
    return x * x


@cuda.jit
def minus(x, y):
    return x - y


@cuda.jit(device=True)
def pick(x):
    return x + 1000


@cuda.jit(device=True, forceinline=True)
def pick(x):  # noqa: F811 - redefined: this one is used
    return x + 2000

# RUN: uses --grid 1 --block 4 out=zeros:int64:4
# EXPECT: out: int64[4] [1991, 1997, 2005, 2015] sum=8008 crc=5e12ecf6
#   (computed in Python from: [(i * 2) + (i + 1) + i * i + (i - 10) + (i + 2000) for i in range(4)])


@cuda.jit(lto=True, shared_memory_carveout=CARVEOUT)
def uses(out):
    i = cuda.grid(1)
    out[i] = twice(i) + plus_one(i) + square(i) + minus(i, 10) + pick(i)
