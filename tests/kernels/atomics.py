"""Every atomic operation on global and shared arrays of the supported dtypes."""
from numba import cuda, int32, float64
import numpy as np


@cuda.jit("void(int32[:], uint32[:], int64[:], uint64[:], float32[:], float64[:])")
def atomics_global(i32, u32, i64, u64, f32, f64):
    i = cuda.grid(1)
    cuda.atomic.add(i32, 0, 1)
    cuda.atomic.sub(i32, 1, 1)
    cuda.atomic.and_(i32, 2, 0xF0)
    cuda.atomic.or_(i32, 3, 1 << (i % 31))
    cuda.atomic.xor(i32, 4, i)
    cuda.atomic.max(i32, 5, i)
    cuda.atomic.min(i32, 6, -i)
    cuda.atomic.exch(i32, 7, i)
    cuda.atomic.cas(i32, 8, 0, i)
    cuda.atomic.inc(u32, 0, 100)
    cuda.atomic.dec(u32, 1, 100)
    cuda.atomic.add(u32, 2, 3)
    cuda.atomic.max(u32, 3, i)
    cuda.atomic.and_(u32, 4, 0xFF)
    cuda.atomic.cas(u32, 5, 7, 9)
    cuda.atomic.add(i64, 0, i)
    cuda.atomic.max(i64, 1, i)
    cuda.atomic.min(i64, 2, i)
    cuda.atomic.or_(i64, 3, i)
    cuda.atomic.exch(i64, 4, i)
    cuda.atomic.cas(i64, 5, 0, i)
    cuda.atomic.compare_and_swap(i64[6:], 0, i)
    cuda.atomic.add(u64, 0, 1)
    cuda.atomic.inc(u64, 1, 50)
    cuda.atomic.dec(u64, 2, 50)
    cuda.atomic.xor(u64, 3, 5)
    cuda.atomic.add(f32, 0, 1.5)
    cuda.atomic.sub(f32, 1, 0.5)
    cuda.atomic.max(f32, 2, i * 0.5)
    cuda.atomic.min(f32, 3, -1.0)
    cuda.atomic.add(f64, 0, 1.5)
    cuda.atomic.max(f64, 1, i * 0.25)
    cuda.atomic.min(f64, 2, i * 0.25)


@cuda.jit("void(int32[:], float64[:], int32[:, :])")
def atomics_shared(out, fout, grid2):
    s = cuda.shared.array(4, dtype=int32)
    sf = cuda.shared.array(2, dtype=float64)
    t = cuda.threadIdx.x
    if t < 4:
        s[t] = 0
    if t < 2:
        sf[t] = 0.0
    cuda.syncthreads()
    old = cuda.atomic.add(s, 0, 1)
    cuda.atomic.max(s, 1, old)
    cuda.atomic.min(s, 2, -t)
    cuda.atomic.add(sf, 0, 0.5)
    cuda.atomic.add(grid2, (t % 2, 0), 1)
    cuda.syncthreads()
    if t == 0:
        out[0] = s[0] + s[1] + s[2]
        fout[0] = sf[0]


if __name__ == "__main__":
    pass
