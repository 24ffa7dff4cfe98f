# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[:, :], boolean[:], float32[:])")
def k(a, flags, out):
    i = cuda.grid(1)
    out[i] = cuda.ldcg(a, i)
    cuda.stcs(flags, i, True)
