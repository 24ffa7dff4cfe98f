"""Array reductions: an axis (positional or axis=) is not supported yet;
a reduction of a scalar or of a complex array is a typing error."""
# ARGS: check %s
import numpy as np
from numba import cuda


@cuda.jit("void(float64[:, ::1], float64[::1])")
def by_axis(a, out):
    out[0] = np.sum(a, axis=0)[0]
    out[1] = np.mean(a, 1)[0]
    out[2] = a.sum(0)[0]


@cuda.jit("void(complex128[::1], float64[::1])")
def complex_sum(c, out):
    out[0] = np.var(c)
    out[1] = np.count_nonzero(out[0])
