// stencil.cu - 2-D 5-point stencil on 4096 x 4096 float32, interior points:
// out[i][j] = 0.25 * (a[i-1][j] + a[i+1][j] + a[i][j-1] + a[i][j+1]); 32 x 8 blocks.
#include "bench_common.h"

__global__ void stencil5(const float *a, float *out, int rows, int cols) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && i < rows - 1 && j > 0 && j < cols - 1)
    out[i * cols + j] = 0.25f * (a[(i - 1) * cols + j] + a[(i + 1) * cols + j] +
                                 a[i * cols + j - 1] + a[i * cols + j + 1]);
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 4096;
  const size_t nn = (size_t)n * n;
  std::vector<float> ha(nn), hout(nn);
  bench_fill_f32(ha, 6, 0.0, 1.0);
  float *d_a, *out;
  CHECK(cudaMalloc(&d_a, nn * sizeof(float)));
  CHECK(cudaMalloc(&out, nn * sizeof(float)));
  CHECK(cudaMemcpy(d_a, ha.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, nn * sizeof(float)));
  dim3 block(32, 8), grid(n / 32, n / 8);
  auto launch = [&] { stencil5<<<grid, block>>>(d_a, out, n, n); };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout.data(), out, nn * sizeof(float), cudaMemcpyDeviceToHost));
  bench_time("stencil", a, bench_checksum(hout), launch);
  return 0;
}
