// cuda_c_scale.h - found through -I kernels/cuda_c_include (cuda_c_options.cu).
__device__ inline float cuda_c_scale(float v) { return v * FACTOR; }
