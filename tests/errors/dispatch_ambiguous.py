"""Several eager signatures that the arguments fit equally well: a bool
converts safely to both float64 and int64, so neither is better.  Numba's
dispatcher raises TypeError("Ambiguous overloading ...") for such a call,
and so does kjit, naming both signatures (ir/dispatch.h)."""
from numba import cuda

# ARGS: run %s:fi --target cpu --grid 1 --block 1 out=zeros:f64:2 x=bool:1


@cuda.jit(["void(float64[::1], float64)", "void(float64[::1], int64)"])
def fi(out, x):
    out[0] = x
