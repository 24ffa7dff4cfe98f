/* hash.h - 64-bit hashing (FNV-1a based, with a final mix) used for type
 * interning and cache keys. */
#ifndef KJIT_COMMON_HASH_H
#define KJIT_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_SEED 0xcbf29ce484222325ULL
uint64_t hash_bytes(uint64_t h, const void *p, size_t n);
uint64_t hash_str(uint64_t h, const char *s);
uint64_t hash_u64(uint64_t h, uint64_t v);

#endif
