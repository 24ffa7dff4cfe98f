"""An eager signature with more parameters than the def: Numba refuses it
when the decorator runs; kjit refuses the launch, pointing at that
signature, even though another one fits."""
from numba import cuda

# ARGS: run %s:k --target cpu --grid 1 --block 1 out=zeros:f64:1 x=1


@cuda.jit(["void(float64[::1], float64)", "void(float64[::1], float64, int64)"])
def k(out, x):
    out[0] = x
