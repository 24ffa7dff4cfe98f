"""Pattern: a grid-stride loop over many more elements than threads
(2^25 elements, 2048 blocks of 128 threads in the issue's case).  Variants:
float32 and float64 a*x+y, the stride spelled cuda.blockDim.x *
cuda.gridDim.x, an int32 polynomial, a small grid of 1024 x 256 and rows of
a 2-D array walked by a grid-stride loop over the flattened index."""
# BENCH row=gs_axpy_f32 kernel=gs_axpy_f32 grid=2048 block=128 a=s:float32:2.5 a=in:float32:33554432:31:0:1 a=in:float32:33554432:32:0:1 a=out:float32:33554432
# BENCH row=gs_axpy_f32_1024x256 kernel=gs_axpy_f32 grid=1024 block=256 a=s:float32:-0.5 a=in:float32:33554432:33:0:1 a=in:float32:33554432:34:0:1 a=out:float32:33554432
# BENCH row=gs_axpy_f64 kernel=gs_axpy_f64 grid=2048 block=128 a=s:float64:1.25 a=in:float64:16777216:35:0:1 a=in:float64:16777216:36:0:1 a=out:float64:16777216
# BENCH row=gs_dims_f32 kernel=gs_dims_f32 grid=2048 block=128 a=in:float32:33554432:37:-1:1 a=out:float32:33554432
# BENCH row=gs_poly_i32 kernel=gs_poly_i32 grid=2048 block=128 a=in:int32:33554432:38:-5000:5000 a=out:int32:33554432
# BENCH row=gs_2d_f32 kernel=gs_2d_f32 grid=2048 block=128 a=in:float32:8192x4096:39:0:1 a=out:float32:8192x4096
from numba import cuda


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def gs_axpy_f32(a, x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.size, stride):
        out[i] = a * x[i] + y[i]


@cuda.jit("void(float64, float64[::1], float64[::1], float64[::1])")
def gs_axpy_f64(a, x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.size, stride):
        out[i] = a * x[i] + y[i]


@cuda.jit("void(float32[::1], float32[::1])")
def gs_dims_f32(x, out):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    while i < x.size:
        v = x[i]
        out[i] = v * v - 0.5 * v
        i += cuda.blockDim.x * cuda.gridDim.x


@cuda.jit("void(int32[::1], int32[::1])")
def gs_poly_i32(x, out):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        v = x[i]
        out[i] = (3 * v + 7) * v - 11


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def gs_2d_f32(a, out):
    rows, cols = a.shape
    for k in range(cuda.grid(1), rows * cols, cuda.gridsize(1)):
        r = k // cols
        c = k % cols
        out[r, c] = a[r, c] * 2.0 + 1.0
