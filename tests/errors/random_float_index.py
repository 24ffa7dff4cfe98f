# ARGS: check %s
from numba import cuda
from numba.cuda.random import xoroshiro128p_next


@cuda.jit("void(uint64[:, ::1], uint64[::1], float64)")
def k(states, out, x):
    out[0] = xoroshiro128p_next(states, x)
