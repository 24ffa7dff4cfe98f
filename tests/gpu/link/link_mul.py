"""A kernel calling CUDA C device functions from a .cu file (NVRTC +
nvJitLink), declared with cuda.declare_device: Numba's foreign-function
ABI, and abi='c' (a plain C function).  Run on the GPU by tests/gpu/run_gpu_suite.sh (--target cuda)."""
from numba import cuda

mul = cuda.declare_device('mul_f32', 'float32(float32, float32)')
clamp_add = cuda.declare_device('clamp_add_i32', 'int32(int32, int32)')
fma_c = cuda.declare_device('fma_f64', 'float64(float64, float64, float64)', abi='c')

# RUN: k --grid 2 --block 64 x=arange:float32:100 y=full:float32:100:2.5 out=zeros:float32:100
# EXPECT: out: float32[100] [0, 2.5, 5, ..., 247.5] sum=12375 crc=95a35c37
#   (computed in Python from: [2.5 * k for k in range(100)])
# RUN: k2 --grid 1 --block 64 a=arange:int32:64 out=zeros:int32:64
# EXPECT: out: int32[64] [-90, -87, -84, ..., 99] sum=288 crc=4d106a11
#   (computed in Python from: [max(-100, min(100, 3 * k - 90)) for k in range(64)])
# RUN: k3 --grid 1 --block 32 a=arange:float64:32 out=zeros:float64:32
# EXPECT: out: float64[32] [1, 1.5, 2, ..., 16.5] sum=280 crc=aa928b86
#   (computed in Python from: [k * 0.5 + 1.0 for k in range(32)])


@cuda.jit(link=['functions.cu'])
def k(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = mul(x[i], y[i])


@cuda.jit(link=['functions.cu'])
def k2(a, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = clamp_add(a[i] * 2, a[i] - 90)


@cuda.jit(link=['functions.cu'])
def k3(a, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = fma_c(a[i], 0.5, 1.0)
