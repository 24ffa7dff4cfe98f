"""The Monte Carlo estimate of pi with numba.cuda.random's xoroshiro128+.

    python3 examples/monte_carlo_pi.py          # with Numba, on a GPU
    kjit run examples/monte_carlo_pi.py:compute_pi --grid 32 --block 64 states=xoroshiro:2048:1 iterations=500 out=zeros:float32:2048

Each of 2048 threads draws 500 points in the unit square from its own
generator and writes 4 * (points inside the quarter circle) / 500; the mean
of `out` estimates pi (sum/2048 = 3.1427 here).  The generators' states are
made on the host: create_xoroshiro128p_states(2048, seed=1) in Numba,
`states=xoroshiro:2048:1` for kjit run, the same values.
"""
from numba import cuda
from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32
import numpy as np


@cuda.jit
def compute_pi(states, iterations, out):
    i = cuda.grid(1)
    if i >= out.size:
        return
    inside = 0
    for _ in range(iterations):
        x = xoroshiro128p_uniform_float32(states, i)
        y = xoroshiro128p_uniform_float32(states, i)
        if x * x + y * y <= 1.0:
            inside += 1
    out[i] = 4.0 * inside / iterations


if __name__ == "__main__":
    threads = 32 * 64
    states = create_xoroshiro128p_states(threads, seed=1)
    out = np.zeros(threads, dtype=np.float32)
    compute_pi[32, 64](states, 500, out)
    print("pi ~", out.mean())
    # the same generators give the same points everywhere: this sum is the
    # tests' expected one (below), from a model of the generators
    assert abs(out.sum(dtype=np.float64) - 6436.320009) < 1e-5

# The compiles that ptxas assembles for sm_80 and sm_90 (tests/ptxas.sh):
# ARGS: ptx %s:compute_pi --sig "void(uint64[:, :], int64, float32[::1])"

# The tests' run (tests/exec.sh, on the CPU target and on the GPU).  The
# expected values come from tests/numba/xoroshiro_model.py, a model of
# Numba's generators checked against Numba's own output; with this seed no
# point lies so close to the circle that the GPU's fused x * x + y * y
# (one fma) and the CPU's two roundings could disagree.
# RUN: compute_pi --grid 32 --block 64 states=xoroshiro:2048:1 iterations=500 out=zeros:float32:2048
# EXPECT: out: float32[2048] [3.12, 3.144, 3.08, ..., 3.232] sum=6436.320009 crc=5d8db259
#   (computed in Python from: __import__('runpy').run_path('tests/numba/xoroshiro_model.py')['pi_estimates'](2048, 500, 1))
