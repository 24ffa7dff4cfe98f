/* random.c - host-side state creation for numba.cuda.random (xoroshiro128+
 * of Blackman and Vigna), exactly as Numba 0.68 creates its states:
 * generator 0 is seeded with one SplitMix64 output of the seed in both
 * words, jumped subsequence_start times by 2^64 steps; generator k is
 * generator k-1 jumped once more.  The kernel side is codegen/cg_random.c;
 * both must follow the same step function.  A state array is a C-ordered
 * uint64 (n, 2) array, the bytes of Numba's xoroshiro128p_dtype records. */
#include "data/random.h"

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

/* The jump is linear over GF(2) on the 128-bit state, so jumping k times
 * is the jump's 128x128 bit matrix to the power k: by squaring, about
 * 2 log2(k) matrix products instead of k jumps (SUBSEQ up to 2^64 - 1
 * costs milliseconds, where k jumps would take years).  A matrix is its
 * 128 columns, each the image of one state bit. */
typedef struct BitMat { uint64_t col[128][2]; } BitMat;

static void mat_apply(const BitMat *m, const uint64_t v[2], uint64_t out[2]) {
  uint64_t r0 = 0, r1 = 0;
  for (int j = 0; j < 128; j++)
    if (v[j >> 6] >> (j & 63) & 1) {
      r0 ^= m->col[j][0];
      r1 ^= m->col[j][1];
    }
  out[0] = r0;
  out[1] = r1;
}

static void mat_square(BitMat *m) {
  BitMat r;
  for (int j = 0; j < 128; j++)
    mat_apply(m, m->col[j], r.col[j]);
  *m = r;
}

static void jump_many(uint64_t s[2], uint64_t k) {
  if (k < 64) {               /* the plain loop is cheaper than the matrix */
    for (uint64_t i = 0; i < k; i++)
      rt_xoroshiro128p_jump(s);
    return;
  }
  BitMat local, *m = &local;  /* J^(2^bit) as the bits of k are walked */
  for (int j = 0; j < 128; j++) {
    m->col[j][0] = j < 64 ? 1ull << j : 0;
    m->col[j][1] = j >= 64 ? 1ull << (j - 64) : 0;
    rt_xoroshiro128p_jump(m->col[j]);
  }
  for (; k; k >>= 1) {
    if (k & 1)
      mat_apply(m, s, s);
    if (k > 1)
      mat_square(m);
  }
}

void rt_xoroshiro128p_init(uint64_t *states, int64_t n, uint64_t seed, uint64_t subsequence_start) {
  if (n < 1)
    return;
  uint64_t s[2] = {splitmix64(seed), splitmix64(seed)};
  jump_many(s, subsequence_start);
  for (int64_t i = 0; i < n; i++) {
    if (i > 0)
      rt_xoroshiro128p_jump(s);
    states[2 * i] = s[0];
    states[2 * i + 1] = s[1];
  }
}
