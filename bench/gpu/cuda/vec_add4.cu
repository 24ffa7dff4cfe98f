// vec_add4.cu - the elementwise benchmark in CUDA C (bench/gpu/elementwise.sh):
// out = a + b on 2^26 float32, against cudaMemcpy device to device of the same
// number of bytes moved (a + b reads 2 arrays and writes 1: 768 MB; the copy
// reads and writes 384 MB).
//
// Kernels: "full", the scheme kjit's contiguous ufunc kernel uses: one float4
// per thread over a full grid of 256-thread blocks (the first n % 4 threads
// also do one element of the tail); "stride2", a grid-stride loop over
// float4 with at most two full waves of blocks (kjit's launch before), for
// comparison.  Each is timed two ways: events around each launch (median of
// N, queued behind a gate kernel as the other .cu programs do), and N
// launches back to back over wall time (as kjit_vectorize.c times kjit).
//
// Output: EW impl=NAME method=event|wall ms=M bytes=B n=N checksum=C
// Usage: vec_add4 [-n N] [-w W]
#include <chrono>
#include <functional>

#include "bench_common.h"

__global__ void add_full(const float4 *a, const float4 *b, float4 *o, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 4) {
    float4 x = a[i], y = b[i];
    o[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  long long t = n / 4 * 4 + i;               // the scalar tail
  if (t < n)
    ((float *)o)[t] = ((const float *)a)[t] + ((const float *)b)[t];
}

__global__ void add_stride(const float4 *a, const float4 *b, float4 *o, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long step = (long long)blockDim.x * gridDim.x;
  for (long long j = i; j < n / 4; j += step) {
    float4 x = a[j], y = b[j];
    o[j] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  long long t = n / 4 * 4 + i;
  if (t < n)
    ((float *)o)[t] = ((const float *)a)[t] + ((const float *)b)[t];
}

static void print_row(const char *impl, const char *method, double ms, double bytes, int n, double cs) {
  printf("EW impl=%s method=%s ms=%.6f bytes=%.0f n=%d checksum=%.17g\n", impl, method, ms, bytes, n, cs);
  fflush(stdout);
}

// Median over events around each launch, behind a gate (bench_time's method).
template <typename F> static double time_events(const BenchArgs &a, F launch) {
  for (int i = 0; i < a.warmup; i++) launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> s(a.n), e(a.n);
  for (int i = 0; i < a.n; i++) { CHECK(cudaEventCreate(&s[i])); CHECK(cudaEventCreate(&e[i])); }
  bench_gate(30.0);
  for (int i = 0; i < a.n; i++) { CHECK(cudaEventRecord(s[i], 0)); launch(); CHECK(cudaEventRecord(e[i], 0)); }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  std::vector<float> ms(a.n);
  for (int i = 0; i < a.n; i++) {
    CHECK(cudaEventElapsedTime(&ms[i], s[i], e[i]));
    CHECK(cudaEventDestroy(s[i])); CHECK(cudaEventDestroy(e[i]));
  }
  std::sort(ms.begin(), ms.end());
  return a.n % 2 ? ms[a.n / 2] : 0.5 * (ms[a.n / 2 - 1] + ms[a.n / 2]);
}

// Median over 5 batches of n launches back to back, wall time per launch.
template <typename F> static double time_wall(const BenchArgs &a, F launch) {
  for (int i = 0; i < a.warmup; i++) launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<double> ms;
  for (int r = 0; r < 5; r++) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < a.n; i++) launch();
    CHECK(cudaDeviceSynchronize());
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / a.n);
  }
  std::sort(ms.begin(), ms.end());
  return ms[2];
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const long long n = 1LL << 26, tpb = 256;
  const size_t bytes = n * sizeof(float);
  std::vector<float> ha(n), hb(n), hout(n);
  bench_fill_f32(ha, 1, 0.0, 1.0);
  bench_fill_f32(hb, 2, 0.0, 1.0);
  float *da, *db, *dout, *src, *dst;
  CHECK(cudaMalloc(&da, bytes)); CHECK(cudaMalloc(&db, bytes)); CHECK(cudaMalloc(&dout, bytes));
  CHECK(cudaMalloc(&src, 3 * bytes / 2)); CHECK(cudaMalloc(&dst, 3 * bytes / 2));
  CHECK(cudaMemcpy(da, ha.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(src, 0, 3 * bytes / 2));
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned full_grid = (unsigned)((n / 4 + tpb - 1) / tpb), stride_grid = sms * (2048 / tpb) * 2;
  const float4 *a4 = (const float4 *)da, *b4 = (const float4 *)db;
  float4 *o4 = (float4 *)dout;
  auto full = [&] { add_full<<<full_grid, tpb>>>(a4, b4, o4, n); };
  auto stride = [&] { add_stride<<<stride_grid, tpb>>>(a4, b4, o4, n); };
  auto copy = [&] { CHECK(cudaMemcpyAsync(dst, src, 3 * bytes / 2, cudaMemcpyDeviceToDevice, 0)); };
  double moved = 3.0 * bytes;             // a + b: 2 reads, 1 write; the copy: 384 MB each way
  struct { const char *name; std::function<void()> f; } rows[] = {
      {"nvcc_full", full}, {"nvcc_stride2", stride}};
  for (auto &r : rows) {
    CHECK(cudaMemset(dout, 0, bytes));
    r.f();
    CHECK(cudaMemcpy(hout.data(), dout, bytes, cudaMemcpyDeviceToHost));
    double cs = bench_checksum(hout);
    print_row(r.name, "event", time_events(a, r.f), moved, a.n, cs);
    print_row(r.name, "wall", time_wall(a, r.f), moved, a.n, cs);
  }
  print_row("copy", "event", time_events(a, copy), moved, a.n, 0);
  print_row("copy", "wall", time_wall(a, copy), moved, a.n, 0);
  return 0;
}
