"""Monte Carlo pi with numba.cuda.random, as Numba runs it: 64 blocks of 128
threads, 100 points each from xoroshiro128p_uniform_float32, states from
create_xoroshiro128p_states(8192, seed=1) (xoroshiro:8192:1).  The per-thread
counts must equal Numba's, recorded on a GPU (pi_values in
tests/numba/xoroshiro_reference.txt, sum 643627: pi ~ 3.14271).

Numba's kernel (tests/numba/gen_xoroshiro_reference.py) writes
x * x + y * y; on the GPU that sum is contracted into one fma (NVVM does it
for Numba, LLVM's NVPTX backend for kjit), while the CPU target rounds the
product first, which moves one point of thread 2774 across the circle.
So the test spells the fma out, and every target computes what Numba did."""
from numba import cuda, float32
from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32
import numpy as np

# RUN: monte_carlo_pi --grid 64 --block 128 states=xoroshiro:8192:1 n=100 out=zeros:int32:8192
# EXPECT: out: int32[8192] [73, 78, 74, ..., 82] sum=643627 crc=233ee2ce
#   (computed in Python from: [int(x) for l in open('tests/numba/xoroshiro_reference.txt') if l.startswith('pi_values ') for x in l.split()[1:]])


@cuda.jit
def monte_carlo_pi(states, n, out):
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    inside = 0
    for k in range(n):
        x = xoroshiro128p_uniform_float32(states, i)
        y = xoroshiro128p_uniform_float32(states, i)
        if cuda.fma(x, x, y * y) <= float32(1.0):
            inside += 1
    out[i] = inside


if __name__ == "__main__":
    threads = 64 * 128
    states = create_xoroshiro128p_states(threads, seed=1)
    out = cuda.device_array(threads, dtype=np.int32)
    monte_carlo_pi[64, 128](states, 100, out)
    print(4.0 * out.copy_to_host().sum() / (threads * 100))
