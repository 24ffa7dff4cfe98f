"""Vector addition, one element per thread (the canonical Numba example)."""
from numba import cuda
import numpy as np


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def add_kernel(x, y, out):
    idx = cuda.grid(1)
    if idx < out.size:
        out[idx] = x[idx] + y[idx]


if __name__ == "__main__":
    n = 100000
    x = np.arange(n, dtype=np.float32)
    y = 2 * x
    out = np.empty_like(x)
    threads = 256
    blocks = (n + threads - 1) // threads
    add_kernel[blocks, threads](x, y, out)
    assert np.allclose(out, x + y)
