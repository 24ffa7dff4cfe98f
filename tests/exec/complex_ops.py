"""complex64/complex128 operators, attributes and conversions: arrays of
both widths, + - * / **, unary minus, conjugate, abs, == and !=, cmath
polar/rect/phase and the predicates, a module-level complex constant."""
import cmath
import numpy as np
from numba import cuda

W = 0.5 + 0.25j

# RUN: ops --grid 1 --block 8 a=zeros:c8:8 out=zeros:c8:8x7 f=zeros:f4:8x4 flags=zeros:int64:8
# EXPECT: a: complex64[8] [(-3.5-1j), (-2.5-0.5j), (-1.5+0j), ..., (3.5+2.5j)] sum=0 crc=5f993b3f
#   (computed in Python from: [complex(k - 3.5, 0.5 * k - 1) for k in range(8)])
# EXPECT: out: complex64[8x7] [(-4.5+1j), (-2.5-3j), (5.5-6j), ..., (0.25-5j)] sum=-22.43934949 crc=2405597e
#   (computed in Python from: [v for k in range(8) for x in [complex(k - 3.5, 0.5 * k - 1)] for y in [complex(1.25 * (k % 3) - 1, 2 - k)] for v in (x + y, x - y, x * y, x / y, -x + y.conjugate(), y ** 2, cmath.rect(abs(y), cmath.phase(y)))])
# EXPECT: f: float32[8x4] [3.64005, 2.23607, 2.03444, ..., -1.5] sum=22.93269056 crc=78c7b55e
#   (computed in Python from: [v for k in range(8) for x in [complex(k - 3.5, 0.5 * k - 1)] for y in [complex(1.25 * (k % 3) - 1, 2 - k)] for v in (abs(x), cmath.polar(y)[0], cmath.polar(y)[1], x.real + y.imag)])
# EXPECT: flags: int64[8] [42, 26, 30, ..., 42] sum=292 crc=6266155d
#   (computed in Python from: [(x == y) + 2 * (x != y) + 4 * (x == x.conjugate()) + 8 * bool(y) + 16 * cmath.isfinite(y * 1e308) + 32 * cmath.isinf(y * 1e308) + 64 * cmath.isnan(y * (0.5 + 0.25j)) for k in range(8) for x in [complex(k - 3.5, 0.5 * k - 1)] for y in [complex(1.25 * (k % 3) - 1, 2 - k)]])
# RUN: powers --grid 1 --block 4 out=zeros:c8:4x3
# EXPECT: out: complex64[4x3] [(0.219304+0.705998j), (-2.14296-0.588439j), (-12.9097-3.07367j), ..., (0.793012+2.17792j)] sum=-5.611314088 crc=ce87e7e3
#   (computed in Python from: [v for k in range(4) for z in [complex(0.75 * k - 1.1, 1.3 - 0.6 * k)] for v in (z ** (0.5 + 0.25j), z ** 1.5, (z * 1j) ** z)])


@cuda.jit
def ops(a, out, f, flags):
    k = cuda.threadIdx.x
    a[k] = complex(k - 3.5, 0.5 * k - 1)
    x = a[k]  # complex64, exact for these values
    # Results are computed in complex128 and stored rounded to complex64 /
    # float32, so the last-bit differences between the GPU's math library
    # (and its fused multiply-adds) and the host's stay out of the output.
    y = complex(1.25 * (k % 3) - 1, 2 - k)
    out[k, 0] = x + y
    out[k, 1] = x - y
    out[k, 2] = x * y
    out[k, 3] = x / y
    out[k, 4] = -x + y.conjugate()
    out[k, 5] = y ** 2
    out[k, 6] = cmath.rect(abs(y), cmath.phase(y))
    r, phi = cmath.polar(y)
    f[k, 0] = abs(x + 0j)
    f[k, 1] = r
    f[k, 2] = phi
    f[k, 3] = x.real + y.imag
    big = y * 1e308
    flags[k] = ((x == y) + 2 * (x != y) + 4 * (x == x.conjugate()) + 8 * bool(y)
                + 16 * cmath.isfinite(big) + 32 * cmath.isinf(big) + 64 * cmath.isnan(y * W))


@cuda.jit
def powers(out):
    k = cuda.threadIdx.x
    z = complex(0.75 * k - 1.1, 1.3 - 0.6 * k)
    out[k, 0] = z ** W
    out[k, 1] = z ** 1.5
    out[k, 2] = (z * 1j) ** z
