"""Asserts that hold cost nothing but the check: the same results with
--debug and without.  Without debug an assert is not checked and its
condition is not evaluated (mark's store happens only with --debug)."""
from numba import cuda

# RUN: scale --grid 2 --block 4 --debug arange:f32:6 zeros:f32:6 6
# EXPECT: out: float32[6] [0, 0.5, 1, 1.5, 2, 2.5] sum=7.5 crc=cd57b953
#   (computed in Python from: [i * 0.5 for i in range(6)])
# RUN: scale --grid 2 --block 4 arange:f32:6 zeros:f32:6 6
# EXPECT: out: float32[6] [0, 0.5, 1, 1.5, 2, 2.5] sum=7.5 crc=cd57b953
#   (computed in Python from: [i * 0.5 for i in range(6)])
# RUN: unchecked --grid 1 --block 4 zeros:f32:4
# EXPECT: a: float32[4] [1, 1, 1, 1] sum=4 crc=e8681456
#   (computed in Python from: [1] * 4)
# RUN: side --grid 1 --block 3 zeros:f32:3
# EXPECT: a: float32[3] [0, 0, 0] sum=0 crc=7bd5c66f
#   (computed in Python from: [0] * 3)
# RUN: side --grid 1 --block 3 --debug zeros:f32:3
# EXPECT: a: float32[3] [7, 7, 7] sum=21 crc=f4b039ae
#   (computed in Python from: [7] * 3)


@cuda.jit(device=True)
def halve(v):
    assert v == v, "halve: NaN"
    return v * 0.5


@cuda.jit
def scale(a, out, n):
    i = cuda.grid(1)
    if i < n:
        assert a[i] >= 0.0, "inputs are non-negative"
        assert i < n
        out[i] = halve(a[i])


@cuda.jit
def unchecked(a):
    i = cuda.grid(1)
    assert a[i] > 100.0, "not checked without debug"
    a[i] = a[i] + 1.0


@cuda.jit(device=True)
def mark(a, i):
    a[i] = 7.0
    return True


@cuda.jit
def side(a):
    i = cuda.grid(1)
    assert mark(a, i)
