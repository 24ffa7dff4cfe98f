"""A sibling module of util, reached by a relative import; it defines its
own `helper`, distinct from util.helper."""
from numba import cuda

from . import util
from .util import Color


@cuda.jit(device=True)
def helper(x):
    return x + 1000 + util.TPB


@cuda.jit(device=True)
def uniform(x):
    return helper(x) + Color.BLUE
