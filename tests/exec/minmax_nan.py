"""Builtin max()/min() with NaN operands, as Numba gives them.  Exactly two
float32/float64 operands: Numba's fmaxf/fmax (fminf/fmin), a NaN operand
gives the other, whichever side it is on (max.f32 on the GPU).  More
operands, or an int among them: Python's order (Numba's do_minmax), a later
value replaces the running one only when it compares greater (less), so a
NaN first is kept and a NaN later passed over: max(1.5, nan, 2.5) is 2.5,
max(nan, 1.5, 2.5) nan, max(nan, 0) nan, max(0, nan) 0."""
import math

from numba import cuda, float32

# RUN: minmax --grid 1 --block 1 out=zeros:float64:12
# EXPECT: out: float64[12] [1, 1, 1, ..., 2.5] sum=nan crc=c1608328
#   (computed in Python from: [1.0, 1.0, 1.0, 1.0, 1.5, max(1.5, math.nan, 2.5), max(math.nan, 1.5, 2.5), min(2.5, math.nan, 1.5), max(math.nan, 0), max(0, math.nan), min(3, 2.5), 2.5])


@cuda.jit
def minmax(out):
    nan = float32(math.nan)
    one = float32(1.0)
    out[0] = max(one, nan)
    out[1] = max(nan, one)
    out[2] = min(one, nan)
    out[3] = min(nan, one)
    out[4] = max(nan, 1.5)
    out[5] = max(1.5, math.nan, 2.5)
    out[6] = max(math.nan, 1.5, 2.5)
    out[7] = min(2.5, math.nan, 1.5)
    out[8] = max(nan, 0)
    out[9] = max(0, nan)
    out[10] = min(3, 2.5)
    out[11] = max(float32(2.0), float32(2.5))
