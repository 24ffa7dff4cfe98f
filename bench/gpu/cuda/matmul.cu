// matmul.cu - C = A @ B, 2048 x 2048 float32, 16 x 16 shared-memory tiles, two
// __syncthreads per tile: the algorithm of Numba's documented fast_matmul.
#include "bench_common.h"

#define TPB 16

__global__ void matmul(const float *A, const float *B, float *C, int M, int K, int N) {
  __shared__ float sA[TPB][TPB];
  __shared__ float sB[TPB][TPB];
  int x = blockIdx.x * blockDim.x + threadIdx.x;  // column of C
  int y = blockIdx.y * blockDim.y + threadIdx.y;  // row of C
  int tx = threadIdx.x, ty = threadIdx.y;
  int bpg = gridDim.x;
  float tmp = 0.0f;
  for (int i = 0; i < bpg; i++) {
    sA[ty][tx] = 0.0f;
    sB[ty][tx] = 0.0f;
    if (y < M && tx + i * TPB < K)
      sA[ty][tx] = A[y * K + tx + i * TPB];
    if (x < N && ty + i * TPB < K)
      sB[ty][tx] = B[(ty + i * TPB) * N + x];
    __syncthreads();
    for (int j = 0; j < TPB; j++)
      tmp += sA[ty][j] * sB[j][tx];
    __syncthreads();
  }
  if (y < M && x < N)
    C[y * N + x] = tmp;
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 2048;
  const size_t nn = (size_t)n * n;
  std::vector<float> hA(nn), hB(nn), hC(nn);
  bench_fill_f32(hA, 3, 0.0, 1.0);
  bench_fill_f32(hB, 4, 0.0, 1.0);
  float *A, *B, *C;
  CHECK(cudaMalloc(&A, nn * sizeof(float)));
  CHECK(cudaMalloc(&B, nn * sizeof(float)));
  CHECK(cudaMalloc(&C, nn * sizeof(float)));
  CHECK(cudaMemcpy(A, hA.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, hB.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(C, 0, nn * sizeof(float)));
  dim3 block(TPB, TPB), grid(n / TPB, n / TPB);
  auto launch = [&] { matmul<<<grid, block>>>(A, B, C, n, n, n); };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hC.data(), C, nn * sizeof(float), cudaMemcpyDeviceToHost));
  bench_time("matmul", a, bench_checksum(hC), launch);
  return 0;
}
