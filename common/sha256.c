/* sha256.c - SHA-256 as FIPS 180-4 describes it.
 *
 * From the standard: 64-byte blocks, the 64-round compression function,
 * big-endian length padding.  It sits on the warm path (the key of a
 * kernel's typed IR, the cubin key over its PTX, the payload checksum of
 * each cache entry read), so it uses the x86 SHA extensions where the CPU
 * has them (with the portable rounds, hashing was a quarter of the host's
 * work in a warm launch of the tiled matmul). */
#include "common/sha256.h"

#include <string.h>

static const uint32_t round_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static uint32_t load_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* The message schedule W[0..64) of one block. */
static void expand_block(const uint8_t *block, uint32_t w[64]) {
  for (int i = 0; i < 16; i++)
    w[i] = load_be32(block + 4 * i);
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
}

/* One round on the working variables a..h; the next round names them
 * rotated by one instead of moving eight words (as the standard's
 * "h = g; g = f; ..." does). */
#define ROUND(a, b, c, d, e, f, g, h, i)                                           \
  do {                                                                             \
    uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + \
                  round_k[i] + w[i];                                               \
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c)); \
    d += t1;                                                                       \
    h = t1 + t2;                                                                   \
  } while (0)

static void compress_portable(uint32_t h[8], const uint8_t *p, size_t nblocks) {
  for (; nblocks; nblocks--, p += 64) {
    uint32_t w[64];
    expand_block(p, w);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i += 8) {
      ROUND(a, b, c, d, e, f, g, hh, i);
      ROUND(hh, a, b, c, d, e, f, g, i + 1);
      ROUND(g, hh, a, b, c, d, e, f, i + 2);
      ROUND(f, g, hh, a, b, c, d, e, i + 3);
      ROUND(e, f, g, hh, a, b, c, d, i + 4);
      ROUND(d, e, f, g, hh, a, b, c, i + 5);
      ROUND(c, d, e, f, g, hh, a, b, i + 6);
      ROUND(b, c, d, e, f, g, hh, a, i + 7);
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define SHA256_X86 1

/* The x86 SHA extensions (sha256rnds2, sha256msg1/2): two rounds per
 * instruction, about 8x the portable rounds.  The state lives in two
 * registers as (A,B,E,F) and (C,D,G,H); each 4-word group of the message
 * schedule is computed from the four before it. */
__attribute__((target("sha,sse4.1,ssse3"))) static void compress_x86(uint32_t h[8], const uint8_t *p,
                                                                      size_t nblocks) {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1);
  __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
  for (; nblocks; nblocks--, p += 64) {
    __m128i abef0 = abef, cdgh0 = cdgh, w[4];
    for (int i = 0; i < 16; i++) { /* rounds 4i .. 4i+3 */
      if (i < 4) {
        w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
      } else { /* W[t] from W[t-16], W[t-15], W[t-7] and W[t-2] */
        __m128i x = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
        x = _mm_add_epi32(x, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
        w[i & 3] = _mm_sha256msg2_epu32(x, w[(i + 3) & 3]);
      }
      __m128i m = _mm_add_epi32(w[i & 3], _mm_loadu_si128((const __m128i *)&round_k[4 * i]));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(m, 0x0E));
    }
    abef = _mm_add_epi32(abef, abef0);
    cdgh = _mm_add_epi32(cdgh, cdgh0);
  }
  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}

/* 1 where the CPU has SHA, SSE4.1 and SSSE3; asked once (cpuid traps to
 * the hypervisor in a VM).  The race of two first callers is benign. */
static int x86_has_sha(void) {
  static int known = -1;
  int v = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (v < 0) {
    unsigned a, b, c, d;
    v = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_1) && (c & bit_SSSE3) &&
        __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
    __atomic_store_n(&known, v, __ATOMIC_RELAXED);
  }
  return v;
}
#endif

static int force_portable; /* tests: sha256_use_portable */

void sha256_use_portable(int on) { force_portable = on; }

static void compress(uint32_t h[8], const uint8_t *p, size_t nblocks) {
#ifdef SHA256_X86
  if (!force_portable && x86_has_sha()) {
    compress_x86(h, p, nblocks);
    return;
  }
#endif
  compress_portable(h, p, nblocks);
}

void sha256_init(Sha256 *s) {
  static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(s->h, iv, sizeof iv);
  s->nbytes = 0;
  s->nblock = 0;
}

void sha256_update(Sha256 *s, const void *data, size_t n) {
  const uint8_t *p = data;
  s->nbytes += n;
  if (s->nblock) { /* top up the pending block first */
    size_t take = 64 - s->nblock < n ? 64 - s->nblock : n;
    memcpy(s->block + s->nblock, p, take);
    s->nblock += take, p += take, n -= take;
    if (s->nblock < 64)
      return;
    compress(s->h, s->block, 1);
    s->nblock = 0;
  }
  if (n >= 64) {
    compress(s->h, p, n / 64);
    p += n / 64 * 64;
    n %= 64;
  }
  memcpy(s->block, p, n);
  s->nblock = n;
}

/* Padding: 0x80, zeros, then the bit length as a big-endian u64. */
void sha256_final(Sha256 *s, uint8_t out[SHA256_SIZE]) {
  uint64_t bits = s->nbytes * 8;
  s->block[s->nblock++] = 0x80;
  if (s->nblock > 56) {
    memset(s->block + s->nblock, 0, 64 - s->nblock);
    compress(s->h, s->block, 1);
    s->nblock = 0;
  }
  memset(s->block + s->nblock, 0, 56 - s->nblock);
  for (int i = 0; i < 8; i++)
    s->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
  compress(s->h, s->block, 1);
  for (int i = 0; i < 8; i++)
    store_be32(out + 4 * i, s->h[i]);
}

void sha256(const void *data, size_t n, uint8_t out[SHA256_SIZE]) {
  Sha256 s;
  sha256_init(&s);
  sha256_update(&s, data, n);
  sha256_final(&s, out);
}

void sha256_hex(const uint8_t digest[SHA256_SIZE], char hex[2 * SHA256_SIZE + 1]) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < SHA256_SIZE; i++) {
    hex[2 * i] = digits[digest[i] >> 4];
    hex[2 * i + 1] = digits[digest[i] & 15];
  }
  hex[2 * SHA256_SIZE] = '\0';
}
