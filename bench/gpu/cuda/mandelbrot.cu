// mandelbrot.cu - 2048 x 2048 escape times (max 256 iterations), float32, the
// loop in a __device__ function; 32 x 8 blocks; pixel size computed on the host.
#include "bench_common.h"

__device__ int escape_time(float c_re, float c_im, int max_iter) {
  float z_re = 0.0f, z_im = 0.0f;
  for (int n = 0; n < max_iter; n++) {
    float z_re2 = z_re * z_re;
    float z_im2 = z_im * z_im;
    if (z_re2 + z_im2 > 4.0f)
      return n;
    z_im = 2.0f * z_re * z_im + c_im;
    z_re = z_re2 - z_im2 + c_re;
  }
  return max_iter;
}

__global__ void mandelbrot(float min_x, float min_y, float dx, float dy, int *image,
                           int height, int width, int max_iter) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y < height && x < width) {
    float c_re = min_x + (float)x * dx;
    float c_im = min_y + (float)y * dy;
    image[y * width + x] = escape_time(c_re, c_im, max_iter);
  }
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 2048, max_iter = 256;
  const float min_x = -2.0f, min_y = -1.5f;
  const float dx = (float)(3.0 / n), dy = (float)(3.0 / n);
  const size_t nn = (size_t)n * n;
  std::vector<int> himg(nn);
  int *img;
  CHECK(cudaMalloc(&img, nn * sizeof(int)));
  CHECK(cudaMemset(img, 0, nn * sizeof(int)));
  dim3 block(32, 8), grid(n / 32, n / 8);
  auto launch = [&] { mandelbrot<<<grid, block>>>(min_x, min_y, dx, dy, img, n, n, max_iter); };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(himg.data(), img, nn * sizeof(int), cudaMemcpyDeviceToHost));
  bench_time("mandelbrot", a, bench_checksum(himg), launch);
  return 0;
}
