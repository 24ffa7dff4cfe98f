# ARGS: check %s
from numba import cuda
from numba.cuda.random import xoroshiro128p_uniform_float32


@cuda.jit("void(float32[::1], float32[::1])")
def k(states, out):
    i = cuda.grid(1)
    out[i] = xoroshiro128p_uniform_float32(states, i)
