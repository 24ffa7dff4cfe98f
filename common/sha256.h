/* sha256.h - SHA-256 (FIPS 180-4), used for the disk cache's keys and
 * payload checksums (cache/cache.c).
 *
 * A small, dependency-free implementation: init, feed any number of byte
 * ranges, finish into 32 bytes.  Tested against the FIPS/NIST vectors in
 * tests/unit/test_sha256.c.  Not constant-time; it hashes no secrets. */
#ifndef KJIT_COMMON_SHA256_H
#define KJIT_COMMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_SIZE 32

typedef struct Sha256 {
  uint32_t h[8];        /* chaining state */
  uint64_t nbytes;      /* message length so far */
  uint8_t block[64];    /* pending partial block */
  size_t nblock;        /* bytes in block[] */
} Sha256;

void sha256_init(Sha256 *s);
void sha256_update(Sha256 *s, const void *data, size_t n);
void sha256_final(Sha256 *s, uint8_t out[SHA256_SIZE]);
/* One-shot convenience. */
void sha256(const void *data, size_t n, uint8_t out[SHA256_SIZE]);
/* Tests: nonzero makes every later call use the portable rounds even
 * where the CPU has the SHA extensions (both give the same digests). */
void sha256_use_portable(int on);
/* 64 lowercase hex digits + NUL into hex[65]. */
void sha256_hex(const uint8_t digest[SHA256_SIZE], char hex[2 * SHA256_SIZE + 1]);

#endif
