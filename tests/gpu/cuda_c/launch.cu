/* launch.cu - CUDA C kernels on the GPU through `kjit run` (run by
 * tests/gpu/run_gpu_suite.sh, --target cuda): a 2-d grid over a matrix,
 * scalars of several C types converted as C converts them, a void *
 * parameter, and an argument the launch refuses.
# RUN: axpb --grid 2,2 --block 8,8 y=zeros:float64:16x16 x=arange:float64:16x16 a=3 b=0.5 rows=16 cols=16
# EXPECT: y: float64[16x16] [0.5, 3.5, 6.5, ..., 765.5] sum=98048 crc=60896d0b
#   (computed in Python from: [3.0 * k + 0.5 for k in range(256)])
# RUN: mix --grid 1 --block 32 out=zeros:int64:32 s=int16:-3 u=uint8:250 l=7.9 f=bool:1
# EXPECT: out: int64[32] [255, 256, 257, ..., 286] sum=8656 crc=73889096
#   (computed in Python from: [k - 3 + 250 + 7 + 1 for k in range(32)])
# RUN: copy_bytes --grid 1 --block 64 dst=zeros:uint8:64 src=arange:uint8:64 n=64
# EXPECT: dst: uint8[64] [0, 1, 2, ..., 63] sum=2016 crc=100ece8c
#   (computed in Python from: [k for k in range(64)])
# RUN: axpb --grid 1 --block 1 y=zeros:float32:4 x=arange:float64:4 a=1 b=0 rows=2 cols=2
# EXPECT-EXIT: 1
 */
extern "C" __global__ void axpb(double *y, const double *x, double a, float b, int rows, int cols)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols)
        y[r * cols + c] = a * x[r * cols + c] + b;
}

extern "C" __global__ void mix(long long *out, short s, unsigned char u, int l, bool f)
{
    int i = threadIdx.x;
    out[i] = i + s + u + l + f;
}

extern "C" __global__ void copy_bytes(void *dst, const void *src, unsigned int n)
{
    unsigned int i = threadIdx.x;
    if (i < n)
        ((unsigned char *)dst)[i] = ((const unsigned char *)src)[i];
}
