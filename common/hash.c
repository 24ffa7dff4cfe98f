/* hash.c - FNV-1a over bytes with a final avalanche mix per call.
 *
 * Used for type interning and cache keys; the result must be stable across
 * runs and hosts (no per-process seed), since cache keys hit the disk. */
#include "common/hash.h"

#include <string.h>

#define FNV_PRIME 0x100000001b3ULL

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

uint64_t hash_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= FNV_PRIME;
  }
  return mix(h);
}

uint64_t hash_str(uint64_t h, const char *s) {
  return hash_bytes(h, s, strlen(s) + 1); /* +1: "ab","c" differs from "a","bc" */
}

uint64_t hash_u64(uint64_t h, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (unsigned char)(v >> (8 * i)); /* little-endian bytes: host independent */
  return hash_bytes(h, b, sizeof b);
}
