# A kernel that synchronizes the grid: every block must stay resident, so
# kjit tune refuses to change its configuration.
from numba import cuda


@cuda.jit
def two_phase(a, out):
    i = cuda.grid(1)
    g = cuda.cg.this_grid()
    if i < a.size:
        a[i] += 1.0
    g.sync()
    if i < out.size:
        out[i] = a[(i + 1) % a.size]
