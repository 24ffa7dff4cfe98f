// vector_add.cu - out = x + y, 2^26 float32, one element per thread, 256 threads per block.
#include "bench_common.h"

__global__ void vector_add(const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i] + y[i];
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 1 << 26, tpb = 256;
  std::vector<float> hx(n), hy(n), hout(n);
  bench_fill_f32(hx, 1, 0.0, 1.0);
  bench_fill_f32(hy, 2, 0.0, 1.0);
  float *x, *y, *out;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
  auto launch = [&] { vector_add<<<bench_blocks(n, tpb), tpb>>>(x, y, out, n); };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bench_time("vector_add", a, bench_checksum(hout), launch);
  return 0;
}
