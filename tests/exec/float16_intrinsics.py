"""cuda.fp16 beyond the basic intrinsics: CUDA's __h* names (__hadd is
hadd), the _rn, _sat (clamped to [0, 1], NaN to 0) and __hfma_relu
variants, __hmax_nan/__hmin_nan (NaN wins), unordered comparisons,
__hisnan, __hisinf (-1, 0, 1), htanh, conversions and bit casts."""
import math

import numpy as np
from numba import cuda
from numba.cuda.types import float16


# RUN: half_extras --grid 1 --block 1 out=zeros:float32:16 flags=zeros:int32:12
# EXPECT: out: float32[16] [2.25, 1, 0, ..., 2] sum=15372.625 crc=44d894c0
#   (computed in Python from: [2.25, 1.0, 0.0, 1.0, 1.0, 0.0, 0.375, -0.75, 3.0, 0.0, 1.5, 15360, 1.5, -1, 0.75, 2.0])
# EXPECT: flags: int32[12] [1, 1, 1, ..., 1] sum=12 crc=8ad33d2a
#   (computed in Python from: [1] * 12)
@cuda.jit
def half_extras(out, flags):
    a = float16(1.5)
    b = float16(0.75)
    nan = float16(math.nan)
    inf = float16(math.inf)
    out[0] = cuda.fp16.__hadd_rn(a, b)
    out[1] = cuda.fp16.__hadd_sat(a, b)         # 2.25 clamps to 1
    out[2] = cuda.fp16.__hsub_sat(b, a)         # -0.75 clamps to 0
    out[3] = cuda.fp16.__hmul_sat(a, b)         # 1.125 clamps to 1
    out[4] = cuda.fp16.__hfma_sat(a, b, a)
    out[5] = cuda.fp16.__hfma_relu(-a, b, float16(0.0))
    out[6] = cuda.fp16.__hfma_relu(a, b, -b) + cuda.fp16.__hsub_sat(nan, a)
    out[7] = cuda.fp16.__hsub_rn(b, a)
    out[8] = cuda.fp16.__hmul_rn(a, float16(2.0))
    out[9] = cuda.fp16.__hadd(a, -a) + cuda.fp16.__hneg(float16(0.0))
    out[10] = cuda.fp16.__half2float(a)
    out[11] = cuda.fp16.__half_as_short(float16(1.0))
    out[12] = cuda.fp16.__short_as_half(np.int16(0x3E00))
    out[13] = cuda.fp16.__hisinf(-inf)
    out[14] = cuda.fp16.__float2half(np.float32(0.75)) + cuda.fp16.__double2half(0.0)
    out[15] = cuda.fp16.htanh(float16(0.0)) + cuda.fp16.__ushort_as_half(np.uint16(0x4000))
    flags[0] = math.isnan(cuda.fp16.__hmax_nan(nan, a))
    flags[1] = math.isnan(cuda.fp16.__hmin_nan(a, nan))
    flags[2] = cuda.fp16.__hmax_nan(a, b) == a and cuda.fp16.__hmin_nan(a, b) == b
    flags[3] = cuda.fp16.__hequ(nan, a) and not cuda.fp16.heq(nan, a)
    flags[4] = cuda.fp16.__hneu(a, a) == False and cuda.fp16.__hneu(nan, nan)
    flags[5] = cuda.fp16.__hgtu(nan, a) and cuda.fp16.__hgeu(a, a) and not cuda.fp16.__hgtu(b, a)
    flags[6] = cuda.fp16.__hltu(nan, a) and cuda.fp16.__hleu(b, a) and not cuda.fp16.__hltu(a, b)
    flags[7] = cuda.fp16.__hisnan(nan) and not cuda.fp16.__hisnan(inf)
    flags[8] = cuda.fp16.__hisinf(inf) == 1 and cuda.fp16.__hisinf(a) == 0
    flags[9] = cuda.fp16.__half_as_ushort(float16(-2.0)) == 0xC000
    flags[10] = math.isnan(cuda.fp16.__hfma_relu(nan, a, b))
    flags[11] = cuda.fp16.__hmax(a, b) == a and cuda.fp16.__hle(b, a) and cuda.fp16.__habs(-a) == a
