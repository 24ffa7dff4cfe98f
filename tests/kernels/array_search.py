# np.min/max/argmin/argmax/nanmin/nanmax through ptxas (tests/exec/array_search.py runs them).
# ARGS: ptx %s:search --sig "void(float32[:], float64[:])"
# ARGS: ptx %s:search --sig "void(int64[:, :], float64[:])"
import numpy as np
from numba import cuda


@cuda.jit
def search(a, o):
    o[0] = np.min(a) + np.max(a) + np.nanmin(a) + np.nanmax(a)
    o[1] = np.argmin(a) + a.argmax()
