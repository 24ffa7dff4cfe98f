# ARGS: check %s
# Module-level array expressions kjit folds only from constants: two arrays
# combined, a dtype kjit does not freeze, a reshape that changes the size.
import numpy as np
from numba import cuda

TWO = np.arange(4) + np.arange(4)
HALF = np.zeros(4, dtype=np.float16)
BAD = np.arange(6).reshape(4, 2)


@cuda.jit("void(float64[::1])")
def k(out):
    out[0] = TWO[0] + HALF[0] + BAD[0, 0]
