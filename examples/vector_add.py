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

# The compiles that ptxas assembles for sm_80 and sm_90 (tests/ptxas.sh):
# ARGS: ptx %s

# The tests' runs (tests/exec.sh, on the CPU target and on the GPU):
# RUN: add_kernel --grid 4 --block 256 x=arange:float32:1024 y=full:float32:1024:2 out=zeros:float32:1024
# EXPECT: out: float32[1024] [2, 3, 4, ..., 1025] sum=525824 crc=50082b86
#   (computed in Python from: [k + 2.0 for k in range(1024)])
# RUN: add_kernel --grid 4 --block 256 x=arange:float32:1000 y=arange:float32:1000 out=zeros:float32:1000
# EXPECT: out: float32[1000] [0, 2, 4, ..., 1998] sum=999000 crc=30688fcd
#   (computed in Python from: [2.0 * k for k in range(1000)])
