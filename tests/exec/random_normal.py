"""xoroshiro128p_normal_float32/64 against Numba's values for seed 12345
(tests/data/npy/xoroshiro_normal_float*.npy, written from
tests/numba/xoroshiro_reference.txt by tests/numba/xoroshiro_npy.py).  The
draws before them (6 next, 6 uniform_float32, 6 uniform_float64 per
generator) are those of the reference kernel.  ok[i, k] is 1 when the value
is within 2^-21 relative of Numba's (4 float32 ulps; normal_float64 takes
the log of a float32 uniform in float32, as Numba does).  On the GPU the
values are bit-identical (libdevice, as Numba: see docs/language.md for
the exact check); on the CPU the host's logf/cosf may differ from
libdevice's in the last bit."""
from numba import cuda
from numba.cuda.random import (xoroshiro128p_next, xoroshiro128p_uniform_float32,
                               xoroshiro128p_uniform_float64, xoroshiro128p_normal_float32,
                               xoroshiro128p_normal_float64)

K = 6
TOL = 2.0 ** -21

# RUN: normals --grid 1 --block 32 states=xoroshiro:5:12345 ref32=data/npy/xoroshiro_normal_float32.npy ref64=data/npy/xoroshiro_normal_float64.npy ok32=zeros:int32:5x6 ok64=zeros:int32:5x6
# EXPECT: ok32: int32[5x6] [1, 1, 1, ..., 1] sum=30 crc=f535623e
#   (computed in Python from: [1] * 30)
# EXPECT: ok64: int32[5x6] [1, 1, 1, ..., 1] sum=30 crc=f535623e
#   (computed in Python from: [1] * 30)


@cuda.jit
def normals(states, ref32, ref64, ok32, ok64):
    i = cuda.grid(1)
    if i >= states.shape[0]:
        return
    for k in range(K):
        xoroshiro128p_next(states, i)
    for k in range(K):
        xoroshiro128p_uniform_float32(states, i)
    for k in range(K):
        xoroshiro128p_uniform_float64(states, i)
    for k in range(K):
        v = xoroshiro128p_normal_float32(states, i)
        r = ref32[i, k]
        ok32[i, k] = 1 if abs(float(v) - float(r)) <= abs(float(r)) * TOL else 0
    for k in range(K):
        v = xoroshiro128p_normal_float64(states, i)
        r = ref64[i, k]
        ok64[i, k] = 1 if abs(v - r) <= abs(r) * TOL else 0
