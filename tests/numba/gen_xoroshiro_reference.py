"""Records numba.cuda.random streams on a GPU as reference data for kjit's
xoroshiro128p implementation (tests/numba/xoroshiro_reference.txt).

Run where Numba and a GPU are present:
    python3 tests/numba/gen_xoroshiro_reference.py > tests/numba/xoroshiro_reference.txt
Each line: a keyword, the configuration, then values (integers in decimal,
floats as the hex of their IEEE bits, so the comparison is bit-exact)."""
import struct
import numpy
numpy.row_stack = numpy.vstack
from numba import cuda, float32
from numba.cuda.random import (create_xoroshiro128p_states, xoroshiro128p_next,
                               xoroshiro128p_uniform_float32, xoroshiro128p_uniform_float64,
                               xoroshiro128p_normal_float32, xoroshiro128p_normal_float64)
import numpy as np

K = 6  # values per state and function


@cuda.jit
def draw(states, nxt, u32, u64, n32, n64):
    i = cuda.grid(1)
    if i >= states.shape[0]:
        return
    for k in range(K):
        nxt[i, k] = xoroshiro128p_next(states, i)
    for k in range(K):
        u32[i, k] = xoroshiro128p_uniform_float32(states, i)
    for k in range(K):
        u64[i, k] = xoroshiro128p_uniform_float64(states, i)
    for k in range(K):
        n32[i, k] = xoroshiro128p_normal_float32(states, i)
    for k in range(K):
        n64[i, k] = xoroshiro128p_normal_float64(states, i)


@cuda.jit
def monte_carlo_pi(states, n, out):
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    inside = 0
    for k in range(n):
        x = xoroshiro128p_uniform_float32(states, i)
        y = xoroshiro128p_uniform_float32(states, i)
        if x * x + y * y <= float32(1.0):
            inside += 1
    out[i] = inside


def f32hex(v):
    return '%08x' % struct.unpack('<I', struct.pack('<f', float(v)))[0]


def f64hex(v):
    return '%016x' % struct.unpack('<Q', struct.pack('<d', float(v)))[0]


def main():
    for seed in (0, 1, 42, 12345, 2**62 + 5):
        for sub in (0, 3):
            n = 5
            st = create_xoroshiro128p_states(n, seed=seed, subsequence_start=sub)
            h = st.copy_to_host()
            for i in range(n):
                print('state seed=%d sub=%d i=%d s0=%d s1=%d' % (seed, sub, i, h[i]['s0'], h[i]['s1']))
            nxt = cuda.device_array((n, K), dtype=np.uint64)
            u32 = cuda.device_array((n, K), dtype=np.float32)
            u64 = cuda.device_array((n, K), dtype=np.float64)
            n32 = cuda.device_array((n, K), dtype=np.float32)
            n64 = cuda.device_array((n, K), dtype=np.float64)
            draw[1, 32](st, nxt, u32, u64, n32, n64)
            for name, arr, fmt in (('next', nxt, str), ('uniform_float32', u32, f32hex),
                                   ('uniform_float64', u64, f64hex),
                                   ('normal_float32', n32, f32hex),
                                   ('normal_float64', n64, f64hex)):
                a = arr.copy_to_host()
                for i in range(n):
                    print('%s seed=%d sub=%d i=%d %s' % (name, seed, sub, i,
                                                        ' '.join(fmt(v) for v in a[i])))
    # Monte Carlo pi: 64 blocks of 128 threads, 100 points each, seed 1
    threads = 64 * 128
    st = create_xoroshiro128p_states(threads, seed=1)
    out = cuda.device_array(threads, dtype=np.int32)
    monte_carlo_pi[64, 128](st, 100, out)
    o = out.copy_to_host()
    print('pi threads=%d n=100 seed=1 sum=%d' % (threads, int(o.sum())))
    print('pi_first16 %s' % ' '.join(str(int(v)) for v in o[:16]))
    print('pi_values %s' % ' '.join(str(int(v)) for v in o))


main()
