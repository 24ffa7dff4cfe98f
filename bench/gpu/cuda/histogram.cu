// histogram.cu - 256-bin histogram of 2^26 uint8 values: per-block shared
// histogram with atomics over a grid-stride loop, then one atomicAdd per bin
// and block; 1024 blocks of 256 threads.
#include "bench_common.h"

#define NBINS 256

__global__ void histogram(const unsigned char *data, unsigned int *bins, int n) {
  __shared__ unsigned int h[NBINS];
  int tid = threadIdx.x;
  h[tid] = 0;
  __syncthreads();
  int start = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  for (int i = start; i < n; i += stride)
    atomicAdd(&h[data[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[tid], h[tid]);
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 1 << 26;
  std::vector<unsigned char> hd(n);
  std::vector<unsigned int> hbins(NBINS);
  for (int i = 0; i < n; i++)  // the top byte of the input hash (seed 7)
    hd[i] = (unsigned char)((uint32_t)((uint32_t)i * 2654435761u + 7u * 97531u) >> 24);
  unsigned char *data;
  unsigned int *bins;
  CHECK(cudaMalloc(&data, n));
  CHECK(cudaMalloc(&bins, NBINS * sizeof(unsigned int)));
  CHECK(cudaMemcpy(data, hd.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(bins, 0, NBINS * sizeof(unsigned int)));
  auto launch = [&] { histogram<<<1024, NBINS>>>(data, bins, n); };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hbins.data(), bins, NBINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  bench_time("histogram", a, bench_checksum(hbins), launch);
  return 0;
}
