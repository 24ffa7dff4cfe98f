"""A plain module on the search path."""
from numba import njit

STEP = 7


@njit
def twice(x):
    return 2 * x


@njit
def host_only_total(values):
    # CPU code the kernels never call: Numba compiles it only when called,
    # and kjit lowers an imported helper only when a compiled function uses it
    return sum([v * v for v in values])
