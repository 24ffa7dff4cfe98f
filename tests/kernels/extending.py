# numba.extending helpers (register_jitable, simple @overload) through ptxas;
# tests/exec/extending.py runs them.
# ARGS: ptx %s:k --sig "void(int64[:], int64[:])"
"""numba.extending helpers as numba-cuda compiles them in kernels:
@register_jitable functions (with or without options) are device
functions; @overload(f) of a module-level Python function f whose
implementation defines one nested function and returns it makes that nested
function what a kernel's call of f runs."""
import numba
from numba import cuda
from numba.extending import overload, register_jitable


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


