/* random.c - host-side state creation for numba.cuda.random (xoroshiro128+
 * of Blackman and Vigna), exactly as Numba 0.68 creates its states:
 * generator 0 is seeded with one SplitMix64 output of the seed in both
 * words, jumped subsequence_start times by 2^64 steps; generator k is
 * generator k-1 jumped once more.  The kernel side is codegen/cg_random.c;
 * both must follow the same step function.  A state array is a C-ordered
 * uint64 (n, 2) array, the bytes of Numba's xoroshiro128p_dtype records. */
#include "runtime/random.h"

static uint64_t rotl(uint64_t x, unsigned k) { return (x << k) | (x >> (64 - k)); }

uint64_t rt_xoroshiro128p_next(uint64_t s[2]) {
  uint64_t s0 = s[0], s1 = s[1], out = s0 + s1;
  s1 ^= s0;
  s[0] = rotl(s0, 55) ^ s1 ^ (s1 << 14);
  s[1] = rotl(s1, 36);
  return out;
}

void rt_xoroshiro128p_jump(uint64_t s[2]) {
  static const uint64_t words[2] = {0xbeac0467eba5facbull, 0xd86b048b86aa9922ull};
  uint64_t a0 = 0, a1 = 0;
  for (int w = 0; w < 2; w++)
    for (int b = 0; b < 64; b++) {
      if (words[w] >> b & 1) {
        a0 ^= s[0];
        a1 ^= s[1];
      }
      rt_xoroshiro128p_next(s);
    }
  s[0] = a0;
  s[1] = a1;
}

/* SplitMix64 of the seed (one output), Numba's init_xoroshiro128p_state. */
static uint64_t splitmix64(uint64_t seed) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void rt_xoroshiro128p_init(uint64_t *states, int64_t n, uint64_t seed, uint64_t subsequence_start) {
  if (n < 1)
    return;
  uint64_t s[2] = {splitmix64(seed), splitmix64(seed)};
  for (uint64_t k = 0; k < subsequence_start; k++)
    rt_xoroshiro128p_jump(s);
  for (int64_t i = 0; i < n; i++) {
    if (i > 0)
      rt_xoroshiro128p_jump(s);
    states[2 * i] = s[0];
    states[2 * i + 1] = s[1];
  }
}
