"""cmath.log's real part near |z| = 1, where log(hypot(x, y)) loses its
relative accuracy (millions of ulps off on most of these points): each
result must be within 4 ulps of CPython's cmath.log, whose values are
written below (computed in Python by cmath.log(complex(x, y)).real).
out[k] is 1 where it is, else 0; the last three points are far from 1."""
import cmath
from numba import cuda

# RUN: lognear --grid 1 --block 14 ok=zeros:i4:14 got=zeros:f8:14
# EXPECT: ok: int32[14] [1, 1, 1, ..., 1] sum=14 crc=dfcac42c
#   (computed in Python from: [1] * 14)

PTS = (
    (0.6, 0.8, 2.7755575615628914e-17),
    (0.8, -0.6, 2.7755575615628914e-17),
    (1.0, 9.5367431640625e-07, 4.547473508862573e-13),
    (1.0, 1e-09, 5e-19),
    (0.28, 0.96, -2.7755575615628914e-17),
    (-0.96, 0.28, -2.7755575615628914e-17),
    (1.0000001, 0.0001, 1.0499999403338722e-07),
    (0.7071067811865476, 0.7071067811865475, 0.0),
    (0.9999999999, 0.0, -1.0000000827903711e-10),
    (-0.6, -0.8000001, 7.999999858165061e-08),
    (1.2, 0.5, 0.26236426446749106),
    (0.5, 0.7, -0.1505525463919608),
    (3.0, 4.0, 1.6094379124341003),
    (0.001, 0.002, -6.103036322765087),
)


@cuda.jit
def lognear(ok, got):
    k = cuda.threadIdx.x
    p = PTS[k]
    r = cmath.log(complex(p[0], p[1])).real
    got[k] = r
    ok[k] = 1 if abs(r - p[2]) <= 4 * 2.0 ** -52 * abs(p[2]) else 0
