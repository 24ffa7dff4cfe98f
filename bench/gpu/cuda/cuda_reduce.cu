// cuda_reduce.cu - the algorithm of kjit's @cuda.reduce kernels in CUDA C:
// sum of 2^26 float32 in two passes.  Pass 1: 1024 blocks of 256 threads,
// each thread folds a grid-stride slice eight loads at a time, then warp
// shuffles and shared memory leave one partial per block; pass 2: one block
// of 1024 threads folds the partials; the host reads the value.
//
// Prints (parsed by bench/gpu/report_reduce.py):
//   REDUCE impl=nvcc call_ms=M gpu_ms=G n=N bytes=B value=V
// call_ms: median wall time of one whole reduction (both launches and the
// 4-byte copy to the host, as a user calls it); gpu_ms: median time of the
// two kernels between CUDA events, queued behind a gate kernel.
// With --ptx FILE --entry NAME it times that PTX kernel instead (kjit's
// generated pass-1/pass-2 kernel, ABI of docs/internals.md) the same way:
//   REDUCE impl=kjit-ptx gpu_ms=G ...
#include <cuda.h>

#include <chrono>
#include <string>

#include "bench_common.h"

#define TPB 256
#define NBLOCKS 1024
#define LAST_TPB 1024

__device__ float warp_sum(float v, long long valid, int lane) {
  for (int off = 16; off > 0; off /= 2) {
    float o = __shfl_down_sync(0xffffffffu, v, off);
    if (lane + off < valid)
      v += o;
  }
  return v;
}

// One partial per block, or out[0] = sum (+ init) for a one-block launch.
__global__ void reduce_pass(const float *a, long long n, float *part, float init, int use_init) {
  __shared__ float sm[32];
  int tid = threadIdx.x, lane = tid & 31;
  long long base = (long long)blockIdx.x * blockDim.x, i = base + tid;
  long long s = (long long)gridDim.x * blockDim.x;
  float acc = a[i < n ? i : n - 1];
  long long j = i + s;
  for (; j + 7 * s < n; j += 8 * s)
    acc += ((a[j] + a[j + s]) + (a[j + 2 * s] + a[j + 3 * s])) +
           ((a[j + 4 * s] + a[j + 5 * s]) + (a[j + 6 * s] + a[j + 7 * s]));
  for (; j < n; j += s)
    acc += a[j];
  long long valid = n - (i - lane);
  acc = warp_sum(acc, valid, lane);
  if (lane == 0 && valid > 0)
    sm[tid >> 5] = acc;
  __syncthreads();
  if (tid < 32) {
    long long nw = (blockDim.x + 31) / 32, left = (n - base + 31) / 32;
    nw = nw < left ? nw : left;
    acc = sm[lane < nw ? lane : nw - 1];
    acc = warp_sum(acc, nw, lane);
    if (lane == 0)
      part[blockIdx.x] = use_init ? acc + init : acc;
  }
}

// The same with 16-byte loads (n a multiple of 4, x 16-byte aligned): how
// much wide loads would add.  Printed as impl=nvcc-vec4.
__global__ void reduce_pass_vec4(const float4 *a4, long long n4, float *part) {
  __shared__ float sm[32];
  int tid = threadIdx.x, lane = tid & 31;
  long long i = (long long)blockIdx.x * blockDim.x + tid, s = (long long)gridDim.x * blockDim.x;
  float acc = 0.0f;  // every thread has at least one float4 here (n4 >= threads)
  for (long long j = i; j < n4; j += s) {
    float4 v = a4[j];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  acc = warp_sum(acc, 32, lane);
  if (lane == 0)
    sm[tid >> 5] = acc;
  __syncthreads();
  if (tid < 32) {
    acc = warp_sum(sm[lane < (int)(blockDim.x / 32) ? lane : 0] * (lane < (int)(blockDim.x / 32)), 32, lane);
    if (lane == 0)
      part[blockIdx.x] = acc;
  }
}

static double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median event time of `one` (enqueues one reduction's kernels), queued
// behind the gate as bench_time does.
template <typename F>
static double gpu_ms(const BenchArgs &a, F one) {
  for (int i = 0; i < a.warmup; i++)
    one();
  CHECK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> ev(2 * a.n);
  for (auto &e : ev)
    CHECK(cudaEventCreate(&e));
  bench_gate(30.0);
  for (int i = 0; i < a.n; i++) {
    CHECK(cudaEventRecord(ev[2 * i]));
    one();
    CHECK(cudaEventRecord(ev[2 * i + 1]));
  }
  CHECK(cudaDeviceSynchronize());
  std::vector<double> ms(a.n);
  for (int i = 0; i < a.n; i++) {
    float t;
    CHECK(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
    ms[i] = t;
  }
  for (auto &e : ev)
    CHECK(cudaEventDestroy(e));
  return median_of(ms);
}

#define CU(call)                                                         \
  do {                                                                   \
    CUresult r_ = (call);                                                \
    if (r_ != CUDA_SUCCESS) {                                            \
      fprintf(stderr, "%s:%d: %s failed (%d)\n", __FILE__, __LINE__, #call, (int)r_); \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

// kjit's array argument: { T *data; int64 shape[1]; int64 strides[1]; }.
struct Arr1 { const void *data; long long shape, stride; };

// Times kjit's generated kernel (PTX from `kjit ptx FILE:sum_reduce --sig
// "float32[::1]"`) with the same two launches and the same timing.
static void time_ptx(const BenchArgs &a, const char *path, const char *entry, float *x, long long n,
                     float *part, float *out) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(1); }
  std::string ptx;
  char buf[65536];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) ptx.append(buf, k);
  fclose(f);
  CUmodule mod;
  CUfunction fn;
  CU(cuModuleLoadData(&mod, ptx.c_str()));
  CU(cuModuleGetFunction(&fn, mod, entry));
  Arr1 ax = {x, n, 4}, ap = {part, NBLOCKS, 4}, ao = {out, 1, 4};
  long long init = 0, use0 = 0, use1 = 1;
  void *p1[] = {&ax, &ap, &init, &use0}, *p2[] = {&ap, &ao, &init, &use1};
  auto one = [&] {
    CU(cuLaunchKernel(fn, NBLOCKS, 1, 1, TPB, 1, 1, 0, 0, p1, nullptr));
    CU(cuLaunchKernel(fn, 1, 1, 1, LAST_TPB, 1, 1, 0, 0, p2, nullptr));
  };
  one();
  float v;
  CHECK(cudaMemcpy(&v, out, 4, cudaMemcpyDeviceToHost));
  double g = gpu_ms(a, one);
  double g1 = gpu_ms(a, [&] { CU(cuLaunchKernel(fn, NBLOCKS, 1, 1, TPB, 1, 1, 0, 0, p1, nullptr)); });
  printf("REDUCE impl=kjit-ptx gpu_ms=%.6f pass1_ms=%.6f n=%lld bytes=%lld value=%.9g\n", g, g1, n,
         n * 4, v);
}

int main(int argc, char **argv) {
  const char *ptx = nullptr, *entry = nullptr;
  std::vector<char *> rest = {argv[0]};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--ptx") == 0 && i + 1 < argc) ptx = argv[++i];
    else if (strcmp(argv[i], "--entry") == 0 && i + 1 < argc) entry = argv[++i];
    else rest.push_back(argv[i]);
  }
  BenchArgs a = bench_args((int)rest.size(), rest.data());
  const long long n = 1LL << 26;
  std::vector<float> hx(n);
  bench_fill_f32(hx, 5, 0.0, 1.0);
  float *x, *part, *out;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&part, NBLOCKS * sizeof(float)));
  CHECK(cudaMalloc(&out, sizeof(float)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  if (ptx) {
    time_ptx(a, ptx, entry, x, n, part, out);
    return 0;
  }
  auto one = [&] {
    reduce_pass<<<NBLOCKS, TPB>>>(x, n, part, 0.0f, 0);
    reduce_pass<<<1, LAST_TPB>>>(part, NBLOCKS, out, 0.0f, 1);
  };
  float v = 0;
  std::vector<double> call(a.n);
  for (int i = 0; i < a.warmup; i++) {
    one();
    CHECK(cudaMemcpy(&v, out, 4, cudaMemcpyDeviceToHost));
  }
  for (int i = 0; i < a.n; i++) {
    auto t0 = std::chrono::steady_clock::now();
    one();
    CHECK(cudaMemcpy(&v, out, 4, cudaMemcpyDeviceToHost));
    call[i] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  auto one4 = [&] {
    reduce_pass_vec4<<<NBLOCKS, TPB>>>((const float4 *)x, n / 4, part);
    reduce_pass<<<1, LAST_TPB>>>(part, NBLOCKS, out, 0.0f, 1);
  };
  double g4 = gpu_ms(a, one4);
  float v4;
  CHECK(cudaMemcpy(&v4, out, 4, cudaMemcpyDeviceToHost));
  printf("REDUCE impl=nvcc-vec4 gpu_ms=%.6f n=%lld bytes=%lld value=%.9g\n", g4, n, n * 4, v4);
  double g = gpu_ms(a, one);
  double g1 = gpu_ms(a, [&] { reduce_pass<<<NBLOCKS, TPB>>>(x, n, part, 0.0f, 0); });
  printf("REDUCE impl=nvcc call_ms=%.6f gpu_ms=%.6f pass1_ms=%.6f n=%lld bytes=%lld value=%.9g\n",
         median_of(call), g, g1, n, n * 4, v);
  return 0;
}
