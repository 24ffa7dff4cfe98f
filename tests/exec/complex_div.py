"""Complex division in both of CPython's branches (|b.real| >= |b.imag| and
the other), with a zero real or imaginary part in the divisor: the
quotient is CPython's _Py_c_quot's, bit for bit (one set of three
divisions after choosing the branch's operands, codegen/cg_complex.c)."""
from numba import cuda

DIVS = (2.0 + 0.5j, 0.25 - 3.0j, -7.0 + 0.0j, 0.0 + 2.5j, 1.5 + 1.5j, -0.001 + 4.0j)


@cuda.jit
def cdiv128(x, out):
    i = cuda.grid(1)
    if i < x.size:
        a = complex(x[i] - 3.0, 2.0 * x[i] - 5.0)
        out[i] = a / DIVS[i % 6]


# RUN: cdiv128 --grid 1 --block 32 x=arange:f64:24 out=zeros:c128:24
# EXPECT: out: complex128[24] [(-2-2j), (0.937931-0.744828j), (0.142857+0.142857j), ..., (10.2487-5.00256j)] sum=88.48126286 crc=af900f00
#   (computed in Python from: [complex(k - 3.0, 2.0 * k - 5.0) / [2.0 + 0.5j, 0.25 - 3.0j, -7.0 + 0.0j, 0.0 + 2.5j, 1.5 + 1.5j, -0.001 + 4.0j][k % 6] for k in range(24)])
