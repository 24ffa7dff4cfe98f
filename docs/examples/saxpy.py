"""out = a * x + out, one element per thread; a lazy kernel (docs/numba.md)."""
from numba import cuda


@cuda.jit
def saxpy(a, x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + out[i]


if __name__ == "__main__":
    import numpy as np
    n = 1000
    x = np.arange(n, dtype=np.float32)
    out = np.full(n, 2, dtype=np.float32)
    saxpy[4, 256](np.float32(3), x, out)
    assert np.allclose(out, 3 * np.arange(n) + 2)
