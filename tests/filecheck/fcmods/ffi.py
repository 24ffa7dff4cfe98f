"""Imported by tests/filecheck/cg_modules.py (not a test itself): a
foreign function, a device function and a device function named like one
in the kernel file."""
from numba import cuda

mul = cuda.declare_device('mul_f32', 'float32(float32, float32)')


@cuda.jit(device=True)
def helper(x):
    return mul(x, x)
