// scan.cu - block-level inclusive prefix sum of 2^26 float32: Hillis-Steele in
// shared memory, 1024 elements per block of 1024 threads, two barriers per
// step; sums[b] = block b's total.
#include "bench_common.h"

#define TPB 1024

__global__ void scan(const float *x, float *out, float *sums, int n) {
  __shared__ float s[TPB];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int off = 1; off < TPB; off *= 2) {
    float v = t >= off ? s[t - off] : 0.0f;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (i < n)
    out[i] = s[t];
  if (t == TPB - 1)
    sums[blockIdx.x] = s[t];
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 1 << 26, nb = n / TPB;
  std::vector<float> hx(n), hout(n), hsums(nb);
  bench_fill_f32(hx, 17, 0.0, 1.0);
  float *x, *out, *sums;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMalloc(&sums, nb * sizeof(float)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
  CHECK(cudaMemset(sums, 0, nb * sizeof(float)));
  auto launch = [&] { scan<<<nb, TPB>>>(x, out, sums, n); };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hsums.data(), sums, nb * sizeof(float), cudaMemcpyDeviceToHost));
  bench_time("scan", a, bench_checksum(hout) + bench_checksum(hsums), launch);
  return 0;
}
