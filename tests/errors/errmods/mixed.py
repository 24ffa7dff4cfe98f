"""An unused CPU helper kjit cannot compile (never lowered, so no error)
and a used device function that needs a module not found."""
from numba import cuda, njit

import not_installed_anywhere as nia


@njit
def cpu_only(xs):
    return sum([x for x in xs])


@cuda.jit(device=True)
def used(x):
    return nia.scale(x)
