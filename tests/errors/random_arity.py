# ARGS: check %s
from numba import cuda
import numba.cuda.random as rnd


@cuda.jit("void(uint64[:, ::1], float64[::1])")
def k(states, out):
    i = cuda.grid(1)
    out[i] = rnd.xoroshiro128p_normal_float64(states)
