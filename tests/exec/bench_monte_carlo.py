"""bench/gpu/kernels/monte_carlo.py (the xoroshiro128p Monte Carlo call pricer
of the GPU benchmarks; the code below the docstring is the same,
tests/bench_sync.py checks it) with 8 generators, seed 9, 128 paths each,
S = K = 100, r = 0.05, v = 0.2, T = 1.  Expected values from a plain
Python model of numba.cuda.random (SplitMix64 seeding, 2^64 jumps,
xoroshiro128+, float32 Box-Muller with NumPy float32 log/cos/sqrt/exp):
the states after the run (each generator 256 steps on; exact, so with sum
and crc), and the 8 discounted mean payoffs to 6 digits (seed 9 is one
whose printed digits lie at least 1.5e-6 relative from a rounding
boundary, against about 2e-7 of float32 math-library differences; the sum
and crc are left out for that reason).  xoroshiro states are a kjit-only
input, so tests/numba/check_exec.py skips this run."""
# RUN: monte_carlo --grid 1 --block 32 states=xoroshiro:8:9 out=zeros:float32:8 s0=float32:100 strike=float32:100 r=float32:0.05 v=float32:0.2 t=float32:1
# EXPECT: states: uint64[8x2] [1517398230279556876, 15588594190029653502, 3048285172346667960, ..., 11333712336184154326] sum=1.269834274e+20 crc=ea27f70a
# EXPECT: out: float32[8] [10.0231, 12.3587, 11.8591, ..., 10.0215]
import math

from numba import cuda, float32
from numba.cuda.random import xoroshiro128p_normal_float32

PATHS = 128
HALF = float32(0.5)
ZERO = float32(0.0)


@cuda.jit
def monte_carlo(states, out, s0, strike, r, v, t):
    i = cuda.grid(1)
    if i >= out.size:
        return
    drift = (r - HALF * v * v) * t
    vol = v * math.sqrt(t)
    acc = ZERO
    for _ in range(PATHS):
        z = xoroshiro128p_normal_float32(states, i)
        st = s0 * math.exp(drift + vol * z)
        acc += max(st - strike, ZERO)
    out[i] = math.exp(-r * t) * (acc / float32(PATHS))
