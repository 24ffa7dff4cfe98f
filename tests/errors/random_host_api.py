# ARGS: check %s
from numba import cuda
from numba.cuda.random import create_xoroshiro128p_states


@cuda.jit("void(uint64[:, ::1])")
def k(states):
    s = create_xoroshiro128p_states(10, 1)
