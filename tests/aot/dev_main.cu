// dev_main.cu - CUDA C calling the device functions of tests/aot/devfns.py
// that `kjit aot --emit ptx` compiled alone: the generated header declares
// them, the generated PTX defines them (linked with nvcc -dc / -dlink).
// Each value is checked against the same computation in host C++.
// Prints one line per check and "N failures"; exit 1 on any, 77 without a GPU.
#include <cmath>
#include <cstdio>

#include "devfns.h"

__global__ void call_them(float *f, double *d, long long *i, unsigned *u) {
  f[0] = axpy(2.0f, 3.0f, 0.5f);
  f[1] = axpy(-1.5f, 4.0f, 0.25f);
  d[0] = wave(0.5, true);
  d[1] = wave(2.0, false);
  i[0] = clamp_index(-5, 10);
  i[1] = clamp_index(7, 10);
  i[2] = clamp_index(12, 10);
  u[0] = mix(12345u, 678u);
  u[1] = mix(0xffffffffu, 1u);
}

static int failures;

static void expect(bool ok, const char *what) {
  printf("%s %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

int main() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0)
    return puts("SKIP: no CUDA device"), 77;
  float *f, hf[2];
  double *d, hd[2];
  long long *i, hi[3];
  unsigned *u, hu[2];
  if (cudaMalloc(&f, sizeof hf) || cudaMalloc(&d, sizeof hd) || cudaMalloc(&i, sizeof hi) || cudaMalloc(&u, sizeof hu))
    return puts("FAIL: cudaMalloc"), 1;
  call_them<<<1, 1>>>(f, d, i, u);
  if (cudaDeviceSynchronize() || cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost) ||
      cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost) || cudaMemcpy(hi, i, sizeof hi, cudaMemcpyDeviceToHost) ||
      cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost))
    return printf("FAIL: launch: %s\n", cudaGetErrorString(cudaGetLastError())), 1;
  expect(hf[0] == 6.5f && hf[1] == -5.75f, "axpy(float32 x3) -> float32");
  double w0 = -(std::sin(0.5) + 0.25), w1 = std::sin(2.0) + 4.0;
  expect(std::fabs(hd[0] - w0) < 1e-12 && std::fabs(hd[1] - w1) < 1e-12, "wave(float64, bool) -> float64");
  expect(hi[0] == 0 && hi[1] == 7 && hi[2] == 9, "clamp_index(int64, int64) -> int64");
  // Numba's typing: uint32 * an int literal is int64 (wrapping), and the
  // return converts to uint32: the low 32 bits, as unsigned 64-bit C gives.
  unsigned m0 = (unsigned)((12345ull * 2654435761ull + 678ull) ^ (12345ull >> 3));
  unsigned m1 = (unsigned)((0xffffffffull * 2654435761ull + 1ull) ^ (0xffffffffull >> 3));
  expect(hu[0] == m0 && hu[1] == m1, "mix(uint32, uint32) -> uint32");
  printf("%d failures\n", failures);
  return failures != 0;
}
