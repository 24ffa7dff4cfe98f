// monte_carlo.cu - Monte Carlo price of a European call, float32: 2^20
// threads, each with its own xoroshiro128+ generator, PATHS standard normals
// per thread, the discounted mean payoff of its paths in out[i]; 256 threads
// per block.
//
// The generator is numba.cuda.random's, written out in C so that the three
// implementations draw the same numbers: states made on the host as
// create_xoroshiro128p_states(n, seed) makes them (SplitMix64 of the seed for
// generator 0, each next generator = the previous one jumped 2^64 steps);
// uniform_float32 = float((next >> 11) * 2^-53) (the double rounded to
// float); normal_float32 = Box-Muller of two such uniforms,
// sqrtf(-2 * logf(u1)) * cosf(float(2 pi) * u2), all in float32.
#include "bench_common.h"

#include <math.h>

#define PATHS 128

struct Xoro {
  unsigned long long s0, s1;
};

__host__ __device__ static inline unsigned long long rotl64(unsigned long long x, int k) {
  return (x << k) | (x >> (64 - k));
}

__host__ __device__ static inline unsigned long long xoro_next(Xoro &st) {
  unsigned long long s0 = st.s0, s1 = st.s1;
  unsigned long long result = s0 + s1;
  s1 ^= s0;
  st.s0 = rotl64(s0, 55) ^ s1 ^ (s1 << 14);
  st.s1 = rotl64(s1, 36);
  return result;
}

__host__ __device__ static inline float xoro_uniform_f32(Xoro &st) {
  return (float)((double)(xoro_next(st) >> 11) * (1.0 / 9007199254740992.0));
}

__host__ __device__ static inline float xoro_normal_f32(Xoro &st) {
  const float two_pi = 6.2831855f; /* float32(2 pi), as numba.cuda.random rounds it */
  float u1 = xoro_uniform_f32(st);
  float u2 = xoro_uniform_f32(st);
  return sqrtf(-2.0f * logf(u1)) * cosf(two_pi * u2);
}

/* Generator 0 from the seed (SplitMix64, both words the same value). */
static Xoro xoro_seed(unsigned long long seed) {
  unsigned long long z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  return Xoro{z, z};
}

/* st advanced by 2^64 steps: the xor of the states at the jump polynomial's
 * set bits. */
static void xoro_jump(Xoro &st) {
  static const unsigned long long poly[2] = {0xBEAC0467EBA5FACBull, 0xD86B048B86AA9922ull};
  Xoro acc{0, 0};
  for (int w = 0; w < 2; w++)
    for (int b = 0; b < 64; b++) {
      if (poly[w] & (1ull << b)) {
        acc.s0 ^= st.s0;
        acc.s1 ^= st.s1;
      }
      xoro_next(st);
    }
  st = acc;
}

static void xoro_states(std::vector<Xoro> &v, unsigned long long seed) {
  for (size_t i = 0; i < v.size(); i++) {
    v[i] = i == 0 ? xoro_seed(seed) : v[i - 1];
    if (i > 0)
      xoro_jump(v[i]);
  }
}

__global__ void monte_carlo(Xoro *states, float *out, int n, float s0, float strike, float r,
                            float v, float t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float drift = (r - 0.5f * v * v) * t;
  float vol = v * sqrtf(t);
  Xoro st = states[i];
  float acc = 0.0f;
  for (int p = 0; p < PATHS; p++) {
    float z = xoro_normal_f32(st);
    float sT = s0 * expf(drift + vol * z);
    acc += fmaxf(sT - strike, 0.0f);
  }
  states[i] = st;
  out[i] = expf(-r * t) * (acc / (float)PATHS);
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 1 << 20, tpb = 256;
  const float s0 = 100.0f, strike = 100.0f, r = 0.05f, v = 0.2f, t = 1.0f;
  std::vector<Xoro> hst(n);
  std::vector<float> hout(n);
  xoro_states(hst, 1234);
  Xoro *st;
  float *out;
  CHECK(cudaMalloc(&st, n * sizeof(Xoro)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(st, hst.data(), n * sizeof(Xoro), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
  auto launch = [&] {
    monte_carlo<<<bench_blocks(n, tpb), tpb>>>(st, out, n, s0, strike, r, v, t);
  };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bench_time("monte_carlo", a, bench_checksum(hout), launch);
  return 0;
}
