"""Device functions imported by tests/kernels/modules.py (not a kernel test)."""
from numba import cuda, float32

SCALE = float32(0.5)


@cuda.jit(device=True)
def axpy(a, x, y):
    return a * x + y * SCALE
