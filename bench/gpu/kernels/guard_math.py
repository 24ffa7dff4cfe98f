"""Guard corpus: math functions (float32 and float64 libdevice), complex
arithmetic and cmath, float16 arithmetic."""
# BENCH row=math_trig_f32 kernel=math_trig_f32 grid=131072 block=256 a=in:float32:33554432:121:-3:3 a=out:float32:33554432
# BENCH row=math_explog_f64 kernel=math_explog_f64 grid=65536 block=256 a=in:float64:16777216:122:0.1:5 a=out:float64:16777216
# BENCH row=math_special_f32 kernel=math_special_f32 grid=131072 block=256 a=in:float32:33554432:123:-2:2 a=out:float32:33554432
# BENCH row=math_pow_atan2_f64 kernel=math_pow_atan2_f64 grid=65536 block=256 a=in:float64:16777216:124:0.1:3 a=in:float64:16777216:125:-2:2 a=out:float64:16777216
# BENCH row=math_int_f32 kernel=math_int_f32 grid=131072 block=256 a=in:float32:33554432:126:-50:50 a=out:float32:33554432
# BENCH row=cplx_mul_add_c64 kernel=cplx_mul_add_c64 grid=131072 block=256 a=in:complex64:33554432:127:-1:1 a=in:complex64:33554432:128:-1:1 a=out:complex64:33554432
# BENCH row=cplx_exp_log_c128 kernel=cplx_exp_log_c128 grid=32768 block=256 a=in:complex128:8388608:129:-2:2 a=out:complex128:8388608
# BENCH row=cplx_abs_conj_c128 kernel=cplx_abs_conj_c128 grid=65536 block=256 a=in:complex128:16777216:130:-3:3 a=out:float64:16777216
# BENCH row=int_abs_minmax_i64 kernel=int_abs_minmax_i64 grid=131072 block=256 a=in:int64:33554432:133:-1000000:1000000 a=out:int64:33554432
# BENCH row=f16_arith kernel=f16_arith grid=131072 block=256 a=in:float32:33554432:131:-2:2 a=out:float32:33554432
# BENCH row=f16_fma_array kernel=f16_fma_array grid=131072 block=256 a=in:float32:33554432:132:0:1 a=out:float16:33554432
import cmath
import math

from numba import cuda, float32
from numba.types import float16


@cuda.jit("void(float32[::1], float32[::1])")
def math_trig_f32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = math.sin(v) * math.cos(v) + math.tan(v * float32(0.4))


@cuda.jit("void(float64[::1], float64[::1])")
def math_explog_f64(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = math.exp(-v) + math.log(v) + math.log1p(v) + math.sqrt(v)


@cuda.jit("void(float32[::1], float32[::1])")
def math_special_f32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = math.erf(v) + math.tanh(v) + math.gamma(v + float32(3.0))


@cuda.jit("void(float64[::1], float64[::1], float64[::1])")
def math_pow_atan2_f64(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.pow(x[i], y[i]) + math.atan2(y[i], x[i]) + math.hypot(x[i], y[i])


@cuda.jit("void(float32[::1], float32[::1])")
def math_int_f32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = math.floor(v) + math.ceil(v * float32(0.3)) + math.trunc(v) + abs(v) + math.copysign(float32(1.0), v)


@cuda.jit("void(complex64[::1], complex64[::1], complex64[::1])")
def cplx_mul_add_c64(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] * b[i] + a[i] - b[i] * b[i]


@cuda.jit("void(complex128[::1], complex128[::1])")
def cplx_exp_log_c128(z, out):
    i = cuda.grid(1)
    if i < z.size:
        out[i] = cmath.exp(z[i]) + cmath.log(z[i] + 3.0)


@cuda.jit("void(complex128[::1], float64[::1])")
def cplx_abs_conj_c128(z, out):
    i = cuda.grid(1)
    if i < z.size:
        w = z[i]
        out[i] = abs(w) + (w * w.conjugate()).real + w.imag


@cuda.jit("void(float32[::1], float32[::1])")
def f16_arith(x, out):
    i = cuda.grid(1)
    if i < x.size:
        h = float16(x[i])
        g = h * h + h - float16(0.5)
        out[i] = float32(g)


@cuda.jit("void(float32[::1], float16[::1])")
def f16_fma_array(x, out):
    i = cuda.grid(1)
    if i < x.size:
        h = float16(x[i])
        out[i] = cuda.fp16.hfma(h, h, float16(1.0))


@cuda.jit("void(int64[::1], int64[::1])")
def int_abs_minmax_i64(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = abs(v) // 3 + min(v, 1000) - max(v % 977, -v // 1001)
