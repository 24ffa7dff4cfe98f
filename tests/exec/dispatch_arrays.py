"""Numba's choice among eager signatures for arrays and tuples
(ir/dispatch.h).  A fresh Numba process knows only number conversions at
first: a signature whose array or tuple parameter is not exactly the
argument's type is considered only when no signature matches so; then a
C-contiguous array converts safely to a [:] parameter and a tuple as its
worst element."""
from numba import cuda

# A float64[::1] argument is exact for the [::1] signature, which wins even
# though its int64 -> float64 conversion is safe: the [:] one is not
# considered (2**53 + 1 rounds; % 10 of 2**53 is 2).

# RUN: lay --grid 1 --block 1 out=zeros:f64:2 x=9007199254740993
# EXPECT: out: float64[2] [2, 9.0072e+15] sum=9.007199255e+15 crc=2d85177d
#   (computed in Python from: [2.0, float(2**53)])
# RUN: lay --grid 1 --block 1 out=zeros:f64:2 x=2.5
# EXPECT: out: float64[2] [2.5, 2.5] sum=5 crc=29726cbc
#   (computed in Python from: [2.5, 2.5])


@cuda.jit(["void(float64[:], int64)", "void(float64[::1], float64)"])
def lay(out, x):
    out[0] = x % 10
    out[1] = x

# Only [:] signatures: the array converts safely to both, so the scalar
# decides (int64 exact beats int64 -> float64 safe).

# RUN: strided --grid 1 --block 1 out=zeros:f64:2 x=9007199254740993
# EXPECT: out: float64[2] [3, 9.0072e+15] sum=9.007199255e+15 crc=3e525789
#   (computed in Python from: [3.0, float(2**53)])


@cuda.jit(["void(float64[:], float64)", "void(float64[:], int64)"])
def strided(out, x):
    out[0] = x % 10
    out[1] = x

# Tuples: UniTuple(int64, 2) is exact for the int64 one; Tuple(float64,
# int64) matches neither exactly and converts safely to UniTuple(float64, 2)
# but unsafely to UniTuple(int64, 2); UniTuple(int32, 2) promotes to the
# int64 one.

# RUN: tup --grid 1 --block 1 out=zeros:f64:2 "t=(9007199254740993, 1)"
# EXPECT: out: float64[2] [9.0072e+15, 3] sum=9.007199255e+15 crc=8573293e
#   (computed in Python from: [float(2**53 + 2), 3.0])
# RUN: tup --grid 1 --block 1 out=zeros:f64:2 "t=(2.5, 1)"
# EXPECT: out: float64[2] [3.5, 2.5] sum=6 crc=3aa52c48
#   (computed in Python from: [3.5, 2.5])
# RUN: tup --grid 1 --block 1 out=zeros:f64:2 "t=(int32:2097153, int32:3)"
# EXPECT: out: float64[2] [2.09716e+06, 3] sum=2097159 crc=e9d60eb6
#   (computed in Python from: [2097156.0, 3.0])


@cuda.jit(["void(float64[::1], UniTuple(float64, 2))", "void(float64[::1], UniTuple(int64, 2))"])
def tup(out, t):
    out[0] = t[0] + t[1]
    out[1] = t[0] % 10
