"""Decorators held in module variables (`FM = cuda.jit(fastmath=True)` then
`@FM`: Python calls the object the variable holds) and the signature given
by cuda.jit's keyword `func_or_sig=` (None: no signature)."""
from numba import cuda

FM = cuda.jit(fastmath=True)
DEV = cuda.jit(device=True)


@cuda.jit(func_or_sig=None, device=True)
def twice(x):
    return 2 * x


@DEV
def plus1(x):
    return x + 1


@cuda.jit(func_or_sig="void(float32[:])")
def eager(a):
    a[0] = twice(a[0])


@FM
def lazy(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = plus1(twice(a[i]))


# RUN: lazy --grid 1 --block 4 a=arange:f32:4
# EXPECT: a: float32[4] [1, 3, 5, 7] sum=16 crc=66a463d1
#   (computed in Python from: [2 * i + 1 for i in range(4)])
# RUN: eager --grid 1 --block 1 a=full:f32:4:3
# EXPECT: a: float32[4] [6, 3, 3, 3] sum=15
#   (computed in Python from: [2 * 3, 3, 3, 3])
