"""Vector addition: the canonical Numba CUDA example.

This is a real Numba script (python3 examples/vector_add.py runs it with
Numba on a GPU).  kjit compiles the same file: it reads the kernels marked
@cuda.jit and skips the host code under `if __name__ == "__main__":`.

    kjit ptx examples/vector_add.py --arch sm_80
"""
from numba import cuda
import numpy as np


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def add_kernel(x, y, out):
    idx = cuda.grid(1)
    if idx < out.size:
        out[idx] = x[idx] + y[idx]


if __name__ == "__main__":
    n = 1 << 20
    x = np.arange(n, dtype=np.float32)
    y = 2 * x
    out = np.empty_like(x)

    threads = 256
    blocks = (n + threads - 1) // threads
    add_kernel[blocks, threads](x, y, out)

    print(out[:8])
    print("max error:", np.max(np.abs(out - (x + y))))
