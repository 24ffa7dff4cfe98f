# ARGS: check %s
from numba import cuda

mul = cuda.declare_device('mul_f32', 'float32(float32, flaot32)')


@cuda.jit("void(float32[::1])", link=['link_cu_error.cu'])
def k(x):
    x[0] = mul(x[0], x[1])
