"""Kernels made by a Python function at import time (Numba freezes a
closure's values when it compiles): a factory defines a @cuda.jit kernel or
device function closing over its arguments and returns it; each top-level
call is its own kernel, named by its module variable; the factory called
by name on the command line (FILE:'make_blur(1)') is one more.  A device
function may be an argument (`edge=clamp`), and `if edge is not None:` is
decided when the kernel compiles."""
from numba import cuda


@cuda.jit(device=True)
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


def make_blur(radius, edge=None):
    """A box blur of width 2 * radius + 1."""
    width = 2 * radius + 1

    @cuda.jit
    def blur(src, dst):
        i = cuda.grid(1)
        n = src.size
        if i < n:
            s = 0.0
            for k in range(-radius, radius + 1):
                j = i + k
                if edge is not None:
                    j = edge(j, 0, n - 1)
                elif j < 0 or j >= n:
                    continue
                s += src[j]
            dst[i] = s / width
    return blur


def make_scale(f):
    def scale(x):
        return x * f
    return cuda.jit(device=True)(scale)


def make_apply(dev, offset):
    @cuda.jit(device=True)
    def shifted(x):
        return dev(x) + offset

    @cuda.jit
    def apply(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = shifted(a[i])
    return apply


blur3 = make_blur(1)
blur5 = make_blur(2, clamp)
times3 = make_scale(3.0)
apply3, apply_half = make_apply(times3, 1), make_apply(make_scale(0.5), offset=-1)

# RUN: blur3 --grid 1 --block 8 src=arange:f32:8 dst=zeros:f32:8
# EXPECT: dst: float32[8] [0.333333, 1, 2, ..., 4.33333] sum=25.66666684 crc=ddda21af
#   (computed in Python from: [sum(j for j in range(i - 1, i + 2) if 0 <= j < 8) / 3 for i in range(8)])
# RUN: blur5 --grid 1 --block 8 src=arange:f32:8 dst=zeros:f32:8
# EXPECT: dst: float32[8] [0.6, 1.2, 2, ..., 6.4] sum=28.00000036 crc=d166f0a1
#   (computed in Python from: [sum(sorted((0, j, 7))[1] for j in range(i - 2, i + 3)) / 5 for i in range(8)])
# RUN: 'make_blur(2)' --grid 1 --block 8 src=arange:f32:8 dst=zeros:f32:8
# EXPECT: dst: float32[8] [0.6, 1.2, 2, ..., 3.6] sum=23.80000007 crc=b1b248a1
#   (computed in Python from: [sum(j for j in range(i - 2, i + 3) if 0 <= j < 8) / 5 for i in range(8)])
# RUN: apply3 --grid 1 --block 8 a=arange:f32:8
# EXPECT: a: float32[8] [1, 4, 7, ..., 22] sum=92 crc=aaccbbb2
#   (computed in Python from: [3 * i + 1 for i in range(8)])
# RUN: apply_half --grid 1 --block 8 a=arange:f32:8
# EXPECT: a: float32[8] [-1, -0.5, 0, ..., 2.5] sum=6 crc=00a7ddad
#   (computed in Python from: [0.5 * i - 1 for i in range(8)])
