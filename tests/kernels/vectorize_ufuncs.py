"""@vectorize functions compile to elementwise kernels (the contiguous,
vectorized layout kjit launches for aligned C arrays): every signature of
several dtypes, a math call, a --sig for a lazy one."""
# ARGS: ptx %s:add
# ARGS: ptx %s:hypot3
# ARGS: ptx %s:lerp --sig "float64(float64, float64, float32)"
# ARGS: ptx %s:to_u8
import math

from numba import vectorize


@vectorize(['float32(float32, float32)', 'float64(float64, float64)',
            'int8(int8, int8)', 'uint16(uint16, uint16)', 'int64(int64, int64)'], target='cuda')
def add(a, b):
    return a + b


@vectorize(['float32(float32, float32, float32)'], target='cuda')
def hypot3(x, y, z):
    return math.sqrt(x * x + y * y + z * z)


@vectorize(target='cuda')
def lerp(a, b, t):
    return a + (b - a) * t


@vectorize(['uint8(float64)'], target='cuda')
def to_u8(x):
    return x
