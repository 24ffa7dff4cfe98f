"""NumPy ufuncs on scalars inside kernels.  Numba types them by NumPy's loop
tables: the first loop every operand converts to safely, float16 loops
skipped; with ints mixed with floats, any int goes to a float loop.  So
np.sqrt(int16) is float32, np.sqrt(int32) float64, np.abs(int8) int8,
np.maximum(int8, uint8) int16, np.power(float32, int32) float32.  Semantics
are Numba's loops: maximum/minimum propagate NaN, fmax/fmin drop it,
integer division and remainder by zero give 0, floor_divide of floats is
floor(a / b)."""
import math

import numpy as np
from numba import cuda


# RUN: np_values --grid 1 --block 1 out=zeros:float64:24
# EXPECT: out: float64[24] [1, 0, 1, ..., 10] sum=1224.283185 crc=efda2ebc
#   (computed in Python from: [1, 0, 1, 0, 0, 0, 1, 2, 5, math.pi, -3, -2, 1024, 10, 180.0 * (math.pi / 180), 180.0, -2, -1, -1, 2, -4 - 4 - 0.5 + 0.5, 0.5, -1.5, 10])
@cuda.jit
def np_values(out):
    out[0] = np.exp(0.0) + np.sin(0.0) + np.tan(0.0) + np.arcsin(0.0) + np.arctan(0.0)
    out[1] = np.log(1.0) + np.expm1(0.0) + np.log1p(0.0) + np.arccos(1.0) + np.sinh(0.0)
    out[2] = np.cos(0.0) + np.tanh(0.0) + np.arcsinh(0.0) + np.arccosh(1.0) + np.arctanh(0.0)
    out[3] = np.log10(1.0) + np.log2(1.0)
    out[4] = np.sin(np.float32(0.0))
    out[5] = np.fabs(-0.0)
    out[6] = np.cosh(0.0)
    out[7] = np.sqrt(4.0)
    out[8] = np.hypot(3.0, 4.0)
    out[9] = np.arctan2(0.0, -1.0)
    out[10] = np.copysign(3.0, -0.0)
    out[11] = np.cbrt(-8.0)
    out[12] = np.exp2(10.0)
    out[13] = np.log2(1024.0)
    out[14] = np.deg2rad(180.0)
    out[15] = np.rad2deg(np.pi)
    out[16] = np.floor(-1.5)
    out[17] = np.ceil(-1.5)
    out[18] = np.trunc(-1.5)
    out[19] = np.rint(2.5)
    out[20] = np.rint(-3.5) + np.floor_divide(-7.5, 2.0) - np.remainder(-7.5, 2.0) + 0.5
    out[21] = np.remainder(-7.5, 2.0)
    out[22] = np.fmod(-7.5, 2.0)
    out[23] = np.floor_divide(1.0, 0.1)


# RUN: np_nan --grid 1 --block 1 out=zeros:int32:12
# EXPECT: out: int32[12] [1, 1, 1, ..., 1] sum=12 crc=8ad33d2a
#   (computed in Python from: [1] * 12)
@cuda.jit
def np_nan(out):
    nan = np.nan
    out[0] = np.isnan(np.maximum(nan, 1.0))
    out[1] = np.isnan(np.minimum(1.0, nan))
    out[2] = np.fmax(nan, 1.0) == 1.0
    out[3] = np.fmin(1.0, nan) == 1.0
    out[4] = np.isnan(np.sign(nan))
    out[5] = np.sign(-2.5) == -1.0 and np.sign(0.0) == 0.0 and np.sign(7.0) == 1.0
    out[6] = np.isinf(np.inf) and not np.isinf(nan) and np.isinf(-np.inf)
    out[7] = np.isfinite(1.0) and not np.isfinite(nan) and not np.isfinite(np.inf)
    out[8] = not np.isnan(5) and np.isfinite(5) and not np.isinf(5)
    out[9] = np.maximum(2.0, 3.0) == 3.0 and np.minimum(2.0, 3.0) == 2.0
    out[10] = np.isnan(np.fmax(nan, nan))
    out[11] = np.sqrt(-1.0) != np.sqrt(-1.0)


# Result types, seen through values: a float32 loop rounds to float32.
# RUN: np_types --grid 1 --block 1 out=zeros:float64:10 i16a=full:int16:1:2 u16a=full:uint16:1:2 i32a=full:int32:1:2 f32a=full:float32:1:3 ha=full:float16:1:2 ba=full:bool:1:1
# EXPECT: out: float64[10] [1.41421, 1.41421, 1.41421, ..., 0.333333] sum=8.323520873 crc=a2ebc0f0
#   (computed in Python from: f32(x) = struct.unpack('f', struct.pack('f', x))[0]: [f32(math.sqrt(2)), f32(math.sqrt(2)), math.sqrt(2), f32(1 / 3), f32(math.sqrt(2)), 1, 1 / 3, f32(1 / 3), 1 / 3, f32(1 / 3)])
@cuda.jit
def np_types(out, i16a, u16a, i32a, f32a, ha, ba):
    i16 = i16a[0]
    u16 = u16a[0]
    i32 = i32a[0]
    f32 = f32a[0]
    h = ha[0]
    b = ba[0]
    out[0] = np.sqrt(i16)                        # int16 -> float32
    out[1] = np.sqrt(u16)                        # uint16 -> float32
    out[2] = np.sqrt(i32)                        # int32 -> float64
    out[3] = np.reciprocal(np.power(f32, i32 - 1))  # (float32, int32) -> float32
    out[4] = np.sqrt(h)                          # float16 -> float32
    out[5] = np.sqrt(b)                          # bool -> float32
    out[6] = np.reciprocal(np.power(f32, 1.0) * 0.0 + f32)  # (float32, float64) -> float64
    out[7] = np.reciprocal(np.maximum(f32, i32))  # (float32, int32) -> float32
    out[8] = np.reciprocal(np.maximum(f32, 1.0))  # float64
    out[9] = np.reciprocal(np.fmin(f32, u16 + 7))  # (float32, int64) -> float32


# Integer loops keep (or promote to) an integer type and wrap in it.
# RUN: np_ints --grid 1 --block 1 out=zeros:int64:16 v8=full:int8:3:-128 u8a=full:uint8:1:255
# EXPECT: out: int64[16] [-128, 255, -112, ..., 45] sum=66 crc=4de6506e
#   (computed in Python from: [-128, 255, 144 - 256, -128, 0, 0, 0, 2, (2**64 - 7) % 3, -3, 255, 0, -1, -128, 9 % (2**64 - 1) + 0, 45])
@cuda.jit
def np_ints(out, v8, u8a):
    v8[1] = -1
    v8[2] = 20
    i8 = v8[0]
    m1 = v8[1]
    k = v8[2]
    u8 = u8a[0]
    out[0] = np.abs(i8)                   # int8 stays int8: -128
    out[1] = np.maximum(m1, u8)           # (int8, uint8) -> int16: 255
    out[2] = np.square(k)                 # int8: 400 wraps to -112
    out[3] = np.power(np.int8(2), np.int8(7))  # int8: 128 wraps to -128
    out[4] = np.floor_divide(i8, m1)      # MIN // -1 gives 0
    out[5] = np.floor_divide(7, 0)        # division by zero gives 0
    out[6] = np.remainder(7, 0)
    out[7] = np.remainder(-7, 3)          # the divisor's sign
    out[8] = np.fmod(-7, 3)               # Numba: an unsigned remainder, 0
    out[9] = np.floor_divide(5, -2)
    out[10] = np.sign(u8)                 # Numba compares as signed: -1, i.e. 255
    out[11] = np.reciprocal(np.int32(2))  # 1 / 2 truncated
    out[12] = np.reciprocal(np.int32(-1))
    out[13] = np.minimum(i8, k)
    out[14] = np.fmod(9, -1) + np.remainder(9, -1)
    out[15] = np.floor(45) + np.trunc(0) + np.ceil(0)


# Arithmetic, logic and comparison ufuncs, in the loop type.
# RUN: np_ops --grid 1 --block 1 out=zeros:float64:28
# EXPECT: out: float64[28] [-56, 1, 255, ..., 8] sum=25086.5 crc=af4faf64
#   (computed in Python from: [-56, 1, 255, 0, 24464, 255, -2.5, -3, 0, 1, 0, 1, 8, 14, 6, 255, 0, -6, -128, -4, 15, 0, 1, 1, 0, 1, 0, 8])
@cuda.jit
def np_ops(out):
    out[0] = np.add(np.int8(100), np.int8(100))           # int8 wraps
    out[1] = np.add(True, True)                            # bool: or
    out[2] = np.subtract(np.uint8(0), np.uint8(1))
    out[3] = np.multiply(True, False)                      # bool: and
    out[4] = np.multiply(np.int16(300), np.int16(300))     # int16 wraps
    out[5] = np.negative(np.uint8(1))
    out[6] = np.negative(2.5)
    out[7] = np.positive(-3) + np.conjugate(0)
    out[8] = np.logical_and(2, 0.0)
    out[9] = np.logical_or(0, 3)
    out[10] = np.logical_xor(1, 1)
    out[11] = np.logical_not(0.0)
    out[12] = np.bitwise_and(12, 10)
    out[13] = np.bitwise_or(12, 10)
    out[14] = np.bitwise_xor(12, 10)
    out[15] = np.invert(np.uint8(0))
    out[16] = np.bitwise_not(True)
    out[17] = np.invert(5)
    out[18] = np.left_shift(np.int8(1), np.int8(7))       # int8: -128
    out[19] = np.right_shift(-16, 2)
    out[20] = np.right_shift(np.uint8(255), np.uint8(4))
    out[21] = np.greater(np.nan, 1.0)
    out[22] = np.not_equal(np.nan, np.nan)
    out[23] = np.less_equal(2, 2.0)
    out[24] = np.greater(np.int64(-1), np.uint64(1))      # compared in float64
    out[25] = np.signbit(-0.0) and not np.signbit(3)
    out[26] = np.nextafter(1.0, 2.0) - 1.0 - 2.0 ** -52
    out[27] = np.float_power(2, 3)
