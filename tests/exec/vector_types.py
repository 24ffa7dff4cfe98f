"""CUDA vector types: cuda.float32x4(x, y, z, w) and its aliases (float4,
double2, int3, short2, uchar4...), built from numbers (converted to the
base type) and smaller vectors of the same base, read through .x .y .z .w,
passed to and returned from device functions."""
from numba import cuda


@cuda.jit(device=True)
def swap(v):
    return cuda.float32x2(v.y, v.x)


@cuda.jit(device=True)
def total(v):
    return v.x + v.y + v.z + v.w


# RUN: vectors --grid 1 --block 1 out=zeros:float64:16
# EXPECT: out: float64[16] [1, 3, 5, ..., 3] sum=324 crc=1211cc22
#   (computed in Python from: [1, 3, 5, 7, 10, 11, 2.5, 1.5, 16, 1, 2, 3, 4, 255, -1, 3])
@cuda.jit
def vectors(out):
    v1 = cuda.float64x4(1.0, 3.0, 5.0, 7.0)
    v2 = cuda.short2(10, 11)
    out[0] = v1.x
    out[1] = v1.y
    out[2] = v1.z
    out[3] = v1.w
    out[4] = v2.x
    out[5] = v2.y
    s = swap(cuda.float2(1.5, 2.5))
    out[6] = s.x
    out[7] = s.y
    out[8] = total(v1)
    one = cuda.int32x1(1)
    two = cuda.int2(2, 3)
    v = cuda.int4(one, two, 4)       # a 1-, then a 2-element vector, then a number
    out[9] = v.x
    out[10] = v.y
    out[11] = v.z
    out[12] = v.w
    u = cuda.uchar4(255, 0, 0, 0)
    out[13] = u.x
    w = cuda.int3(-1.7, 2, 3)        # numbers convert to the base type
    out[14] = w.x
    out[15] = w.z
