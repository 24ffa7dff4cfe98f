"""Pattern: complex128 arithmetic with cmath.sqrt, complex division,
cmath.polar and cmath.phase.  Variants: one of each per element (the
issue's case), a division-heavy loop of 16 steps, and complex64."""
# BENCH row=cplx_mix_c128 kernel=cplx_mix_c128 grid=16384 block=256 a=in:complex128:4194304:61:-1:1 a=in:complex128:4194304:62:-1:1 a=out:complex128:4194304 a=out:float64:4194304
# BENCH row=cplx_div16_c128 kernel=cplx_div16_c128 grid=4096 block=256 a=in:complex128:1048576:63:-1:1 a=in:complex128:1048576:64:1:2 a=out:complex128:1048576
# BENCH row=cplx_mix_c64 kernel=cplx_mix_c64 grid=16384 block=256 a=in:complex64:4194304:65:-1:1 a=in:complex64:4194304:66:-1:1 a=out:complex64:4194304 a=out:float32:4194304
import cmath

from numba import cuda


@cuda.jit("void(complex128[::1], complex128[::1], complex128[::1], float64[::1])")
def cplx_mix_c128(z, w, out, mag):
    i = cuda.grid(1)
    if i < z.size:
        a = z[i]
        b = w[i]
        q = cmath.sqrt(a) / (b + 2.0)
        r, phi = cmath.polar(q)
        out[i] = q * a - b
        mag[i] = r + phi + cmath.phase(a * b)


@cuda.jit("void(complex128[::1], complex128[::1], complex128[::1])")
def cplx_div16_c128(z, c, out):
    i = cuda.grid(1)
    if i < z.size:
        x = z[i]
        k = c[i]
        for _ in range(16):
            x = (x * x + k) / (x + k)
        out[i] = x


@cuda.jit("void(complex64[::1], complex64[::1], complex64[::1], float32[::1])")
def cplx_mix_c64(z, w, out, mag):
    i = cuda.grid(1)
    if i < z.size:
        a = z[i]
        b = w[i]
        q = cmath.sqrt(a) / (b + 2)
        r, phi = cmath.polar(q)
        out[i] = q * a - b
        mag[i] = r + phi + cmath.phase(a * b)
