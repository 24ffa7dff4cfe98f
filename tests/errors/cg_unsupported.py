# ARGS: check %s
# numba-cuda's cooperative groups are the grid group and its sync(): other
# groups and members are rejected by name.
from numba import cuda


@cuda.jit("void(int32[::1])")
def block_group(a):
    b = cuda.cg.this_thread_block()
    b.sync()


@cuda.jit("void(int32[::1])")
def rank(a):
    g = cuda.cg.this_grid()
    a[0] = g.thread_rank()
