// elementwise_schemes.cu - the launch schemes tried for kjit's contiguous
// ufunc kernel (docs/benchmarks.md, "Elementwise @vectorize"): out = a + b on
// 2^26 float32 with float4 accesses, as one float4 (or U) per thread over a
// full grid or as a grid-stride loop over W waves of blocks, with plain or
// __ldg loads and plain or __stcs stores, blocks of 128..1024 threads; each
// the median of 30 event-timed launches, printed against cudaMemcpy device to
// device of the same bytes moved (384 MB), two rounds.  Run by hand:
//   nvcc -O3 -arch=sm_90 -o schemes bench/gpu/elementwise_schemes.cu && ./schemes
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <int U, bool NC, bool CS>
__global__ void full(const float4 *a, const float4 *b, float4 *o, long long n4) {
  long long base = (long long)blockIdx.x * blockDim.x * U + threadIdx.x;
  float4 x[U], y[U];
#pragma unroll
  for (int u = 0; u < U; u++) {
    long long i = base + (long long)u * blockDim.x;
    if (i < n4) { x[u] = NC ? __ldg(a + i) : a[i]; y[u] = NC ? __ldg(b + i) : b[i]; }
  }
#pragma unroll
  for (int u = 0; u < U; u++) {
    long long i = base + (long long)u * blockDim.x;
    float4 r = make_float4(x[u].x + y[u].x, x[u].y + y[u].y, x[u].z + y[u].z, x[u].w + y[u].w);
    if (i < n4) { if (CS) __stcs(o + i, r); else o[i] = r; }
  }
}

template <int U, bool NC, bool CS>
__global__ void stride(const float4 *a, const float4 *b, float4 *o, long long n4) {
  long long step = (long long)blockDim.x * gridDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + (U - 1) * step < n4; i += U * step) {
    float4 x[U], y[U];
#pragma unroll
    for (int u = 0; u < U; u++) {
      x[u] = NC ? __ldg(a + i + u * step) : a[i + u * step];
      y[u] = NC ? __ldg(b + i + u * step) : b[i + u * step];
    }
#pragma unroll
    for (int u = 0; u < U; u++) {
      float4 r = make_float4(x[u].x + y[u].x, x[u].y + y[u].y, x[u].z + y[u].z, x[u].w + y[u].w);
      if (CS) __stcs(o + i + u * step, r); else o[i + u * step] = r;
    }
  }
  for (; i < n4; i += step) {
    float4 x = a[i], y = b[i];
    o[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

__global__ void copy4(const float4 *a, float4 *o, long long n4) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) o[i] = a[i];
}

static const int REPS = 30;
static double bytes_moved;
template <typename F> static double time_ms(F f) {
  for (int i = 0; i < 3; i++) f();
  CK(cudaDeviceSynchronize());
  cudaEvent_t s[REPS], e[REPS];
  for (int i = 0; i < REPS; i++) { cudaEventCreate(&s[i]); cudaEventCreate(&e[i]); }
  for (int i = 0; i < REPS; i++) { cudaEventRecord(s[i]); f(); cudaEventRecord(e[i]); }
  CK(cudaDeviceSynchronize());
  CK(cudaGetLastError());
  std::vector<float> ms(REPS);
  for (int i = 0; i < REPS; i++) { cudaEventElapsedTime(&ms[i], s[i], e[i]); cudaEventDestroy(s[i]); cudaEventDestroy(e[i]); }
  std::sort(ms.begin(), ms.end());
  return 0.5 * (ms[REPS / 2 - 1] + ms[REPS / 2]);
}

static double copy_gbs = 0;
static void report(const char *name, double ms) {
  double gbs = bytes_moved / ms / 1e6;
  printf("%-34s %8.4f ms %7.0f GB/s %6.1f%% of copy\n", name, ms, gbs, copy_gbs ? 100 * gbs / copy_gbs : 0);
}

int main() {
  const long long n = 1LL << 26, n4 = n / 4;
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  float4 *a, *b, *o, *big, *big2;
  CK(cudaMalloc(&a, n * 4)); CK(cudaMalloc(&b, n * 4)); CK(cudaMalloc(&o, n * 4));
  CK(cudaMalloc(&big, 3 * n * 4)); CK(cudaMalloc(&big2, 3 * n * 4));
  CK(cudaMemset(a, 0, n * 4)); CK(cudaMemset(b, 0, n * 4)); CK(cudaMemset(big, 0, 3 * n * 4));
  printf("SMs %d\n", sms);
  // copies: bytes read + written
  for (int round = 0; round < 2; round++) {
    long long sizes[] = {n * 4, n * 6, n * 8, n * 12};
    for (long long sz : sizes) {
      bytes_moved = 2.0 * sz;
      double ms = time_ms([&] { cudaMemcpyAsync(big2, big, sz, cudaMemcpyDeviceToDevice); });
      char nm[64]; snprintf(nm, sizeof nm, "memcpy DtoD %lld MB", sz >> 20);
      report(nm, ms);
      if (sz == n * 6 && round == 1) copy_gbs = bytes_moved / ms / 1e6;   // same bytes as a+b
    }
  }
  bytes_moved = 2.0 * n * 6;
  report("copy kernel float4 384 MB", time_ms([&] { copy4<<<(n * 6 / 16 + 255) / 256, 256>>>(big, big2, n * 6 / 16); }));
  bytes_moved = 3.0 * n * 4;
  for (int round = 0; round < 2; round++) {
    printf("-- round %d\n", round);
#define FULL(U, NC, CS, B) report("full U=" #U " nc=" #NC " cs=" #CS " B=" #B, time_ms([&] { \
      full<U, NC, CS><<<(unsigned)((n4 + (long long)B * U - 1) / ((long long)B * U)), B>>>(a, b, o, n4); }))
    FULL(1, 0, 0, 128); FULL(1, 0, 0, 256); FULL(1, 0, 0, 512); FULL(1, 0, 0, 1024);
    FULL(1, 1, 0, 256); FULL(1, 0, 1, 256); FULL(1, 1, 1, 256);
    FULL(2, 0, 0, 256); FULL(2, 1, 1, 256); FULL(4, 0, 0, 256); FULL(4, 1, 1, 256);
    FULL(2, 0, 0, 128); FULL(4, 0, 0, 128); FULL(2, 0, 0, 512);
#define STRIDE(U, NC, CS, B, W) report("stride U=" #U " nc=" #NC " cs=" #CS " B=" #B " W=" #W, time_ms([&] { \
      stride<U, NC, CS><<<sms * (2048 / B) * W, B>>>(a, b, o, n4); }))
    STRIDE(1, 0, 0, 256, 1); STRIDE(1, 0, 0, 256, 2); STRIDE(1, 0, 0, 256, 4); STRIDE(1, 0, 0, 256, 8);
    STRIDE(1, 0, 0, 256, 32); STRIDE(1, 1, 1, 256, 2);
    STRIDE(2, 0, 0, 256, 1); STRIDE(2, 0, 0, 256, 2); STRIDE(2, 0, 0, 256, 4); STRIDE(2, 1, 1, 256, 2);
    STRIDE(4, 0, 0, 256, 1); STRIDE(4, 0, 0, 256, 2); STRIDE(4, 1, 1, 256, 2);
    STRIDE(1, 0, 0, 128, 2); STRIDE(1, 0, 0, 512, 2); STRIDE(2, 0, 0, 512, 2); STRIDE(2, 0, 0, 128, 4);
  }
  // check
  std::vector<float> h(16);
  CK(cudaMemcpy(h.data(), o, 64, cudaMemcpyDeviceToHost));
  printf("check %g\n", h[3]);
  return 0;
}
