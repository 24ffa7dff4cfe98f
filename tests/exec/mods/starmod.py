"""Names for `from starmod import *` (public ones only), and a module that
imports itself by name."""
from numba import cuda

import starmod as me

A = 5
_HIDDEN = 6


@cuda.jit(device=True)
def times_a(x):
    return x * me.A
