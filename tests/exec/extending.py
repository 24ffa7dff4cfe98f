"""numba.extending helpers as numba-cuda compiles them in kernels:
@register_jitable functions (with or without options) are device
functions; @overload(f) of a module-level Python function f whose
implementation defines one nested function and returns it makes that nested
function what a kernel's call of f runs."""
import numba
from numba import cuda
from numba.extending import overload, register_jitable
import numba.cuda.extending


@register_jitable
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@numba.extending.register_jitable(inline='always')
def twice(x):
    return 2 * x


def myabs(x):
    return x if x >= 0 else -x


@overload(myabs)
def ov_myabs(x):
    """Numba calls this with the argument types; impl is compiled."""
    def impl(x):
        return -x if x < 0 else x
    return impl


def scale(x, k=3):
    return x * k


@numba.extending.overload(scale, jit_options={'fastmath': False})
def ov_scale(x, k=3):
    def impl(x, k=3):
        return x * k
    return impl


@cuda.jit
def k(a, o):
    i = cuda.grid(1)
    if i < a.size:
        o[i] = clamp(twice(a[i]) - 3, 0, 5) + myabs(i - 2) + scale(a[i]) + scale(1, k=10)


# RUN: k --grid 1 --block 5 a=arange:i64:5 o=zeros:i64:5
# EXPECT: o: int64[5] [12, 14, 17, 23, 29] sum=95 crc=eb6b24f1
#   (computed in Python from: [min(max(2 * i - 3, 0), 5) + abs(i - 2) + 3 * i + 10 for i in range(5)])


# numba-cuda's own module, numba.cuda.extending (its TestRegisterJitable):
# a helper that writes through an array argument.
@numba.cuda.extending.register_jitable
def add_into(x, y):
    x[0] += y


@cuda.jit
def bar(x, y):
    add_into(x, y)
    x[0] += x[0]


# RUN: bar --grid 1 --block 1 x=arange:f32:2 y=float32:1.5
# EXPECT: x: float32[2] [3, 1] sum=4 crc=bf6c383a
#   (computed in Python from: [2 * (0 + 1.5), 1.0])
