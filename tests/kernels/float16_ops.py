"""float16 storage, operators (native f16 instructions on sm_80+), math in
float32, conversions, and every cuda.fp16 intrinsic."""
import math
import numpy as np
from numba import cuda, float16, int32


@cuda.jit("void(float16[::1], float16[::1], float32[::1], int32[::1])")
def half_ops(x, y, f, n):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        c = a * b + a / b - np.float16(1.5)
        c = cuda.fp16.hfma(a, b, c) + cuda.fp16.hadd(a, b) - cuda.fp16.hsub(a, b)
        c = cuda.fp16.hmul(c, cuda.fp16.hdiv(a, b)) + cuda.fp16.hneg(cuda.fp16.habs(b))
        c += cuda.fp16.hsqrt(a) + cuda.fp16.hrsqrt(a) + cuda.fp16.hrcp(b) + cuda.fp16.hexp(a)
        c += cuda.fp16.hexp2(a) + cuda.fp16.hexp10(a) + cuda.fp16.hlog(a) + cuda.fp16.hlog2(a)
        c += cuda.fp16.hlog10(a) + cuda.fp16.hsin(a) + cuda.fp16.hcos(a) + cuda.fp16.hceil(a)
        c += cuda.fp16.hfloor(a) + cuda.fp16.htrunc(a) + cuda.fp16.hrint(a)
        c = cuda.fp16.hmax(c, a) + cuda.fp16.hmin(c, b)
        if cuda.fp16.heq(a, b) or cuda.fp16.hne(a, c) or cuda.fp16.hgt(a, b) or cuda.fp16.hge(a, b):
            c = -c
        if cuda.fp16.hlt(a, b) and cuda.fp16.hle(a, b) and a < b:
            n[i] = int32(c)
        x[i] = c
        f[i] = math.sin(a) + a // b + a % b + a ** 2 + float16(n[i])
