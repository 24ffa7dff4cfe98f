"""256-bin histogram of 2^26 uint8 values with atomics: each block of 256
threads counts a grid-stride share of the input into a shared-memory
histogram, then adds it to the global one (one atomic per bin and block).
Launched with a fixed grid of 1024 blocks."""
from numba import cuda, uint32

NBINS = 256


@cuda.jit("void(uint8[::1], uint32[::1])")
def histogram(data, bins):
    h = cuda.shared.array(NBINS, dtype=uint32)
    tid = cuda.threadIdx.x
    h[tid] = 0
    cuda.syncthreads()
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, data.size, stride):
        cuda.atomic.add(h, data[i], 1)
    cuda.syncthreads()
    cuda.atomic.add(bins, tid, h[tid])
