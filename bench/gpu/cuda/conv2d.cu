// conv2d.cu - 2-D convolution (cross-correlation) of a 4096 x 4096 float32
// image with a 5 x 5 filter in global memory, interior points:
// out[i][j] = sum w[di][dj] * img[i + di - 2][j + dj - 2]; 32 x 8 blocks.
#include "bench_common.h"

#define K 5
#define R (K / 2)

__global__ void conv2d(const float *img, const float *w, float *out, int rows, int cols) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= R && i < rows - R && j >= R && j < cols - R) {
    float acc = 0.0f;
    for (int di = 0; di < K; di++)
      for (int dj = 0; dj < K; dj++)
        acc += w[di * K + dj] * img[(i + di - R) * cols + j + dj - R];
    out[i * cols + j] = acc;
  }
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 4096;
  const size_t nn = (size_t)n * n;
  std::vector<float> himg(nn), hw(K * K), hout(nn);
  bench_fill_f32(himg, 14, 0.0, 1.0);
  bench_fill_f32(hw, 15, -1.0, 1.0);
  float *img, *w, *out;
  CHECK(cudaMalloc(&img, nn * sizeof(float)));
  CHECK(cudaMalloc(&w, K * K * sizeof(float)));
  CHECK(cudaMalloc(&out, nn * sizeof(float)));
  CHECK(cudaMemcpy(img, himg.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, hw.data(), K * K * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, nn * sizeof(float)));
  dim3 block(32, 8), grid(n / 32, n / 8);
  auto launch = [&] { conv2d<<<grid, block>>>(img, w, out, n, n); };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout.data(), out, nn * sizeof(float), cudaMemcpyDeviceToHost));
  bench_time("conv2d", a, bench_checksum(hout), launch);
  return 0;
}
