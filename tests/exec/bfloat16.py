"""bfloat16 kernels (numba.cuda.bf16, sm_80+ on the GPU): the operators and
functions, each rounded once to bfloat16, and the conversions in every
rounding mode.  Expected values are computed in Python with exact rounding
(bf16(), bf16_f32(), bf16_int() in exec_expect.py), independently of kjit."""
from numba import cuda, float32, int8, int32, int64, uint32
from numba.cuda.bf16 import (bfloat16, hsqrt, hrsqrt, hrcp, hexp, hexp2, hexp10, hlog, hlog2,
                             hlog10, hsin, hcos, habs, hfma, hmax, hmin, hfloor, hrint, heq, hmax_nan,
                             hisnan, hisinf, bfloat16_to_int32_rn, bfloat16_to_int32_rz,
                             bfloat16_to_int32_rd, bfloat16_to_int32_ru, bfloat16_as_int16,
                             float32_to_bfloat16_rz, float32_to_bfloat16_ru,
                             int64_to_bfloat16_rd, uint32_to_bfloat16_rn, bfloat16_to_uint8_rz)

# RUN: bf_ops --grid 1 --block 16 out=zeros:f4:16x12 flags=zeros:int32:16 x=arange:f4:16
# EXPECT: out: float32[16x12] [-1.20312, -4.625, -4.9375, ..., -5] sum=-96.65838623 crc=816f944a
#   (computed in Python from: [v for k in range(16) for a in [bf16(k * 0.37 - 2.9)] for b in [bf16(1.7 - 0.23 * k)] for v in (bf16(a + b), bf16(a - b), bf16(a * b), bf16(a / b), bf16(a * b + a), -a, abs(b), max(a, b), min(a, b), bf16(math.sqrt(abs(a))), float(math.floor(a)), math.copysign(round(bf16(a * b)), a * b))])
# EXPECT: flags: int32[16] [114, 114, 114, ..., 78] sum=1536 crc=48f28484
#   (computed in Python from: [(a == b) + 2 * (a != b) + 4 * (a > b) + 8 * (a >= b) + 16 * (a < b) + 32 * (a <= b) + 64 + 128 * (bf16(a + a) == bf16(b + b)) for k in range(16) for a in [bf16(k * 0.37 - 2.9)] for b in [bf16(1.7 - 0.23 * k)]])
# RUN: bf_conv --grid 1 --block 16 iout=zeros:int32:16x12 x=arange:f4:16
# EXPECT: iout: int32[16x12] [-10, -9, -10, ..., 1] sum=304455 crc=59a95c25
#   (computed in Python from: [v for k in range(16) for t in [k * 1.37 - 9.6] for b in [bf16(t)] for v in (round(b), math.trunc(b), math.floor(b), math.ceil(b), math.trunc(b), bf16_bits(b), bf16_bits(bf16_f32(t, 'rz')), bf16_bits(bf16_f32(t, 'ru')), bf16_bits(bf16_int(k * 123457 - 999999, 'rd')), bf16_bits(bf16_int(k * 100003 + 7, 'rn')), min(255, math.trunc(abs(b))), (1 if b > 0 else -1 if b < 0 else 0) * (abs(b * bf16(1e38)) >= 2**128 - 2**119))])

# RUN: bf_special --grid 1 --block 1 flags=zeros:int32:6 out=zeros:f4:3
# EXPECT: flags: int32[6] [1, 0, -1, 1, 0, 1] sum=2 crc=12b930a7
#   (from: hisnan(nan), hisnan(1), hisinf(-inf), hisinf(inf), hisinf(nan), hisnan(hmax_nan(nan, 2)))
# EXPECT: out: float32[3] [2, -inf, 2] sum=-inf crc=074f57ac
#   (hmax/hmin with a NaN operand give the other)

# The math functions: float32 results rounded once (CUDA's versions use approximate
# instructions; the inputs are chosen so that every exact result lies at least
# 2**-15 (relative) away from a bfloat16 rounding boundary, so either way rounds alike).
# RUN: bf_math --grid 1 --block 16 out=zeros:f4:16x11 x=arange:f4:16
# EXPECT: out: float32[16x11] [0.566406, 1.76562, 3.125, ..., 0.710938] sum=429.8510742 crc=27fc87c7
#   (computed in Python from: [bf16(v) for k in range(16) for a in [bf16(k * 0.45 + 0.32)] for q in [a / 4] for v in (math.sqrt(a), 1 / math.sqrt(a), 1 / a, math.exp(q), 2 ** q, 10 ** q, math.log(a), math.log2(a), math.log10(a), math.sin(a), math.cos(a))])

# Local and shared arrays of bfloat16 (a float stored into one is rounded to nearest).

# A bfloat16 with another number: with an 8-bit int the bfloat16 operator, otherwise the
# bfloat16 is widened as Numba's overload rating picks (b * 2 is float64, b * float32 float32).


@cuda.jit
def bf_ops(out, flags, x):
    k = cuda.threadIdx.x
    a = bfloat16(x[k] * 0.37 - 2.9)
    b = bfloat16(1.7 - 0.23 * x[k])
    out[k, 0] = a + b
    out[k, 1] = a - b
    out[k, 2] = a * b
    out[k, 3] = a / b
    out[k, 4] = hfma(a, b, a)
    out[k, 5] = float32(-a)
    out[k, 6] = habs(b)
    out[k, 7] = hmax(a, b)
    out[k, 8] = hmin(a, b)
    out[k, 9] = hsqrt(habs(a))
    out[k, 10] = hfloor(a)
    out[k, 11] = hrint(a * b)
    c = a
    c += a
    d = b
    d *= bfloat16(2)
    flags[k] = ((a == b) + 2 * (a != b) + 4 * (a > b) + 8 * (a >= b) + 16 * (a < b)
                + 32 * (a <= b) + 64 * heq(a, a) + 128 * (c == d) + 256 * hisnan(a))


@cuda.jit
def bf_conv(iout, x):
    k = cuda.threadIdx.x
    t = x[k] * 1.37 - 9.6
    b = bfloat16(t)
    iout[k, 0] = bfloat16_to_int32_rn(b)
    iout[k, 1] = bfloat16_to_int32_rz(b)
    iout[k, 2] = bfloat16_to_int32_rd(b)
    iout[k, 3] = bfloat16_to_int32_ru(b)
    iout[k, 4] = int32(b)
    iout[k, 5] = bfloat16_as_int16(b)
    iout[k, 6] = bfloat16_as_int16(float32_to_bfloat16_rz(float32(t)))
    iout[k, 7] = bfloat16_as_int16(float32_to_bfloat16_ru(float32(t)))
    iout[k, 8] = bfloat16_as_int16(int64_to_bfloat16_rd(int64(k * 123457 - 999999)))
    iout[k, 9] = bfloat16_as_int16(uint32_to_bfloat16_rn(uint32(k * 100003 + 7)))
    iout[k, 10] = bfloat16_to_uint8_rz(habs(b))
    iout[k, 11] = hisinf(b * bfloat16(1e38))


@cuda.jit
def bf_special(flags, out):
    nanv = bfloat16(float("nan"))
    infv = bfloat16(float("-inf"))
    flags[0] = hisnan(nanv)
    flags[1] = hisnan(bfloat16(1.0))
    flags[2] = hisinf(infv)
    flags[3] = hisinf(bfloat16(float("inf")))
    flags[4] = hisinf(nanv)
    flags[5] = hisnan(hmax_nan(nanv, bfloat16(2.0)))
    out[0] = hmax(nanv, bfloat16(2.0))
    out[1] = infv
    out[2] = hmin(bfloat16(2.0), nanv)


@cuda.jit
def bf_math(out, x):
    k = cuda.threadIdx.x
    a = bfloat16(x[k] * 0.45 + 0.32)
    q = a / bfloat16(4)
    out[k, 0] = hsqrt(a)
    out[k, 1] = hrsqrt(a)
    out[k, 2] = hrcp(a)
    out[k, 3] = hexp(q)
    out[k, 4] = hexp2(q)
    out[k, 5] = hexp10(q)
    out[k, 6] = hlog(a)
    out[k, 7] = hlog2(a)
    out[k, 8] = hlog10(a)
    out[k, 9] = hsin(a)
    out[k, 10] = hcos(a)
