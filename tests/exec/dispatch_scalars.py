"""Numba's choice among several eager signatures of a kernel: each
signature the arguments convert to is rated by its conversions (unsafe,
then safe, then promote: fewer wins), the best one runs (ir/dispatch.h).
Each kernel stores values that show which signature ran: an int64 x keeps
2**53 + 1 and wraps in x * x * x, a float64 x rounds and does not wrap, a
float32 x computes in float32, a uint64 x does not go negative.  Ties are
errors (tests/errors/dispatch_ambiguous.py)."""
from numba import cuda

# float64 or int64, the example of issue 17: an int64 argument is exact for
# int64 (2**53 + 1 stays odd); int32 and int8 promote to int64 but convert
# safely to float64, so int64 wins; float32 and float16 promote to float64;
# uint64 converts safely to float64, unsafely to int64.

# RUN: fi --grid 1 --block 1 out=zeros:f64:3 x=9007199254740993
# EXPECT: out: float64[3] [9.0072e+15, 3, 2.70216e+16] sum=3.602879702e+16 crc=476200b5
#   (computed in Python from: [float(2**53 + 1), 3, float(((2**53 + 1)**3 + 2**63) % 2**64 - 2**63)])
# RUN: fi --grid 1 --block 1 out=zeros:f64:3 x=2.5
# EXPECT: out: float64[3] [2.5, 2.5, 15.625] sum=20.625 crc=360c2f92
#   (computed in Python from: [2.5, 2.5, 15.625])
# RUN: fi --grid 1 --block 1 out=zeros:f64:3 x=int32:2097153
# EXPECT: out: float64[3] [2.09715e+06, 3, -9.22336e+18] sum=-9.223358843e+18 crc=545099bf
#   (computed in Python from: [2097153.0, 3.0, float((2097153**3 + 2**63) % 2**64 - 2**63)])
# RUN: fi --grid 1 --block 1 out=zeros:f64:3 x=float32:0.1
# EXPECT: out: float64[3] [0.1, 0.1, 0.001] sum=0.201000003 crc=c1bd40b9
#   (computed in Python from: (lambda f: [f(0.1), f(0.1) % 10, f(0.1) * f(0.1) * f(0.1)])(lambda v: struct.unpack('<f', struct.pack('<f', v))[0]))
# RUN: fi --grid 1 --block 1 out=zeros:f64:3 x=uint64:9007199254740993
# EXPECT: out: float64[3] [9.0072e+15, 2, 7.30751e+47] sum=7.307508187e+47 crc=987c8def
#   (computed in Python from: [2.0**53, 2.0**53 % 10, 2.0**53 * 2.0**53 * 2.0**53])
# RUN: fi --grid 1 --block 1 out=zeros:f64:3 x=int8:-5
# EXPECT: out: float64[3] [-5, 5, -125] sum=-125 crc=470ac35c
#   (computed in Python from: [-5.0, 5.0, -125.0])
# RUN: fi --grid 1 --block 1 out=zeros:f64:3 x=float16:1.5
# EXPECT: out: float64[3] [1.5, 1.5, 3.375] sum=6.375 crc=4bd8d582
#   (computed in Python from: [1.5, 1.5, 3.375])


@cuda.jit(["void(float64[::1], float64)", "void(float64[::1], int64)"])
def fi(out, x):
    out[0] = x
    out[1] = x % 10
    out[2] = x * x * x

# float32 listed first: a float64 argument is exact for float64 (the first
# signature it converts to would round it to float32); an int64 converts
# safely to float64 but unsafely to float32.

# RUN: ff --grid 1 --block 1 out=zeros:f64:2 x=0.1
# EXPECT: out: float64[2] [0.1, 0.001] sum=0.101 crc=633bb9ab
#   (computed in Python from: [0.1, 0.1 * 0.1 * 0.1])
# RUN: ff --grid 1 --block 1 out=zeros:f64:2 x=float32:0.1
# EXPECT: out: float64[2] [0.1, 0.001] sum=0.1010000015 crc=29ccd503
#   (computed in Python from: (lambda f: [f(0.1), f(f(f(0.1) * f(0.1)) * f(0.1))])(lambda v: struct.unpack('<f', struct.pack('<f', v))[0]))
# RUN: ff --grid 1 --block 1 out=zeros:f64:2 x=16777217
# EXPECT: out: float64[2] [1.67772e+07, 4.72237e+21] sum=4.722367327e+21 crc=1d7e68d7
#   (computed in Python from: [16777217.0, 16777217.0 * 16777217.0 * 16777217.0])


@cuda.jit(["void(float64[::1], float32)", "void(float64[::1], float64)"])
def ff(out, x):
    out[0] = x
    out[1] = x * x * x

# int32, int64 or uint64: uint32 and uint8 promote to uint64 (only safe to
# the signed ones), so uint64 runs and 4e9 * 4e9 does not wrap; int64 and
# int32 arguments are exact for their own signature.

# RUN: iu --grid 1 --block 1 out=zeros:f64:2 x=-3
# EXPECT: out: float64[2] [-3, 9] sum=6 crc=96c50f59
#   (computed in Python from: [-3.0, 9.0])
# RUN: iu --grid 1 --block 1 out=zeros:f64:2 x=uint32:4000000000
# EXPECT: out: float64[2] [4e+09, 1.6e+19] sum=1.6e+19 crc=d74e58b6
#   (computed in Python from: [4e9, float(4000000000**2)])
# RUN: iu --grid 1 --block 1 out=zeros:f64:2 x=int32:-7
# EXPECT: out: float64[2] [-7, 49] sum=42 crc=c6a7b666
#   (computed in Python from: [-7.0, 49.0])
# RUN: iu --grid 1 --block 1 out=zeros:f64:2 x=uint8:200
# EXPECT: out: float64[2] [200, 40000] sum=40200 crc=f372cc6f
#   (computed in Python from: [200.0, 40000.0])


@cuda.jit(["void(float64[::1], int32)", "void(float64[::1], int64)", "void(float64[::1], uint64)"])
def iu(out, x):
    out[0] = x
    out[1] = x * x

# complex64 or float64: a float32 promotes to float64 but converts safely to
# complex64; a complex128 converts (unsafely) only to complex64; an int64
# converts safely to float64, unsafely to complex64.

# RUN: cf --grid 1 --block 1 out=zeros:f64:2 x=float32:0.1
# EXPECT: out: float64[2] [0.01, 0] sum=0.0100000003 crc=c3d52842
#   (computed in Python from: (lambda f: [f(0.1) * f(0.1), 0.0])(lambda v: struct.unpack('<f', struct.pack('<f', v))[0]))
# RUN: cf --grid 1 --block 1 out=zeros:f64:2 x=complex128:1.5+0.5j
# EXPECT: out: float64[2] [2, 1.5] sum=3.5 crc=582a0eda
#   (computed in Python from: [2.0, 1.5])
# RUN: cf --grid 1 --block 1 out=zeros:f64:2 x=3
# EXPECT: out: float64[2] [9, 0] sum=9 crc=79819bbf
#   (computed in Python from: [9.0, 0.0])


@cuda.jit(["void(float64[::1], complex64)", "void(float64[::1], float64)"])
def cf(out, x):
    y = x * x
    out[0] = y.real
    out[1] = y.imag

# Eager device functions called from a kernel: Numba types the call with
# the same ratings, but a tie goes to the first signature instead of an
# error.  int32 promotes to int64 (safe to float64): the int64 cube wraps;
# int16 converts safely to float32 and float64 alike: float32, listed
# first, runs (1001**3 rounds to a multiple of 64).

# RUN: dev --grid 1 --block 1 out=zeros:f64:2 x=int32:2097153 y=int16:1001
# EXPECT: out: float64[2] [-9.22336e+18, 1.003e+09] sum=-9.223358842e+18 crc=ab5d5a35
#   (computed in Python from: [float((2097153**3 + 2**63) % 2**64 - 2**63), 1003003008.0])


@cuda.jit(["float64(float64)", "int64(int64)"], device=True)
def cube(x):
    return x * x * x


@cuda.jit(["float32(float32)", "float64(float64)"], device=True)
def cube_f(x):
    return x * x * x


@cuda.jit("void(float64[::1], int32, int16)")
def dev(out, x, y):
    out[0] = cube(x)
    out[1] = cube_f(y)
