// transpose.cu - b = a^T, 8192 x 8192 float32, through a 32 x 33 shared tile
// (+1 padding: no bank conflicts); 32 x 8 blocks, each thread moves 4 elements.
#include "bench_common.h"

#define TILE 32
#define BLOCK_ROWS 8

__global__ void transpose(const float *a, float *b, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx;
  int y = blockIdx.y * TILE + ty;
  for (int k = 0; k < TILE; k += BLOCK_ROWS)
    if (y + k < rows && x < cols)
      tile[ty + k][tx] = a[(y + k) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + tx;
  y = blockIdx.x * TILE + ty;
  for (int k = 0; k < TILE; k += BLOCK_ROWS)
    if (y + k < cols && x < rows)
      b[(y + k) * rows + x] = tile[tx][ty + k];
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 8192;
  const size_t nn = (size_t)n * n;
  std::vector<float> ha(nn), hb(nn);
  bench_fill_f32(ha, 11, 0.0, 1.0);
  float *d_a, *d_b;
  CHECK(cudaMalloc(&d_a, nn * sizeof(float)));
  CHECK(cudaMalloc(&d_b, nn * sizeof(float)));
  CHECK(cudaMemcpy(d_a, ha.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_b, 0, nn * sizeof(float)));
  dim3 block(TILE, BLOCK_ROWS), grid(n / TILE, n / TILE);
  auto launch = [&] { transpose<<<grid, block>>>(d_a, d_b, n, n); };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hb.data(), d_b, nn * sizeof(float), cudaMemcpyDeviceToHost));
  bench_time("transpose", a, bench_checksum(hb), launch);
  return 0;
}
