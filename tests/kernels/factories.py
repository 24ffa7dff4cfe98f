# Kernels made by factory calls, through ptxas (tests/exec/factories.py runs them).
# ARGS: ptx %s:blur5 --sig "void(float32[:], float32[:])"
# ARGS: ptx %s:apply3 --sig "void(float64[::1])"
# ARGS: ptx %s:'make_blur(3)' --sig "void(float32[:], float32[:])"
# ARGS: ptx %s:saxpy2
from numba import cuda


@cuda.jit(device=True)
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


def make_blur(radius, edge=None):
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
            dst[i] = s / (2 * radius + 1)
    return blur


def make_scale(f):
    @cuda.jit(device=True)
    def scale(x):
        return x * f
    return scale


def make_apply(dev):
    @cuda.jit
    def apply(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = dev(a[i])
    return apply


def make_saxpy(alpha):
    @cuda.jit("void(float32[::1], float32[::1])")
    def saxpy(x, y):
        i = cuda.grid(1)
        if i < x.size:
            y[i] = alpha * x[i] + y[i]
    return saxpy


blur5 = make_blur(2, clamp)
apply3 = make_apply(make_scale(3.0))
saxpy2 = make_saxpy(2.0)
