// softmax.cu - row softmax of a 32768 x 2048 float32 matrix, one warp per row
// (8 rows per block of 256): strided maximum, __shfl_xor_sync butterfly, the
// same for the sum of expf(x - max), then exp(x - max) * (1 / sum).
#include "bench_common.h"

#include <math.h>

#define WARP 32
#define FULL 0xffffffffu

__global__ void softmax(const float *x, float *out, int rows, int cols) {
  long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / WARP;
  int lane = threadIdx.x % WARP;
  if (row >= rows)
    return;
  const float *xr = x + row * cols;
  float m = -INFINITY;
  for (int j = lane; j < cols; j += WARP)
    m = fmaxf(m, xr[j]);
  for (int off = WARP / 2; off > 0; off /= 2)
    m = fmaxf(m, __shfl_xor_sync(FULL, m, off));
  float s = 0.0f;
  for (int j = lane; j < cols; j += WARP)
    s += expf(xr[j] - m);
  for (int off = WARP / 2; off > 0; off /= 2)
    s += __shfl_xor_sync(FULL, s, off);
  float inv = 1.0f / s;
  for (int j = lane; j < cols; j += WARP)
    out[row * cols + j] = expf(xr[j] - m) * inv;
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int rows = 32768, cols = 2048, tpb = 256;
  const size_t nn = (size_t)rows * cols;
  std::vector<float> hx(nn), hout(nn);
  bench_fill_f32(hx, 16, -5.0, 5.0);
  float *x, *out;
  CHECK(cudaMalloc(&x, nn * sizeof(float)));
  CHECK(cudaMalloc(&out, nn * sizeof(float)));
  CHECK(cudaMemcpy(x, hx.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, nn * sizeof(float)));
  auto launch = [&] { softmax<<<bench_blocks((long long)rows * WARP, tpb), tpb>>>(x, out, rows, cols); };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout.data(), out, nn * sizeof(float), cudaMemcpyDeviceToHost));
  bench_time("softmax", a, bench_checksum(hout), launch);
  return 0;
}
