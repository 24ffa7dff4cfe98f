"""Block-level tree reduction in shared memory, combined with an atomic add."""
from numba import cuda, float32
import numpy as np

BLOCK = 256


@cuda.jit("void(float32[::1], float32[::1])")
def sum_reduce(data, result):
    buf = cuda.shared.array(BLOCK, dtype=float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < data.size:
        buf[tid] = data[i]
    else:
        buf[tid] = 0
    cuda.syncthreads()

    s = BLOCK // 2
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2

    if tid == 0:
        cuda.atomic.add(result, 0, buf[0])


if __name__ == "__main__":
    data = np.ones(10000, dtype=np.float32)
    result = np.zeros(1, dtype=np.float32)
    sum_reduce[(data.size + BLOCK - 1) // BLOCK, BLOCK](data, result)
    assert result[0] == data.sum()
