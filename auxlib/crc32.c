/* crc32.c - zlib's CRC-32 (reflected polynomial 0xedb88320) of the array
 * summaries, at memory speed.
 *
 * `kjit run` checksums every array it prints, so a 64 MB array must cost
 * milliseconds, not the second a bit-at-a-time loop takes.  On x86-64 with
 * PCLMULQDQ (every x86-64 CPU since 2010) the bulk is folded 64 bytes at a
 * time by carry-less multiplication (Gopal et al., "Fast CRC Computation
 * for Generic Polynomials Using PCLMULQDQ", Intel 2009); the constants are
 * x^k mod P for the fold distances, bit-reflected.  Short tails and other
 * CPUs use a 16-entry table, four bits at a time.  Both give the same
 * value: tests/unit/test_gen.c compares them on every length to 300. */
#include "auxlib/view_internal.h"

/* CRC of the 16 nibble values: the bit-serial step applied four times. */
static const uint32_t nibble_table[16] = {
  0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
  0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

/* The inner update on a pre-inverted crc, four bits at a time. */
static uint32_t crc_nibbles(uint32_t crc, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    crc ^= p[i];
    crc = (crc >> 4) ^ nibble_table[crc & 15];
    crc = (crc >> 4) ^ nibble_table[crc & 15];
  }
  return crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_FOLD 1

#define FOLD_TARGET __attribute__((target("pclmul,sse4.1")))

/* One fold: a's low half times k's low, a's high times k's high (the two
 * fold distances), xor-ed into b, the 16 bytes they move onto. */
FOLD_TARGET static __m128i fold16(__m128i a, __m128i k, __m128i b) {
  __m128i lo = _mm_clmulepi64_si128(a, k, 0x00);
  __m128i hi = _mm_clmulepi64_si128(a, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(lo, hi), b);
}

/* The inner update over n bytes, n >= 64 and a multiple of 16. */
FOLD_TARGET static uint32_t crc_fold(uint32_t crc, const uint8_t *p, size_t n) {
  const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);   /* x^(512 -+ 32) */
  const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);   /* x^(128 -+ 32) */
  const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);                /* x^64 */
  const __m128i pmu = _mm_set_epi64x(0x01f7011641, 0x01db710641);    /* mu, P */
  const __m128i low32 = _mm_setr_epi32(-1, 0, -1, 0);
  __m128i x1 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)crc));
  __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 16));
  __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 32));
  __m128i x4 = _mm_loadu_si128((const __m128i *)(p + 48));
  for (p += 64, n -= 64; n >= 64; p += 64, n -= 64) {   /* four lanes, 64 bytes apart */
    x1 = fold16(x1, k1k2, _mm_loadu_si128((const __m128i *)p));
    x2 = fold16(x2, k1k2, _mm_loadu_si128((const __m128i *)(p + 16)));
    x3 = fold16(x3, k1k2, _mm_loadu_si128((const __m128i *)(p + 32)));
    x4 = fold16(x4, k1k2, _mm_loadu_si128((const __m128i *)(p + 48)));
  }
  x1 = fold16(fold16(fold16(x1, k3k4, x2), k3k4, x3), k3k4, x4);
  for (; n >= 16; p += 16, n -= 16)
    x1 = fold16(x1, k3k4, _mm_loadu_si128((const __m128i *)p));
  /* 128 -> 64 bits, 64 -> 32 bits, then Barrett reduction modulo P. */
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), _mm_clmulepi64_si128(x1, k3k4, 0x10));
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 4), _mm_clmulepi64_si128(_mm_and_si128(x1, low32), k5, 0x00));
  __m128i t = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, low32), pmu, 0x10), low32);
  x1 = _mm_xor_si128(x1, _mm_clmulepi64_si128(t, pmu, 0x00));
  return (uint32_t)_mm_extract_epi32(x1, 1);
}

static bool have_fold(void) {
  return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}
#endif

uint32_t aux_crc32_portable(uint32_t crc, const void *data, size_t n) {
  return ~crc_nibbles(~crc, data, n);
}

uint32_t aux_crc32(uint32_t crc, const void *data, size_t n) {
  const uint8_t *p = data;
  crc = ~crc;
#ifdef HAVE_FOLD
  if (n >= 64 && have_fold()) {
    size_t bulk = n & ~(size_t)15;
    crc = crc_fold(crc, p, bulk);
    p += bulk;
    n -= bulk;
  }
#endif
  return ~crc_nibbles(crc, p, n);
}
