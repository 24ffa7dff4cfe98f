"""complex64/complex128 arithmetic and every cmath function, through
libdevice (complex64 in float32: __nv_*f)."""
import cmath
from numba import cuda


@cuda.jit("void(complex64[::1], complex128[::1], float32[::1])")
def cplx(a, b, f):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        a[i] = x * x / (x + 1j) - x ** 2 + (x ** x).conjugate()
        b[i] = y / x + y ** 0.5 - abs(y)
        f[i] = x.real + x.imag + abs(x) + cmath.phase(x)
        r, p = cmath.polar(y)
        b[i] += cmath.rect(r, p) + cmath.sqrt(y) + cmath.exp(y) + cmath.log(y) + cmath.log10(y)
        b[i] += cmath.sin(y) + cmath.cos(y) + cmath.tan(y) + cmath.asin(y) + cmath.acos(y)
        b[i] += cmath.atan(y) + cmath.sinh(y) + cmath.cosh(y) + cmath.tanh(y)
        b[i] += cmath.asinh(y) + cmath.acosh(y) + cmath.atanh(y)
        a[i] += cmath.sqrt(x) + cmath.exp(x) + cmath.log(x) + cmath.tanh(x) + cmath.atanh(x)
        if cmath.isnan(x) or cmath.isinf(y) or not cmath.isfinite(x) or x == y:
            f[i] = 0
