"""Whole-array reductions as Numba has them (numba-cuda's np/arraymath.py):
np.all/any/sum/prod/mean/var/std, the nan* forms, np.count_nonzero and the
array methods, over global tuples of arrays unrolled with literal_unroll
(the cases of numba-cuda's test_array_reductions.py), 2-d and reversed
arrays.  Expected values from NumPy, which agrees with Numba's sequential
sums on arrays this small."""
import numpy as np
from numba import cuda
from numba.cuda.misc.special import literal_unroll

ALL_CASES = (
    np.float64([1.0, 0.0, float("inf"), float("nan")]),
    np.float64([1.0, -0.0, float("inf"), float("nan")]),
    np.float64([1.0, 1.5, float("inf"), float("nan")]),
    np.float64([[1.0, 1.5], [float("inf"), float("nan")]]),
    np.float64([[1.0, 1.5], [1.5, 1.0]]),
    np.float64([[0.0, -0.0], [1.5, 0.0]])[::-1],
    np.array([True, False, True]),
)

ARRAYS = (
    np.float64([1.0, 2.0, 0.0, -0.0, 1.0, -1.5]),
    np.float64([-1.5, 2.5, float("inf")]),
    np.float64([np.nan, -1.5, 2.5, np.nan, 3.0]),
    np.float64([np.nan, np.nan]),
    np.float64([[1.0, 2.5], [-3.0, 0.5]]),
    np.float32([0.1, 0.2, 0.3]),
)

INTS = (
    np.int64([[1, 0, 2], [0, 3, 0]]),
    np.int32([5, -7, 11]),
    np.uint8([200, 100, 3]),
    np.array([True, True, False]),
)


@cuda.jit
def truth(out_all, out_any):
    i = 0
    for case in literal_unroll(ALL_CASES):
        out_all[i] = np.all(case)
        out_any[i] = case.any()
        i += 1


@cuda.jit
def stats(s, m, v, d):
    i = 0
    for a in literal_unroll(ARRAYS):
        s[i] = np.sum(a)
        m[i] = a.mean()
        v[i] = np.var(a)
        d[i] = a.std()
        i += 1


@cuda.jit
def nanstats(s, p, m, v, d):
    i = 0
    for a in literal_unroll(ARRAYS):
        s[i] = np.nansum(a)
        p[i] = np.nanprod(a)
        m[i] = np.nanmean(a)
        v[i] = np.nanvar(a)
        d[i] = np.nanstd(a)
        i += 1


@cuda.jit
def integers(s, p, c, m):
    i = 0
    for a in literal_unroll(INTS):
        s[i] = np.sum(a)
        p[i] = a.prod()
        c[i] = np.count_nonzero(a)
        m[i] = np.mean(a)
        i += 1


@cuda.jit
def rows(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = np.sum(x[i]) + x[i, ::2].prod()

# RUN: truth --grid 1 --block 1 out_all=zeros:bool:7 out_any=zeros:bool:7
# EXPECT: out_all: bool[7] [False, False, True, ..., False] sum=3 crc=1972fb9c
#   (computed in Python from: [False, False, True, True, True, False, False])
# EXPECT: out_any: bool[7] [True, True, True, ..., True] sum=7 crc=1a45225a
#   (computed in Python from: [True, True, True, True, True, True, True])
# RUN: stats --grid 1 --block 1 s=zeros:f64:6 m=zeros:f64:6 v=zeros:f64:6 d=zeros:f64:6
# EXPECT: s: float64[6] [2.5, inf, nan, nan, 1, 0.6] sum=nan crc=127a3703
#   (computed in Python from: [2.5, float('inf'), float('nan'), float('nan'), 1.0, 0.6000000238418579])
# EXPECT: m: float64[6] [0.416667, inf, nan, nan, 0.25, 0.2] sum=nan crc=5710fb1e
#   (computed in Python from: [0.4166666666666667, float('inf'), float('nan'), float('nan'), 0.25, 0.20000000794728598])
# EXPECT: v: float64[6] [1.20139, nan, nan, nan, 4.0625, 0.00666667] sum=nan crc=0b86d970
#   (computed in Python from: [1.201388888888889, float('nan'), float('nan'), float('nan'), 4.0625, 0.006666667362054217])
# EXPECT: d: float64[6] [1.09608, nan, nan, nan, 2.01556, 0.0816497] sum=nan crc=e52b2108
#   (computed in Python from: [1.0960788698304922, float('nan'), float('nan'), float('nan'), 2.0155644370746373, 0.08164966235113418])
# RUN: nanstats --grid 1 --block 1 s=zeros:f64:6 p=zeros:f64:6 m=zeros:f64:6 v=zeros:f64:6 d=zeros:f64:6
# EXPECT: s: float64[6] [2.5, inf, 4, 0, 1, 0.6] sum=inf crc=869f22e4
#   (computed in Python from: [2.5, float('inf'), 4.0, 0.0, 1.0, 0.6000000238418579])
# EXPECT: p: float64[6] [0, -inf, -11.25, 1, -3.75, 0.006] sum=-inf crc=6c672392
#   (computed in Python from: [0.0, -float('inf'), -11.25, 1.0, -3.75, 0.0060000005178153515])
# EXPECT: m: float64[6] [0.416667, inf, 1.33333, nan, 0.25, 0.2] sum=nan crc=b52a7b34
#   (computed in Python from: [0.4166666666666667, float('inf'), 1.3333333333333333, float('nan'), 0.25, 0.2000000054637591])
# EXPECT: v: float64[6] [1.20139, nan, 4.05556, nan, 4.0625, 0.00666667] sum=nan crc=0959b38f
#   (computed in Python from: [1.201388888888889, float('nan'), 4.055555555555555, float('nan'), 4.0625, 0.006666667362054211])
# EXPECT: d: float64[6] [1.09608, nan, 2.01384, nan, 2.01556, 0.0816497] sum=nan crc=6581bf96
#   (computed in Python from: [1.0960788698304922, float('nan'), 2.0138409955990952, float('nan'), 2.0155644370746373, 0.08164966235113413])
# RUN: integers --grid 1 --block 1 s=zeros:i64:4 p=zeros:i64:4 c=zeros:i64:4 m=zeros:f64:4
# EXPECT: s: int64[4] [6, 9, 303, 2] sum=320 crc=6166dbd9
#   (computed in Python from: [6, 9, 303, 2])
# EXPECT: p: int64[4] [0, -385, 60000, 0] sum=59615 crc=31235e77
#   (computed in Python from: [0, -385, 60000, 0])
# EXPECT: c: int64[4] [3, 3, 3, 2] sum=11 crc=e3e647b5
#   (computed in Python from: [3, 3, 3, 2])
# EXPECT: m: float64[4] [1, 3, 101, 0.666667] sum=105.6666667 crc=646cb06d
#   (computed in Python from: [1.0, 3.0, 101.0, 0.6666666666666666])
# RUN: rows --grid 1 --block 4 x=arange:f32:3x4 out=zeros:f64:3
# EXPECT: out: float64[3] [6, 46, 118] sum=170 crc=fd7d3b17
#   (computed in Python from: [6.0, 46.0, 118.0])
