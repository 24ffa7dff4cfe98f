"""Device functions built on the math module (libdevice)."""
import math
from numba import cuda
import numpy as np


@cuda.jit(device=True)
def gaussian(x, mu, sigma):
    d = (x - mu) / sigma
    return math.exp(-0.5 * d * d) / (sigma * math.sqrt(2.0 * math.pi))


@cuda.jit("float32(float32)", device=True)
def softplus(x):
    return math.log(1 + math.exp(x))


@cuda.jit(device=True)
def wave(t):
    return math.sin(t) * math.cos(t) + math.tan(t / 4)


@cuda.jit("void(float64[:], float64[:])")
def apply_gaussian(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = gaussian(x[i], 0.0, 1.5)


@cuda.jit("void(float32[:], float32[:])")
def apply_float32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = softplus(v) + math.sqrt(abs(v)) + math.exp(v) + wave(v)


@cuda.jit("void(float64[:], float64[:])")
def many_math(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        r = math.log2(v + 1) + math.log10(v + 1) + math.log1p(v) + math.expm1(v)
        r += math.atan2(v, 2.0) + math.hypot(v, 3.0) + math.floor(v) + math.ceil(v)
        r += math.fabs(v) + math.erf(v) + math.tanh(v) + math.pow(v, 2.5)
        r += math.copysign(1.0, v) + math.fmod(v, 3.0) + math.trunc(v)
        if math.isnan(r) or math.isinf(r):
            r = 0.0
        out[i] = r


if __name__ == "__main__":
    x = np.linspace(-3, 3, 1000)
    out = np.zeros_like(x)
    apply_gaussian[4, 256](x, out)
