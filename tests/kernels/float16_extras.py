"""cuda.fp16's __h* names, saturating/relu/NaN-propagating variants,
unordered comparisons, tests, conversions and bit casts (sm_80+)."""
from numba import cuda


@cuda.jit("void(float16[::1], float32[::1], int16[::1], int32[::1], boolean[::1])")
def half_extras(h, f, s, n, flags):
    i = cuda.grid(1)
    if i < h.size:
        a = h[i]
        b = h[0]
        c = cuda.fp16.__hadd_rn(a, b) + cuda.fp16.__hsub_rn(a, b) + cuda.fp16.__hmul_rn(a, b)
        c = cuda.fp16.__hadd_sat(c, b) + cuda.fp16.__hsub_sat(c, b) + cuda.fp16.__hmul_sat(c, b)
        c = cuda.fp16.__hfma_sat(a, b, c) + cuda.fp16.__hfma_relu(a, b, c)
        c = cuda.fp16.__hmax_nan(c, a) + cuda.fp16.__hmin_nan(c, b) + cuda.fp16.htanh(c)
        c = cuda.fp16.htanh_approx(c) + cuda.fp16.__hadd(a, b) + cuda.fp16.__hfma(a, b, c)
        c = c + cuda.fp16.__float2half(f[i]) + cuda.fp16.__float2half_rn(f[i])
        c = c + cuda.fp16.__double2half(1.5) + cuda.fp16.__short_as_half(s[i])
        h[i] = c + cuda.fp16.__ushort_as_half(cuda.fp16.__half_as_ushort(a))
        f[i] = cuda.fp16.__half2float(c)
        s[i] = cuda.fp16.__half_as_short(c)
        n[i] = cuda.fp16.__hisinf(c)
        flags[i] = (cuda.fp16.__hisnan(c) or cuda.fp16.__hequ(a, b) or cuda.fp16.__hneu(a, b)
                    or cuda.fp16.__hgtu(a, b) or cuda.fp16.__hgeu(a, b)
                    or cuda.fp16.__hltu(a, b) or cuda.fp16.__hleu(a, b))
