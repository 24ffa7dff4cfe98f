"""bench/gpu/kernels/scan.py (the block-level Hillis-Steele prefix sum of the
GPU benchmarks; the code below the docstring is the same, tests/bench_sync.py
checks it) on 3000 elements: three blocks of 1024 threads, the last one
partly past the end.  Integer-valued float32, so every partial sum is exact."""
# RUN: scan --grid 3 --block 1024 x=arange:float32:3000 out=zeros:float32:3000 sums=zeros:float32:3
# EXPECT: out: float32[3000] [0, 1, 3, ..., 2.40237e+06] sum=1968139020 crc=2f45aa8c
#   (computed in Python from: [sum(range(k - k % 1024, k + 1)) for k in range(3000)])
# EXPECT: sums: float32[3] [523776, 1.57235e+06, 2.40237e+06] sum=4498500 crc=e22e85c0
#   (computed in Python from: [sum(range(1024 * b, min(1024 * b + 1024, 3000))) for b in range(3)])
from numba import cuda, float32

TPB = 1024
ZERO = float32(0.0)


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def scan(x, out, sums):
    s = cuda.shared.array(TPB, dtype=float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    n = x.size
    s[t] = x[i] if i < n else ZERO
    cuda.syncthreads()
    off = 1
    while off < TPB:
        v = s[t - off] if t >= off else ZERO
        cuda.syncthreads()
        s[t] += v
        cuda.syncthreads()
        off *= 2
    if i < n:
        out[i] = s[t]
    if t == TPB - 1:
        sums[cuda.blockIdx.x] = s[t]
