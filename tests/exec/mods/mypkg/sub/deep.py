"""Two levels down; imports its parent package's module with '..'."""
from numba import njit

from ..util import TPB as T


@njit
def add_tpb(x):
    return x + T
