# ARGS: run %s:k --target cpu --grid 1 --block 4 x=arange:float32:4
# A foreign CUDA C function has no CPU version: an error at the call.
from numba import cuda

scale = cuda.declare_device('scale_f32', 'float32(float32)')


@cuda.jit(link=['link_cu_error.cu'])
def k(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = scale(x[i])
