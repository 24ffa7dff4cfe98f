# numba.extending helpers (register_jitable, simple @overload) through ptxas;
# tests/exec/extending.py runs them.
# ARGS: ptx %s:k --sig "void(int64[:], int64[:])"
# ARGS: ptx %s:bar
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




@numba.cuda.extending.register_jitable
def add_into(x, y):
    x[0] += y


@cuda.jit("void(float32[::1], float32)")
def bar(x, y):
    add_into(x, y)
    x[0] += x[0]
