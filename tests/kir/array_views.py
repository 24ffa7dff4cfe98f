# ARGS: ptx %s:k --emit kir
# View types by Numba's layout rule (numba/core/typing/arraydecl.py,
# get_array_index_type): integers keep a C array C, a slice only as the last
# index and without a step; every view of an A array is A; a.T is A (F in
# Numba).  for over a 2-d array yields rows, as a[i].
from numba import cuda


@cuda.jit("void(float32[:, ::1], float32[:, :], float32[::1])")
def k(c, a, out):
    r = c[0]             # array(float32, 1d, C)
    s = c[1:]            # array(float32, 2d, C)
    t = c[:, 1]          # array(float32, 1d, A)
    u = c[0, ::1]        # array(float32, 1d, A): a step is given
    v = c[0, 1:]         # array(float32, 1d, C)
    w = a[0]             # array(float32, 1d, A)
    x = c.T              # array(float32, 2d, A)
    for row in c:        # array(float32, 1d, C)
        out[0] += row[0]
    out[1] = r[0] + s[0, 0] + t[0] + u[0] + v[0] + w[0] + x[0, 0]
