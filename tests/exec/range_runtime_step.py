"""range() with a step other than 1 (known only at run time, or constant): the loop runs
len(range(start, stop, step)) times (counted once at entry, the way
Numba's range iterator does), for positive and negative steps, empty
ranges, steps that do not divide the span, and bounds at the ends of
int64 (a span of 2**64 - 1 and a step of -2**63).  Each row: the count,
the int64 (wrapping) sum of the values and the last value (-7 if none);
the last column is set by the for-else clause.  -9223372036854775808 is
an int64 literal (Python folds the minus into it), in a constant array and
in a kernel."""
import numpy as np
from numba import cuda

CASES = np.array([
    [0, 10, 3], [10, 0, -3], [5, 5, 1], [0, -5, 2], [-5, 5, 4], [7, 100, 1000],
    [-9223372036854775808, 9223372036854775807, 4611686018427387904],
    [9223372036854775807, -9223372036854775808, -4611686018427387904],
    [-9223372036854775808, 9223372036854775807, 9223372036854775807],
    [9223372036854775807, -9223372036854775808, -9223372036854775808],
], dtype=np.int64)

# RUN: counted --grid 1 --block 6 out=zeros:int64:6x4
# EXPECT: out: int64[6x4] [4, 18, 9, ..., 1] sum=68 crc=6fa39cc1
#   (computed in Python from: [v for a, b, c in [[0, 10, 3], [10, 0, -3], [5, 5, 1], [0, -5, 2], [-5, 5, 4], [7, 100, 1000]] for v in [len(range(a, b, c)), sum(range(a, b, c)), list(range(a, b, c))[-1] if len(range(a, b, c)) else -7, 1]])
# Rows 6-9 span more than 2**63 values: Python's lengths, which kjit gives;
# Numba 0.68 overflows computing them (its run gives other counts there).
# RUN: counted --grid 1 --block 10 out=zeros:int64:10x4
# EXPECT: out: int64[10x4] [4, 18, 9, ..., 1] sum=1.844674407e+19 crc=f1bfb0b2
#   (computed in Python from: [v for a, b, c in [[0, 10, 3], [10, 0, -3], [5, 5, 1], [0, -5, 2], [-5, 5, 4], [7, 100, 1000], [-2**63, 2**63 - 1, 2**62], [2**63 - 1, -2**63, -2**62], [-2**63, 2**63 - 1, 2**63 - 1], [2**63 - 1, -2**63, -2**63]] for v in [len(range(a, b, c)), (sum(range(a, b, c)) + 2**63) % 2**64 - 2**63, list(range(a, b, c))[-1] if len(range(a, b, c)) else -7, 1]])
# RUN: extremes --grid 1 --block 1 out=zeros:int64:4
# EXPECT: out: int64[4] [-9223372036854775808, 3, -9223372036854775805, 9223372036854775807] sum=-9.223372037e+18 crc=0a7dfade
#   (computed in Python from: [-2**63, len(range(-2**63, -2**63 + 3)), sum(range(-2**63, -2**63 + 3)) + 2**64, 2**63 - 1])


@cuda.jit
def extremes(out):
    lo = -9223372036854775808
    out[0] = lo
    n = 0
    s = 0
    for i in range(-9223372036854775808, -9223372036854775805):
        n += 1
        s += i
    out[1] = n
    out[2] = s
    out[3] = lo - 1
    for i in range(9223372036854775807, 9223372036854775800, -3):
        out[4] += 1
    for i in range(-9223372036854775808, 9223372036854775807, 4611686018427387904):
        out[5] += 1


@cuda.jit
def counted(out):
    t = cuda.threadIdx.x
    start = CASES[t, 0]
    stop = CASES[t, 1]
    step = CASES[t, 2]
    n = 0
    s = 0
    last = -7
    for i in range(start, stop, step):
        n += 1
        s += i
        last = i
    else:
        out[t, 3] = 1
    out[t, 0] = n
    out[t, 1] = s
    out[t, 2] = last
