/* sha256.c - SHA-256 as FIPS 180-4 describes it.
 *
 * Straight from the standard: 64-byte blocks, the 64-round compression
 * function, big-endian length padding.  Fast enough for cache keys (a few
 * KB of IR text) and payload checksums (PTX / cubin, tens of KB). */
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

static void compress(uint32_t h[8], const uint8_t *block) {
  uint32_t w[64], v[8];
  expand_block(block, w);
  memcpy(v, h, sizeof v);
  for (int i = 0; i < 64; i++) {
    uint32_t s1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
    uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
    uint32_t t1 = v[7] + s1 + ch + round_k[i] + w[i];
    uint32_t s0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
    uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
    memmove(v + 1, v, 7 * sizeof *v);
    v[4] += t1;
    v[0] = t1 + s0 + maj;
  }
  for (int i = 0; i < 8; i++)
    h[i] += v[i];
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
    compress(s->h, s->block);
    s->nblock = 0;
  }
  for (; n >= 64; p += 64, n -= 64)
    compress(s->h, p);
  memcpy(s->block, p, n);
  s->nblock = n;
}

/* Padding: 0x80, zeros, then the bit length as a big-endian u64. */
void sha256_final(Sha256 *s, uint8_t out[SHA256_SIZE]) {
  uint64_t bits = s->nbytes * 8;
  s->block[s->nblock++] = 0x80;
  if (s->nblock > 56) {
    memset(s->block + s->nblock, 0, 64 - s->nblock);
    compress(s->h, s->block);
    s->nblock = 0;
  }
  memset(s->block + s->nblock, 0, 56 - s->nblock);
  for (int i = 0; i < 8; i++)
    s->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
  compress(s->h, s->block);
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
