"""kjit run --timeout: a kernel that never leaves its loop is stopped, named,
and kjit exits 3 without writing -o files"""
from numba import cuda

# ARGS: run %s:spin --target cpu --grid 2 --block 32 --timeout 0.3 flag=zeros:int32:1 out=zeros:int64:64 -o out=never_written.npy


@cuda.jit
def spin(flag, out):
    i = cuda.grid(1)
    n = 0
    while flag[0] == 0:   # the store keeps the loop (and its load) in place
        n += 1
        out[i] = n
