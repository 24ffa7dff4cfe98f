"""Sum of a float32 vector (2^26 elements): a shared-memory tree reduction per
block of 256 threads, then one atomic add per block into out[0]."""
from numba import cuda, float32

TPB = 256


@cuda.jit("void(float32[::1], float32[::1])")
def reduce_sum(x, out):
    s = cuda.shared.array(TPB, dtype=float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < x.size:
        s[tid] = x[i]
    else:
        s[tid] = 0
    cuda.syncthreads()
    stride = TPB // 2
    while stride > 0:
        if tid < stride:
            s[tid] += s[tid + stride]
        cuda.syncthreads()
        stride //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, s[0])
