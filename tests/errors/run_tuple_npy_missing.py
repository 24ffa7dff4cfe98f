"""kjit run: an element of a tuple VALUE that cannot be read (a missing
.npy file) is reported inside the tuple, naming the argument"""
from numba import cuda

# ARGS: run %s:k --grid 1 --block 1 --target cpu "t=(no_such_file.npy, 1)" out=zeros:f64:1


@cuda.jit
def k(t, out):
    out[0] = t[1]
