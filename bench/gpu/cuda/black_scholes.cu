// black_scholes.cu - call and put prices of 2^24 options, float32 (expf, logf,
// sqrtf, a cumulative-normal __device__ function); 256 threads per block.
#include "bench_common.h"

#define A1 0.31938153f
#define A2 (-0.356563782f)
#define A3 1.781477937f
#define A4 (-1.821255978f)
#define A5 1.330274429f
#define RSQRT2PI 0.39894228040143267793994605993438f

__device__ float cnd(float d) {
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float ret = RSQRT2PI * expf(-0.5f * d * d) *
              (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  if (d > 0.0f)
    ret = 1.0f - ret;
  return ret;
}

__global__ void black_scholes(float *call, float *put, const float *S, const float *X,
                              const float *T, float R, float V, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = S[i], x = X[i], t = T[i];
    float sqrt_t = sqrtf(t);
    float d1 = (logf(s / x) + (R + 0.5f * V * V) * t) / (V * sqrt_t);
    float d2 = d1 - V * sqrt_t;
    float cnd1 = cnd(d1);
    float cnd2 = cnd(d2);
    float exp_rt = expf(-R * t);
    call[i] = s * cnd1 - x * exp_rt * cnd2;
    put[i] = x * exp_rt * (1.0f - cnd2) - s * (1.0f - cnd1);
  }
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 1 << 24, tpb = 256;
  const float R = 0.02f, V = 0.30f;
  std::vector<float> hS(n), hX(n), hT(n), hcall(n), hput(n);
  bench_fill_f32(hS, 8, 5.0, 30.0);
  bench_fill_f32(hX, 9, 1.0, 100.0);
  bench_fill_f32(hT, 10, 0.25, 10.0);
  float *S, *X, *T, *call, *put;
  CHECK(cudaMalloc(&S, n * sizeof(float)));
  CHECK(cudaMalloc(&X, n * sizeof(float)));
  CHECK(cudaMalloc(&T, n * sizeof(float)));
  CHECK(cudaMalloc(&call, n * sizeof(float)));
  CHECK(cudaMalloc(&put, n * sizeof(float)));
  CHECK(cudaMemcpy(S, hS.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(X, hX.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(T, hT.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(call, 0, n * sizeof(float)));
  CHECK(cudaMemset(put, 0, n * sizeof(float)));
  auto launch = [&] {
    black_scholes<<<bench_blocks(n, tpb), tpb>>>(call, put, S, X, T, R, V, n);
  };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hcall.data(), call, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hput.data(), put, n * sizeof(float), cudaMemcpyDeviceToHost));
  bench_time("black_scholes", a, bench_checksum(hcall) + bench_checksum(hput), launch);
  return 0;
}
