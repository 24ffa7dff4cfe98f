"""a.real and a.imag of complex arrays, as Numba has them (arrayobj.py,
array_real_part/array_imag_part): views of the floats inside the elements,
same shape and byte strides, so stores and atomics through them reach the
array (numba-cuda's TestAtomicOnComplexComponents); .real of a real array
is the array itself."""
from numba import cuda

# RUN: atomic_parts --grid 2 --block 4 z=zeros:c128:8
# EXPECT: z: complex128[8] [(1+0j), (1+2j), (1+4j), ..., (1+14j)] sum=8 crc=7db54cfa
#   (computed in Python from: [complex(1, 2 * i) for i in range(8)])
# RUN: parts_2d --grid 1 --block 4,4 z=zeros:c64:3x4 out=zeros:f64:3x4
# EXPECT: z: complex64[3x4] [(0+0j), (1-1j), (2-2j), ..., (23-3j)] sum=138 crc=667fe335
#   (computed in Python from: [complex(k // 4 * 10 + k % 4, -(k % 4)) for k in range(12)])
# EXPECT: out: float64[3x4] [15, 114, 213, ..., 2312] sum=13962 crc=b90026c5
#   (computed in Python from: [(k // 4 * 10 + k % 4) * 100 - (k % 4) + 4 + 8 + 3 for k in range(12)])
# RUN: real_of_real --grid 1 --block 5 x=arange:f32:5
# EXPECT: x: float32[5] [0, 2, 4, 6, 8] sum=20 crc=c20f37db
#   (computed in Python from: [2.0 * i for i in range(5)])


@cuda.jit
def atomic_parts(z):
    i = cuda.grid(1)
    if i < z.size:
        cuda.atomic.add(z.real, i, 1)
        cuda.atomic.add(z.imag, i, 2 * i)


@cuda.jit
def parts_2d(z, out):
    i, j = cuda.grid(2)
    if i < z.shape[0] and j < z.shape[1]:
        z.real[i, j] = i * 10 + j
        im = z.imag
        im[i, j] = -j
        v = z[i, j]
        out[i, j] = v.real * 100 + im[i, j] + z.real.shape[1] + im.strides[1] + z.imag[1:, ::2].shape[0] + 1


@cuda.jit
def real_of_real(x):
    i = cuda.grid(1)
    if i < x.size:
        x.real[i] = x[i] * 2
