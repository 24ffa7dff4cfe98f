"""No eager signature accepts the arguments: a complex number converts to
no real type (Numba: TypeError "No matching definition for argument
type(s) ...")."""
from numba import cuda

# ARGS: run %s:fi --target cpu --grid 1 --block 1 out=zeros:f64:2 x=complex128:1+2j


@cuda.jit(["void(float64[::1], float64)", "void(float64[::1], int64)"])
def fi(out, x):
    out[0] = x
