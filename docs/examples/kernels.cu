// CUDA C kernels for docs/cli.md, "CUDA C files": a template kernel named
// by its instantiation ('kernels.cu:scale<float>'), and TILE from tile.h
// (-I docs/examples/include) or -DTILE=32.
#if __has_include("tile.h")
#include "tile.h"
#endif
#ifndef TILE
#define TILE 16
#endif

template <typename T>
__global__ void scale(T *x, T f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= f;
}

template __global__ void scale<float>(float *, float, int);

__global__ void tile_sum(const float *x, float *out, int n) {
  __shared__ float part[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  part[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int k = 0; k < TILE; k++)
      s += part[k];
    atomicAdd(out, s);
  }
}
