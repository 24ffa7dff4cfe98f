"""debug=True in the decorator: a failing assert reports its string
message; 2-D grid and block (the first failing thread in launch order); the
failing thread goes on past the assert and meets the barrier, so the block
ends and the launch fails without hanging"""
from numba import cuda

# ARGS: run %s:k --target cpu --grid 2,2 --block 4,2 zeros:f32:4x8


@cuda.jit(debug=True)
def k(a):
    x, y = cuda.grid(2)
    assert x != 5 or y != 2, "the tile at (5, 2) is reserved"
    cuda.syncthreads()
    a[y, x] = 1.0
