"""--debug: an assert in a device function reports the device function's
line, under the kernel that was launched"""
from numba import cuda

# ARGS: run %s:k --target cpu --debug --grid 1 --block 4 arange:f32:4


@cuda.jit(device=True)
def safe_log(v):
    assert v > 0.0, "safe_log: v must be positive"
    return v


@cuda.jit
def k(a):
    i = cuda.grid(1)
    a[i] = safe_log(a[i])
