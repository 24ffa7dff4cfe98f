"""A plain module on the search path."""
from numba import njit

STEP = 7


@njit
def twice(x):
    return 2 * x
