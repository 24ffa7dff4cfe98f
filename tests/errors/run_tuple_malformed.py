"""kjit run: a tuple VALUE without its closing parenthesis is refused,
naming the argument and showing the tuple spelling"""
from numba import cuda

# ARGS: run %s:k --grid 1 --block 1 --target cpu "t=(1, 2.5" out=zeros:f64:1


@cuda.jit
def k(t, out):
    out[0] = t[0] + t[1]
