"""CUDA vector types built, read and passed to device functions."""
from numba import cuda


@cuda.jit(device=True)
def dot3(a, b):
    return a.x * b.x + a.y * b.y + a.z * b.z


@cuda.jit("void(float32[::1], int64[::1])")
def vectors(x, n):
    i = cuda.grid(1)
    if i < x.size:
        p = cuda.float3(x[i], 2.0, 3.0)
        q = cuda.float32x3(cuda.float2(1.0, x[i]), x[0])
        x[i] = dot3(p, q)
        v = cuda.longlong4(cuda.long2(n[i], 2), cuda.int64x1(3), 4)
        n[i] = v.x + v.y + v.z + v.w
