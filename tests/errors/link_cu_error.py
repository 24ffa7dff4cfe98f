# ARGS: ptx %s:k --sig "void(float32[::1])" --arch sm_80 --emit cubin -o -
# NVRTC's error is reported at its line of the .cu file.
from numba import cuda

scale = cuda.declare_device('scale_f32', 'float32(float32)')


@cuda.jit(link=['link_cu_error.cu'])
def k(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = scale(x[i])
