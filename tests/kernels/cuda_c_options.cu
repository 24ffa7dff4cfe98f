/* cuda_c_options.cu - CUDA C kernels with NVRTC options from the command
 * line (-D, -I, --use_fast_math, -std=, --nvrtc-opt) and parameters of many
 * scalar types; every compile's PTX goes through ptxas.
# ARGS: ptx %s
# ARGS: ptx %s:saxpy -DFACTOR=3 -DUSE_INC -I kernels/cuda_c_include --use_fast_math -std=c++20
# ARGS: ptx %s:saxpy --nvrtc-opt -DFACTOR=2 --nvrtc-opt=--fmad=false -DUSE_INC -Ikernels/cuda_c_include
# ARGS: ptx %s:fill
 */
#ifndef FACTOR
#define FACTOR 1
#endif
#ifdef USE_INC
#include "cuda_c_scale.h"
#else
__device__ inline float cuda_c_scale(float v) { return v * FACTOR; }
#endif

extern "C" __global__ void saxpy(float a, const float *__restrict__ x, float *__restrict__ y,
                                 size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * cuda_c_scale(x[i]) + y[i];
}

// Parameters of many scalar types, by value and by pointer.
__global__ void fill(unsigned long long *out, long long v, short s, unsigned char c, bool b,
                     double d, const volatile int *p, size_t n, unsigned short u, signed char q)
{
    if (threadIdx.x == 0)
        out[0] = v + s + c + b + (long long)d + p[0] + n + u + q;
}
