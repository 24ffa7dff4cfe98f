"""Histogram with global atomics (and a shared-memory privatized variant)."""
from numba import cuda, int32
import numpy as np

NBINS = 64


@cuda.jit("void(uint8[:], int32[:])")
def histogram(values, hist):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < values.size:
        cuda.atomic.add(hist, values[i] % NBINS, 1)
        i += stride


@cuda.jit("void(float32[:], float32, float32, uint32[:])")
def histogram_shared(x, xmin, xmax, hist):
    local = cuda.shared.array(NBINS, dtype=int32)
    t = cuda.threadIdx.x
    if t < NBINS:
        local[t] = 0
    cuda.syncthreads()
    nbins = hist.shape[0]
    width = (xmax - xmin) / nbins
    start = cuda.grid(1)
    for i in range(start, x.shape[0], cuda.gridsize(1)):
        b = int((x[i] - xmin) / width)
        if 0 <= b < NBINS:
            cuda.atomic.add(local, b, 1)
    cuda.syncthreads()
    if t < NBINS and t < nbins:
        cuda.atomic.add(hist, t, local[t])


if __name__ == "__main__":
    values = np.random.randint(0, 255, 100000).astype(np.uint8)
    hist = np.zeros(NBINS, dtype=np.int32)
    histogram[64, 128](values, hist)
    assert hist.sum() == values.size
