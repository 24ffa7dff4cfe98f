# NumPy ufuncs with an output array through ptxas; tests/exec/ufunc_out.py runs them.
# ARGS: ptx %s:roots --sig "void(float64[::1], float64[::1])"
# ARGS: ptx %s:grid --sig "void(float64[:, ::1], float64[:, ::1], float32[::1], int64[::1], float32[::1], boolean[::1])"
# ARGS: ptx %s:sines --sig "void(float32[::1], float32[::1])"
import numpy as np
from numba import cuda


@cuda.jit
def roots(r, x):
    np.sqrt(x, r)


@cuda.jit
def grid(m, a, row, ints, f, flags):
    np.add(a, row, out=m)
    y = np.multiply(m, 2.0, m)
    y[0, 0] = -1.0
    np.sqrt(ints, f)
    np.maximum(f[::2], 1.5, out=f[::2])
    np.isnan(a[0], flags)



@cuda.jit
def sines(r, x):
    np.sin(x, r)
