"""bfloat16 (numba.cuda.bf16, sm_80+): the constructor from every number
type, operators, every h* function and math overload, the conversions in
each rounding mode and the bit casts, on values read from arrays so the
GPU instructions (cvt.rn.bf16.f32, fma.rn.bf16) are really emitted."""
import math
from numba import cuda, float16, float32, int8, int16, int64, uint16, uint64
from numba.cuda import bf16
from numba.cuda.bf16 import bfloat16
from numba.cuda._internal.cuda_bf16 import nv_bfloat16, __hadd, __float2bfloat16_rd


@cuda.jit(device=True)
def twice(a):
    return a + a


@cuda.jit("void(float32[::1], float64[::1], int64[::1], float32[::1], int32[::1])")
def bf16_ops(x, d, n, f, r):
    i = cuda.grid(1)
    if i < x.size:
        a = bfloat16(x[i])
        b = nv_bfloat16(d[i])
        c = bfloat16(n[i]) + bfloat16(float16(x[i])) + bfloat16(uint16(n[i])) + bfloat16(int8(n[i]))
        c = (a * b + c) / (a - b) + twice(-a) + +c
        c = bf16.hfma(a, b, c) + bf16.hfma_sat(a, b, c) + bf16.hfma_relu(a, b, c)
        c += bf16.hadd_sat(a, b) + bf16.hsub_sat(a, b) + bf16.hmul_sat(a, b) + __hadd(a, b)
        c += bf16.hadd_rn(a, b) + bf16.hsub_rn(a, b) + bf16.hmul_rn(a, b) + bf16.hdiv(a, b)
        c += bf16.hmax(a, b) + bf16.hmin(a, b) + bf16.hmax_nan(a, b) + bf16.hmin_nan(a, b)
        c += bf16.hsqrt(a) + bf16.hrsqrt(a) + bf16.hrcp(a) + bf16.hlog(a) + bf16.hlog2(a)
        c += bf16.hlog10(a) + bf16.hcos(a) + bf16.hsin(a) + bf16.hexp(a) + bf16.hexp2(a)
        c += bf16.hexp10(a) + bf16.htanh(a) + bf16.htanh_approx(a) + bf16.htrunc(a)
        c += bf16.hceil(a) + bf16.hfloor(a) + bf16.hrint(a) + bf16.habs(a) + bf16.hneg(a)
        c += math.sqrt(a) + math.floor(b) + math.exp(a) + math.sin(a) + math.tanh(b)
        c += bf16.float32_to_bfloat16_ru(x[i]) + __float2bfloat16_rd(x[i])
        c += bf16.int64_to_bfloat16_rz(n[i]) + bf16.uint64_to_bfloat16_ru(uint64(n[i]))
        c += bf16.int16_as_bfloat16(int16(n[i])) + bf16.float64_to_bfloat16(d[i])
        f[i] = c
        f[i] += float32(a) + float32(b)
        r[i] = (a < b) + (a == b) + bf16.hlt(a, b) + bf16.hgeu(a, b) + bf16.hisnan(c)
        r[i] += bf16.hisinf(c) + bf16.bfloat16_to_int32_ru(c) + bf16.bfloat16_as_int16(c)
        r[i] += bf16.bfloat16_to_uint8_rz(c) + int64(c) + bf16.bfloat16_to_uint64_rd(c)
