"""CUDA intrinsics: fma, popc, clz, ffs, brev, cbrt, selp, laneid, warpsize."""
from numba import cuda
import numpy as np


@cuda.jit("void(uint32[:], uint64[:], float32[:], float64[:], int32[:])")
def intrinsics(u32, u64, f32, f64, out):
    i = cuda.grid(1)
    if i >= u32.size:
        return
    a = u32[i]
    b = u64[i]
    x = f32[i]
    y = f64[i]
    out[i] = cuda.popc(a) + cuda.clz(a) + cuda.ffs(a) + cuda.popc(b) + cuda.clz(b)
    u32[i] = cuda.brev(a)
    u64[i] = cuda.brev(b)
    f32[i] = cuda.fma(x, x, np.float32(1)) + cuda.cbrt(x)
    f64[i] = cuda.fma(y, 2.0, 1.0) + cuda.cbrt(y)
    f64[i] += cuda.selp(y > 0, y, -y)
    out[i] += cuda.laneid + cuda.warpsize


if __name__ == "__main__":
    pass
