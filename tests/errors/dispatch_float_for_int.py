"""A float argument for an integer parameter of an eager kernel: Numba's
dispatcher picks the signature (an unsafe conversion), then its launch
refuses the value (ctypes: "'float' object cannot be interpreted as an
integer"), and so does kjit, before anything runs."""
from numba import cuda

# ARGS: run %s:k --target cpu --grid 1 --block 1 out=zeros:f64:1 n=2.5


@cuda.jit("void(float64[::1], int32)")
def k(out, n):
    out[0] = n
