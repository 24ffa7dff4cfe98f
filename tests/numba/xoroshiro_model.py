"""A model of Numba's xoroshiro128+ generators (numba.cuda.random) in Python
and NumPy, written from the published algorithm (SplitMix64 seeding, the
2**64-step jump, (next >> 11) * 2**-53 rounded to float32), for expected
values that do not come from kjit.  Checked against what Numba itself gave
on a GPU (tests/numba/xoroshiro_reference.txt, "pi_values"):
    python3 tests/numba/xoroshiro_model.py
"""
import numpy as np

MASK = (1 << 64) - 1
JUMP = (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922)


def splitmix64(seed):
    z = (seed + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK


def step(s0, s1):
    """(output, s0, s1) of one xoroshiro128+ step on Python ints."""
    out = (s0 + s1) & MASK
    s1 ^= s0
    return out, rotl(s0, 55) ^ s1 ^ ((s1 << 14) & MASK), rotl(s1, 36)


def jump(s0, s1):
    a = b = 0
    for word in JUMP:
        for bit in range(64):
            if word >> bit & 1:
                a ^= s0
                b ^= s1
            _, s0, s1 = step(s0, s1)
    return a, b


def states(n, seed):
    """create_xoroshiro128p_states(n, seed): generator i is generator i - 1
    jumped ahead by 2**64 steps; two uint64 arrays (s0, s1)."""
    s0 = s1 = splitmix64(seed & MASK)
    rows = [(s0, s1)]
    for _ in range(1, n):
        s0, s1 = jump(s0, s1)
        rows.append((s0, s1))
    return (np.array([r[0] for r in rows], np.uint64), np.array([r[1] for r in rows], np.uint64))


def next_all(s0, s1):
    """One step of every generator at once (NumPy's uint64 arithmetic wraps)."""
    out = s0 + s1
    s1 = s1 ^ s0
    s0n = ((s0 << np.uint64(55)) | (s0 >> np.uint64(9))) ^ s1 ^ (s1 << np.uint64(14))
    return out, s0n, (s1 << np.uint64(36)) | (s1 >> np.uint64(28))


def uniform_float32(out):
    return ((out >> np.uint64(11)).astype(np.float64) * 2.0 ** -53).astype(np.float32)


def pi_counts(n, iterations, seed, fused=None):
    """Points inside the circle per generator, x*x + y*y <= 1 in float32
    from two uniform_float32 draws (x first).  fused: None rounds x*x and
    y*y each; 'x' computes fma(x, x, y*y), 'y' fma(y, y, x*x) (a GPU's
    contraction; one float32 rounding of an exact float64 sum here, which
    the callers only trust where no point lies within 3e-7 of the circle)."""
    s0, s1 = states(n, seed)
    inside = np.zeros(n, np.int64)
    for _ in range(iterations):
        out, s0, s1 = next_all(s0, s1)
        x = uniform_float32(out)
        out, s0, s1 = next_all(s0, s1)
        y = uniform_float32(out)
        x64, y64 = x.astype(np.float64), y.astype(np.float64)
        if fused == 'x':
            r = (x64 * x64 + (y * y).astype(np.float64)).astype(np.float32)
        elif fused == 'y':
            r = (y64 * y64 + (x * x).astype(np.float64)).astype(np.float32)
        else:
            r = x * x + y * y
        inside += r <= 1.0
    return inside


def near_circle(n, iterations, seed, eps=3e-7):
    """How many points lie within eps of the unit circle (where rounding
    could move them across)."""
    s0, s1 = states(n, seed)
    near = 0
    for _ in range(iterations):
        out, s0, s1 = next_all(s0, s1)
        x = uniform_float32(out).astype(np.float64)
        out, s0, s1 = next_all(s0, s1)
        y = uniform_float32(out).astype(np.float64)
        near += int(np.sum(np.abs(x * x + y * y - 1.0) < eps))
    return near


def pi_estimates(n, iterations, seed):
    """Each generator's float32(4.0 * inside / iterations), the same with
    and without contraction (checked; an error otherwise)."""
    inside = pi_counts(n, iterations, seed)
    for fused in ('x', 'y'):
        if not np.array_equal(inside, pi_counts(n, iterations, seed, fused)):
            raise ValueError('contraction changes the counts: choose another seed')
    assert near_circle(n, iterations, seed) == 0
    return [float(np.float32(4.0 * int(c) / iterations)) for c in inside]


if __name__ == '__main__':
    ref = [int(v) for line in open('tests/numba/xoroshiro_reference.txt')
           if line.startswith('pi_values ') for v in line.split()[1:]]
    got = pi_counts(8192, 100, 1, fused='x')
    print('model vs Numba (8192 generators, seed 1, 100 points each): %s, sum %d'
          % ('equal' if list(got) == ref else 'DIFFERENT', got.sum()))
