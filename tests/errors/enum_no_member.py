"""A member an imported Enum class does not have: Python's AttributeError,
named as the file spells the class (not the merged name of its module)."""
# ARGS: check %s
from numba import cuda

from .errmods.colors import Color


@cuda.jit("void(int64[:])")
def k(a):
    a[0] = Color.gren.value
