""".npy in and out: a Fortran-ordered file is passed as a strided view (not
transposed), updated in place and written with -o; a second run reads the
written file back."""
from numba import cuda

# RUN: bump --grid 1 --block 4,3,2 a=data/npy/fortran_f8.npy out=zeros:float64:2x3x4 -o a=%t/a.npy -o out=%t/out.npy
# EXPECT: a: float64[2x3x4] [100, 101, 102, ..., 123] sum=2676 crc=8cf05d69
#   (computed in Python from: [v + 100.0 for v in range(24)])
# EXPECT: out: float64[2x3x4] [1, 11, 21, ..., 231] sum=2784 crc=140eb26d
#   (computed in Python from: [10.0 * v + 1.0 for v in range(24)])
# RUN: bump --grid 1 --block 4,3,2 a=%t/out.npy out=%t/a.npy
# EXPECT: a: float64[2x3x4] [101, 111, 121, ..., 331] sum=5184 crc=6941c6f6
#   (computed in Python from: [10.0 * v + 101.0 for v in range(24)])
# EXPECT: out: float64[2x3x4] [11, 111, 211, ..., 2311] sum=27864 crc=f950671c
#   (computed in Python from: [10.0 * (10.0 * v + 1.0) + 1.0 for v in range(24)])


@cuda.jit
def bump(a, out):
    k = cuda.threadIdx.x
    j = cuda.threadIdx.y
    i = cuda.threadIdx.z
    out[i, j, k] = a[i, j, k] * 10.0 + 1.0
    a[i, j, k] += 100.0
