"""numba.cuda.random: every xoroshiro128p function on C-contiguous and
strided state arrays, with int32 and int64 indices (libdevice log/cos for
the normals)."""
from numba import cuda, int32
from numba.cuda.random import (xoroshiro128p_next, xoroshiro128p_uniform_float32,
                               xoroshiro128p_uniform_float64, xoroshiro128p_normal_float32,
                               xoroshiro128p_normal_float64, xoroshiro128p_jump)


@cuda.jit("void(uint64[:, ::1], uint64[::1], float32[::1], float64[::1])")
def all_kinds(states, n, f, d):
    i = cuda.grid(1)
    if i >= states.shape[0]:
        return
    n[i] = xoroshiro128p_next(states, i)
    f[i] = xoroshiro128p_uniform_float32(states, i) + xoroshiro128p_normal_float32(states, int32(i))
    d[i] = xoroshiro128p_uniform_float64(states, i) + xoroshiro128p_normal_float64(states, i)
    xoroshiro128p_jump(states, i)


@cuda.jit("void(uint64[:, :], float32[::1])")
def strided(states, f):
    i = cuda.grid(1)
    f[i] = xoroshiro128p_uniform_float32(states, i)
