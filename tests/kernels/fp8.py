"""The fp8 types of numba.cuda._internal.cuda_fp8: every constructor, every
conversion out and every cvt_* intrinsic, assembled for sm_80 (the software
conversions) and sm_90 (satfinite float32 rounding by cvt.rn.satfinite)."""
from numba import cuda
from numba.cuda import int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64
from numba.cuda.types import float16, bfloat16
from numba.cuda._internal.cuda_fp8 import (fp8_e5m2, fp8_e4m3, fp8_e8m0, cvt_float_to_fp8,
    cvt_double_to_fp8, cvt_bfloat16raw_to_fp8, cvt_bfloat16raw_to_e8m0, cvt_float_to_e8m0,
    cvt_double_to_e8m0, cvt_e8m0_to_bf16raw, saturation_t, fp8_interpretation_t,
    cvt_float2_to_fp8x2, cvt_double2_to_fp8x2, cvt_float2_to_e8m0x2, cvt_double2_to_e8m0x2)
from cuda.bindings.runtime import cudaRoundMode


@cuda.jit("void(float32[:], float64[:], int64[:], uint64[:], float32[:], int64[:])")
def construct_and_read(f, d, i, u, out, iout):
    k = cuda.grid(1)
    if k < f.size:
        a = fp8_e4m3(f[k])
        b = fp8_e5m2(d[k])
        c = fp8_e8m0(i[k])
        e = fp8_e8m0(u[k])
        g = fp8_e4m3(float16(f[k]))
        h = fp8_e5m2(bfloat16(f[k]))
        out[k] = float32(a) + float32(b) + float32(c) + float32(float64(e)) + float32(float16(g))
        out[k] += float32(bfloat16(h)) + float32(bfloat16(c)) + float32(float16(c))
        iout[k] = int64(int8(a)) + int64(uint16(b)) + int64(c) + int64(uint64(e)) + int64(float32(h) != 0)
        if float32(fp8_e8m0(i[k])) > 1:
            iout[k] += int64(int32(fp8_e4m3(int8(i[k])))) + int64(uint8(fp8_e5m2(uint32(u[k]))))


@cuda.jit("void(float32[:], float64[:], uint8[:], uint8[:], uint16[:])")
def intrinsics(f, d, e, out, raw):
    k = cuda.grid(1)
    if k < f.size:
        out[8 * k] = cvt_float_to_fp8(f[k], saturation_t.SATFINITE, fp8_interpretation_t.E4M3)
        out[8 * k + 1] = cvt_float_to_fp8(f[k], saturation_t.NOSAT, fp8_interpretation_t.E5M2)
        out[8 * k + 2] = cvt_double_to_fp8(d[k], saturation_t.SATFINITE, fp8_interpretation_t.E5M2)
        r = cvt_e8m0_to_bf16raw(e[k])
        out[8 * k + 3] = cvt_bfloat16raw_to_fp8(r, saturation_t.NOSAT, fp8_interpretation_t.E4M3)
        out[8 * k + 4] = cvt_bfloat16raw_to_e8m0(r, saturation_t.SATFINITE, cudaRoundMode.cudaRoundZero)
        out[8 * k + 5] = cvt_float_to_e8m0(f[k], saturation_t.NOSAT, cudaRoundMode.cudaRoundPosInf)
        out[8 * k + 6] = cvt_double_to_e8m0(d[k], saturation_t.SATFINITE, cudaRoundMode.cudaRoundPosInf)
        out[8 * k + 7] = cvt_float_to_fp8(f[k], saturation_t.SATFINITE, fp8_interpretation_t.E5M2)
        raw[k] = r.x


@cuda.jit("void(float32[:], float64[:], uint16[:])")
def pairs(f, d, out):
    k = cuda.grid(1)
    if k + 1 < f.size:
        p = cuda.float32x2(f[k], f[k + 1])
        q = cuda.float64x2(d[k], d[k + 1])
        out[4 * k] = cvt_float2_to_fp8x2(p, saturation_t.SATFINITE, fp8_interpretation_t.E4M3)
        out[4 * k + 1] = cvt_double2_to_fp8x2(q, saturation_t.NOSAT, fp8_interpretation_t.E5M2)
        out[4 * k + 2] = cvt_float2_to_e8m0x2(p, saturation_t.SATFINITE, cudaRoundMode.cudaRoundPosInf)
        out[4 * k + 3] = cvt_double2_to_e8m0x2(q, saturation_t.NOSAT, cudaRoundMode.cudaRoundZero)
