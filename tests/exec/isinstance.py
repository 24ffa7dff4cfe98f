"""isinstance(x, classes) in kernels, as Numba decides it from x's type at
compile time (numba-cuda's ol_isinstance): int, float, complex and bool are
Numba's int64, float64, complex128 and boolean (so an int32 is not an
`int`, nor a bool an `int`), a NumPy or Numba scalar type is itself, tuple
matches any tuple; a tuple of classes matches any of them.  A branch on a
parameter's type is pruned before typing, so the untaken side may not
type-check for that argument (Numba 0.68 types both sides and refuses
`pruned`; it also fails typing `classes`: tests/numba/known_differences.txt)."""
import numpy as np
from numba import cuda, float32, int32
from numba.cuda._internal.cuda_bf16 import nv_bfloat16

# RUN: bf16 --grid 1 --block 1 arr=zeros:f4:1
# EXPECT: arr: float32[1] [3.14062] sum=3.140625 crc=76236ac0
#   (computed in Python from: [3.140625])


@cuda.jit
def bf16(arr):
    x = nv_bfloat16(3.14)
    if isinstance(x, nv_bfloat16):
        arr[0] = float32(x)
    else:
        arr[0] = float32(0.0)

# RUN: classes --grid 1 --block 1 out=zeros:i4:14 f=1.5 n=3
# EXPECT: out: int32[14] [1, 0, 1, ..., 0] sum=8 crc=cfc84bc4
#   (computed in Python from: [1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0])


@cuda.jit
def classes(out, f, n):
    i32 = int32(n)
    f32 = np.float32(f)
    b = n > 2
    t = cuda.grid(2)
    out[0] = isinstance(n, int)            # int64: int
    out[1] = isinstance(i32, int)          # int32 is not int64
    out[2] = isinstance(i32, np.int32)
    out[3] = isinstance(f32, float)        # float32 is not float64
    out[4] = isinstance(f, float)
    out[5] = isinstance(f32, (int, float32))
    out[6] = isinstance(b, int)            # boolean is not int64
    out[7] = isinstance(b, bool)
    out[8] = isinstance(t, int)
    out[9] = isinstance(t, tuple)
    out[10] = isinstance(1j, complex)
    out[11] = isinstance(out, float)
    out[12] = not isinstance(f, (list, dict, set))
    out[13] = isinstance(f, ())

# RUN: pruned --grid 1 --block 1 out=zeros:f8:2 x=2.5
# EXPECT: out: float64[2] [5, 0] sum=5 crc=1c6c69c0
#   (computed in Python from: [5.0, 0.0])
# RUN: pruned --grid 1 --block 1 out=zeros:f8:2 x=full:f8:3:4.0
# EXPECT: out: float64[2] [0, 12] sum=12 crc=c73aa46f
#   (computed in Python from: [0.0, 12.0])


@cuda.jit
def pruned(out, x):
    if isinstance(x, float):
        out[0] = x * 2
    else:
        out[1] = x[0] + x[1] + x[2]
