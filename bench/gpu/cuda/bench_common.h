/* bench_common.h - shared helpers of the CUDA C benchmarks (bench/gpu/cuda).
 *
 * Every benchmark program:
 *   1. builds deterministic inputs on the host with bench_u01() (the same
 *      formula as bench/gpu/numba_bench.py and bench/gpu/kjit_bench.c),
 *   2. launches the kernel once on zeroed outputs and prints the checksum of
 *      that result (bench_checksum_*: sum of out[k] * (1 + k % 7) in double),
 *   3. launches it W times to warm up (default 5),
 *   4. launches a "gate" kernel that spins ~30 ms, enqueues N timed launches
 *      (default 50), each between two CUDA events, while the gate runs, then
 *      waits: the N launches run back to back on the GPU, so host-side
 *      launch cost never shows in the event times (the same method is used
 *      for Numba and kjit),
 *   5. prints one line:
 *      RESULT impl=nvcc kernel=NAME median_ms=M min_ms=m n=N checksum=C
 *
 * Usage of every program: PROG [-n N] [-w W]
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                           \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,           \
              cudaGetErrorString(err_));                                      \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

/* Deterministic value in [0, 1) for element i of input `seed`: the 32-bit
 * golden-ratio hash i * 2654435761 + seed * 97531 (mod 2^32) over 2^32, in
 * double.  numba_bench.py computes exactly the same with uint32 NumPy
 * arithmetic. */
static inline double bench_u01(uint32_t i, uint32_t seed) {
  return (double)(uint32_t)(i * 2654435761u + seed * 97531u) / 4294967296.0;
}

/* float32 in [lo, hi): (float)(lo + (hi - lo) * u) with the product and sum
 * in double, as NumPy does it. */
static inline void bench_fill_f32(std::vector<float> &v, uint32_t seed, double lo, double hi) {
  const double span = hi - lo;
  for (size_t i = 0; i < v.size(); i++)
    v[i] = (float)(lo + span * bench_u01((uint32_t)i, seed));
}

template <typename T>
static double bench_checksum(const std::vector<T> &v) {
  double s = 0.0;
  for (size_t k = 0; k < v.size(); k++)
    s += (double)v[k] * (double)(1 + k % 7);
  return s;
}

typedef struct BenchArgs {
  int n;       /* timed launches */
  int warmup;  /* warm-up launches */
} BenchArgs;

static BenchArgs bench_args(int argc, char **argv) {
  BenchArgs a = {50, 5};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
      a.n = atoi(argv[++i]);
    else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
      a.warmup = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [-n N] [-w W]\n", argv[0]);
      exit(2);
    }
  }
  if (a.n < 1) a.n = 1;
  if (a.warmup < 0) a.warmup = 0;
  return a;
}

/* Spins for `cycles` SM clock cycles: holds the stream while the host
 * enqueues the timed launches. */
__global__ void bench_gate_kernel(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

static void bench_gate(double ms) {
  int khz = 0;
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  if (khz <= 0) khz = 2000000;
  bench_gate_kernel<<<1, 1>>>((long long)(ms * khz));
  CHECK(cudaGetLastError());
}

/* Warm-up, then n launches timed one by one with events behind a gate.
 * launch() enqueues one kernel launch on the default stream. */
template <typename F>
static void bench_time(const char *name, const BenchArgs &a, double checksum, F launch) {
  for (int i = 0; i < a.warmup; i++)
    launch();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> start(a.n), stop(a.n);
  for (int i = 0; i < a.n; i++) {
    CHECK(cudaEventCreate(&start[i]));
    CHECK(cudaEventCreate(&stop[i]));
  }
  bench_gate(30.0);
  for (int i = 0; i < a.n; i++) {
    CHECK(cudaEventRecord(start[i], 0));
    launch();
    CHECK(cudaEventRecord(stop[i], 0));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms(a.n);
  for (int i = 0; i < a.n; i++) {
    CHECK(cudaEventElapsedTime(&ms[i], start[i], stop[i]));
    CHECK(cudaEventDestroy(start[i]));
    CHECK(cudaEventDestroy(stop[i]));
  }
  std::sort(ms.begin(), ms.end());
  double med = (a.n % 2) ? ms[a.n / 2] : 0.5 * (ms[a.n / 2 - 1] + ms[a.n / 2]);
  printf("RESULT impl=nvcc kernel=%s median_ms=%.6f min_ms=%.6f n=%d checksum=%.17g\n",
         name, med, (double)ms[0], a.n, checksum);
  fflush(stdout);
}

/* Grid size for n elements, b threads per block. */
static inline unsigned bench_blocks(long long n, int b) { return (unsigned)((n + b - 1) / b); }

#endif
