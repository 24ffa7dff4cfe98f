"""NumPy ufuncs on scalars inside kernels, in float32, float64 and integer
loops (typed by NumPy's loop tables, as Numba does)."""
import numpy as np
from numba import cuda


@cuda.jit("void(float32[::1], float64[::1], int32[::1], int8[::1], uint16[::1], boolean[::1])")
def np_math(f, d, n, b, u, flags):
    i = cuda.grid(1)
    if i < f.size:
        x = f[i]
        y = d[i]
        x = np.sin(x) + np.cos(x) + np.tan(x) + np.arcsin(x) + np.arccos(x) + np.arctan(x)
        x += np.sinh(x) + np.cosh(x) + np.tanh(x) + np.arcsinh(x) + np.arccosh(x)
        x += np.arctanh(x) + np.exp(x) + np.exp2(x) + np.expm1(x) + np.log(x) + np.log2(x)
        x += np.log10(x) + np.log1p(x) + np.sqrt(x) + np.cbrt(x) + np.fabs(x) + np.rint(x)
        x += np.deg2rad(x) + np.rad2deg(x) + np.degrees(x) + np.radians(x)
        x += np.arctan2(x, f[0]) + np.hypot(x, f[0]) + np.copysign(x, f[0])
        x += np.floor(x) + np.ceil(x) + np.trunc(x) + np.abs(x) + np.absolute(x) + np.sign(x)
        x += np.square(x) + np.reciprocal(x) + np.power(x, n[i]) + np.floor_divide(x, f[0])
        x += np.remainder(x, f[0]) + np.mod(x, f[0]) + np.fmod(x, f[0])
        x += np.maximum(x, f[0]) + np.minimum(x, f[0]) + np.fmax(x, f[0]) + np.fmin(x, f[0])
        y = np.sin(y) + np.exp(y) + np.power(y, y) + np.floor_divide(y, 3.0) + np.fmax(y, 1.0)
        y += np.sqrt(n[i]) + np.sin(b[i]) + np.log(u[i]) + np.pi + np.e + np.inf
        f[i] = x
        d[i] = y
        k = n[i]
        k = np.abs(k) + np.sign(k) + np.square(k) + np.power(k, 2) + np.floor_divide(k, 3)
        k += np.remainder(k, -3) + np.fmod(k, 3) + np.maximum(k, 1) + np.minimum(k, 2)
        k += np.reciprocal(k) + np.floor(k)
        n[i] = k
        b[i] = np.abs(b[i]) + np.floor_divide(b[i], b[0])
        u[i] = np.remainder(u[i], u[0]) + np.maximum(u[i], u[0])
        flags[i] = np.isnan(x) or np.isinf(y) or np.isfinite(k) or np.maximum(flags[i], True)
        k = np.add(k, 1) + np.subtract(k, 2) + np.multiply(k, 3) + np.negative(k) + np.positive(k)
        k += np.bitwise_and(k, 7) + np.bitwise_or(k, 8) + np.bitwise_xor(k, 9) + np.invert(k)
        k += np.left_shift(k, 2) + np.right_shift(k, 1) + np.conjugate(k)
        n[i] = k
        flags[i] = (np.logical_and(x, y) or np.logical_or(k, x) or np.logical_xor(k, y)
                    or np.logical_not(x) or np.greater(x, y) or np.greater_equal(k, x)
                    or np.less(x, 1) or np.less_equal(u[i], k) or np.equal(x, y)
                    or np.not_equal(b[i], u[i]) or np.signbit(x) or np.bitwise_not(flags[i]))
        d[i] = np.nextafter(y, 0.0) + np.float_power(x, 2) + np.nextafter(x, f[0])
