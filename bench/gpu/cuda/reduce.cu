// reduce.cu - sum of 2^26 float32: shared-memory tree reduction per block of
// 256 threads, then one atomicAdd per block into out[0].
#include "bench_common.h"

#define TPB 256

__global__ void reduce_sum(const float *x, float *out, int n) {
  __shared__ float s[TPB];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    s[tid] = x[i];
  else
    s[tid] = 0.0f;
  __syncthreads();
  for (int stride = TPB / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(&out[0], s[0]);
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 1 << 26;
  std::vector<float> hx(n), hout(1);
  bench_fill_f32(hx, 5, 0.0, 1.0);
  float *x, *out;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&out, sizeof(float)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof(float)));
  auto launch = [&] { reduce_sum<<<bench_blocks(n, TPB), TPB>>>(x, out, n); };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout.data(), out, sizeof(float), cudaMemcpyDeviceToHost));
  bench_time("reduce", a, bench_checksum(hout), launch);
  return 0;
}
