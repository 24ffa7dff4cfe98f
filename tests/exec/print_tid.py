"""print in a kernel, formatted as Numba prints (one line per thread)."""
from numba import cuda

# RUN: hello --grid 2 --block 4 3 2.5
# EXPECT: thread 0 of block 0 3 2.5
# EXPECT: thread 3 of block 1 3 2.5


@cuda.jit
def hello(n, x):
    print("thread", cuda.threadIdx.x, "of block", cuda.blockIdx.x, n, x)
