/* double_matrix.cu - PyCUDA's tutorial kernel: double every element of a
 * 4x4 float32 matrix with one 4x4 block of threads.
 *
 * kjit run examples/double_matrix.cu:doublify --grid 1 --block 4,4 a=rand:float32:4x4
 *
 * It runs on the cuda target only.  The lines below are the GPU suite's
 * (tests/gpu/run_gpu_suite.sh):
# RUN: doublify --grid 1 --block 4,4 a=arange:float32:4x4
# EXPECT: a: float32[4x4] [0, 2, 4, ..., 30] sum=240 crc=194d14e8
#   (computed in Python from: [2.0 * k for k in range(16)])
 */
__global__ void doublify(float *a)
{
    int idx = threadIdx.x + threadIdx.y * 4;
    a[idx] *= 2;
}
