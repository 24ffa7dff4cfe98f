# ARGS: ptx %s:k --sig "void(float32[::1])" -DN=4
# NVRTC options (-D, -I, ...) apply to CUDA C files only.
from numba import cuda


@cuda.jit
def k(x):
    x[0] = 1
