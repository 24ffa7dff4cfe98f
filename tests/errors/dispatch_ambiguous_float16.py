"""A float16 argument promotes to float32 and to float64 alike: with both
signatures and no float16 one, the call is ambiguous (Numba raises
TypeError "Ambiguous overloading" too)."""
from numba import cuda

# ARGS: run %s:ff --target cpu --grid 1 --block 1 out=zeros:f64:1 x=float16:0.5


@cuda.jit(["void(float64[::1], float32)", "void(float64[::1], float64)"])
def ff(out, x):
    out[0] = x
