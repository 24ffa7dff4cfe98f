"""Monte Carlo price of a European call, float32: 2^20 threads, each with its
own xoroshiro128+ generator (numba.cuda.random, states from
create_xoroshiro128p_states(2^20, seed=1234)), draws PATHS standard normals
(xoroshiro128p_normal_float32: Box-Muller), prices
max(S * exp((r - v^2/2) T + v sqrt(T) z) - K, 0) and writes the discounted
mean payoff of its paths to out[i].  256 threads per block.  Compiled
lazily (@cuda.jit without a signature): Numba's state array is a record
array, kjit's a uint64 (n, 2) array with the same bytes."""
# (tests/CMakeLists.txt: the PTX of this signature goes through ptxas)
# ARGS: ptx %s:monte_carlo --sig "void(uint64[:, ::1], float32[::1], float32, float32, float32, float32, float32)"
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
