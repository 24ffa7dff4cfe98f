"""Black-Scholes call and put prices of 2^24 options, float32 throughout
(math.exp, math.log, math.sqrt and a cumulative-normal device function);
one option per thread, 256 threads per block."""
from numba import cuda
import math
import numpy as np

A1 = np.float32(0.31938153)
A2 = np.float32(-0.356563782)
A3 = np.float32(1.781477937)
A4 = np.float32(-1.821255978)
A5 = np.float32(1.330274429)
RSQRT2PI = np.float32(0.39894228040143267793994605993438)
K0 = np.float32(0.2316419)
ONE = np.float32(1.0)
HALF = np.float32(0.5)
ZERO = np.float32(0.0)


@cuda.jit("float32(float32)", device=True)
def cnd(d):
    k = ONE / (ONE + K0 * math.fabs(d))
    ret = RSQRT2PI * math.exp(-HALF * d * d) * \
        (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))))
    if d > ZERO:
        ret = ONE - ret
    return ret


@cuda.jit("void(float32[::1], float32[::1], float32[::1], float32[::1], "
          "float32[::1], float32, float32)")
def black_scholes(call, put, S, X, T, R, V):
    i = cuda.grid(1)
    if i < S.size:
        s = S[i]
        x = X[i]
        t = T[i]
        sqrt_t = math.sqrt(t)
        d1 = (math.log(s / x) + (R + HALF * V * V) * t) / (V * sqrt_t)
        d2 = d1 - V * sqrt_t
        cnd1 = cnd(d1)
        cnd2 = cnd(d2)
        exp_rt = math.exp(-R * t)
        call[i] = s * cnd1 - x * exp_rt * cnd2
        put[i] = x * exp_rt * (ONE - cnd2) - s * (ONE - cnd1)
