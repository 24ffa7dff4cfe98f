/* vector_add.cu - PyCUDA's first program as a .cu file: out = a + b.
 *
 * kjit run examples/vector_add.cu:vector_add --grid 4 --block 256 a=rand:float32:1000 b=rand:float32:1000:1 out=zeros:float32:1000 n=1000
 *
 * NVRTC compiles it (kjit ptx examples/vector_add.cu prints the PTX, on any
 * machine with the CUDA toolkit); it runs on the cuda target only.  The
 * lines below are the GPU suite's (tests/gpu/run_gpu_suite.sh):
# RUN: vector_add --grid 4 --block 256 a=arange:float32:1000 b=full:float32:1000:2 out=zeros:float32:1000 n=1000
# EXPECT: out: float32[1000] [2, 3, 4, ..., 1001] sum=501500 crc=419fae67
#   (computed in Python from: [k + 2.0 for k in range(1000)])
# RUN: vector_add --grid 1 --block 256 a=arange:float32:200 b=arange:float32:200 out=zeros:float32:200 n=150.9
# EXPECT: out: float32[200] [0, 2, 4, ..., 0] sum=22350 crc=f44aaf94
#   (computed in Python from: [2.0 * k if k < 150 else 0.0 for k in range(200)])
 */
extern "C" __global__ void vector_add(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}
