# ARGS: check %s
# sync() is a method of the grid group only; the grid group has no size.
from numba import cuda


@cuda.jit("void(int32[::1])")
def not_a_group(a):
    a.sync()


@cuda.jit("void(int32[::1])")
def group_size(a):
    g = cuda.cg.this_grid()
    a[0] = g.size
