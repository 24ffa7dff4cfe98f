"""Block-level inclusive prefix sum of 2^26 float32 (Hillis-Steele in shared
memory, 1024 elements per block of 1024 threads, two barriers per step):
out[i] = x[b*1024] + ... + x[i] within block b, and sums[b] = the block's
total (the input of the block-sums pass of a full scan)."""
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
