/* test_sha256.c - common/sha256.c against the FIPS 180-4 / NIST vectors.
 *
 * Covers the empty message, "abc", the two-block 448- and 896-bit messages,
 * one million 'a's (fed in odd-sized pieces so every buffering path runs),
 * and lengths around the 55/56/64-byte padding boundaries, checked against
 * digests computed one byte at a time; all of it with the x86 SHA
 * extensions (where the CPU has them) and with the portable rounds, and the
 * two against each other.  Prints each failure; exit 1 if any. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"

static int failures, checks;

static void check_hex(const char *what, const uint8_t d[SHA256_SIZE], const char *want) {
  char hex[65];
  sha256_hex(d, hex);
  checks++;
  if (strcmp(hex, want) != 0) {
    failures++;
    fprintf(stderr, "sha256(%s) = %s\n  expected %s\n", what, hex, want);
  }
}

static void check_text(const char *text, const char *want) {
  uint8_t d[SHA256_SIZE];
  sha256(text, strlen(text), d);
  check_hex(text, d, want);
}

/* One million 'a', in pieces of 1, 63, 64, 65, 1000 ... bytes. */
static void check_million(void) {
  static const size_t pieces[] = {1, 63, 64, 65, 1000, 7};
  char buf[1000];
  memset(buf, 'a', sizeof buf);
  Sha256 s;
  sha256_init(&s);
  size_t left = 1000000;
  for (int i = 0; left; i = (i + 1) % 6) {
    size_t n = pieces[i] < left ? pieces[i] : left;
    sha256_update(&s, buf, n);
    left -= n;
  }
  uint8_t d[SHA256_SIZE];
  sha256_final(&s, d);
  check_hex("1e6 x 'a'", d,
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Whole-buffer and byte-at-a-time hashing agree around the padding edges. */
static void check_boundaries(void) {
  uint8_t msg[130];
  for (int i = 0; i < 130; i++)
    msg[i] = (uint8_t)(i * 7 + 1);
  for (size_t n = 50; n <= 130; n++) {
    uint8_t a[SHA256_SIZE], b[SHA256_SIZE];
    sha256(msg, n, a);
    Sha256 s;
    sha256_init(&s);
    for (size_t i = 0; i < n; i++)
      sha256_update(&s, msg + i, 1);
    sha256_final(&s, b);
    checks++;
    if (memcmp(a, b, SHA256_SIZE) != 0) {
      failures++;
      fprintf(stderr, "sha256: length %zu differs when fed byte by byte\n", n);
    }
  }
}

/* The portable rounds and the x86 SHA extensions (where this CPU has them)
 * give the same digests: every length 0..1000 of a pseudo-random message. */
static void check_paths_agree(void) {
  static uint8_t msg[1000];
  uint32_t x = 12345;
  for (size_t i = 0; i < sizeof msg; i++)
    msg[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 24);
  for (size_t n = 0; n <= sizeof msg; n++) {
    uint8_t a[SHA256_SIZE], b[SHA256_SIZE];
    sha256_use_portable(0);
    sha256(msg, n, a);
    sha256_use_portable(1);
    sha256(msg, n, b);
    checks++;
    if (memcmp(a, b, SHA256_SIZE) != 0) {
      failures++;
      fprintf(stderr, "sha256: length %zu: the two implementations differ\n", n);
    }
  }
  sha256_use_portable(0);
}

static void check_all(void) {
  check_text("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check_text("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  check_text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  check_text("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
             "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  check_text("The quick brown fox jumps over the lazy dog",
             "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
  check_million();
  check_boundaries();
}

int main(void) {
  check_all();               /* the fast path where the CPU has one */
  sha256_use_portable(1);
  check_all();               /* the portable rounds */
  sha256_use_portable(0);
  check_paths_agree();
  printf("test_sha256: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
