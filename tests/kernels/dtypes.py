"""Every integer and float dtype as array elements and scalar arguments,
with the conversions stores perform."""
from numba import cuda
import numpy as np


@cuda.jit("void(int8[:], int16[:], int32[:], int64[:], uint8[:], uint16[:], uint32[:], uint64[:])")
def int_arrays(i8, i16, i32, i64, u8, u16, u32, u64):
    i = cuda.grid(1)
    if i < i8.size:
        i8[i] = i8[i] + 1
        i16[i] = i16[i] * 2 + i8[i]
        i32[i] = i16[i] - i32[i]
        i64[i] = i32[i] * i64[i]
        u8[i] = u8[i] + 200
        u16[i] = u16[i] // 3 + u8[i]
        u32[i] = u32[i] >> 1
        u64[i] = u64[i] + u32[i]


@cuda.jit("void(float32[:], float64[:], int32[:], uint8[:])")
def conversions(f32, f64, i32, u8):
    i = cuda.grid(1)
    if i < f32.size:
        f64[i] = f32[i] * 2
        f32[i] = f64[i] / 3
        i32[i] = f64[i]
        u8[i] = f32[i] * 10.5


@cuda.jit("void(int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64, boolean, float64[:])")
def scalar_args(a, b, c, d, e, f, g, h, x, y, flag, out):
    s = a + b + c + d + e + f + g
    t = x * y + h
    if flag:
        out[0] = s + t
    else:
        out[0] = s - t


if __name__ == "__main__":
    pass
