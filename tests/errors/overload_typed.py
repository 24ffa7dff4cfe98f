"""An @overload implementation that inspects the argument types runs Python
while compiling: refused by name (the simple form, one nested def returned,
is supported); so is a call of an @intrinsic."""
# ARGS: check %s
from numba import cuda, types
from numba.extending import overload, intrinsic


def half(x):
    return x / 2


@overload(half)
def ov_half(x):
    if isinstance(x, types.Integer):
        def impl(x):
            return x // 2
        return impl
    return lambda x: x / 2


@intrinsic
def popcount(typingctx, x):
    return None


@cuda.jit("void(int64[:])")
def k(a):
    a[0] = half(a[1])
    a[1] = popcount(a[2])
