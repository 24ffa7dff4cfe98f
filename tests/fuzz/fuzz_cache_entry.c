/* fuzz_cache_entry.c - libFuzzer target: the disk cache's entry reader
 * (rt_cache_validate: header, HMAC, sections) on arbitrary bytes.
 *
 * Bytes 16..47 of the input are taken as the lookup key, so the header
 * check can pass.  When the first byte is odd the input's MAC field is
 * recomputed with the fixed fuzz key before validation, so the section
 * parser behind the MAC is reached as often as the MAC check itself.  A
 * validated entry's sections must lie inside the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint8_t mac_key[RT_CACHE_MAC_KEY] = {1, 2, 3, 4, 5, 6, 7, 8};
  uint8_t key[RT_CACHE_KEY_SIZE] = {0};
  uint8_t *buf = malloc(size ? size : 1);
  if (!buf)
    return 0;
  memcpy(buf, data, size);
  if (size >= 48)
    memcpy(key, buf + 16, sizeof key);
  if (size >= 96 && (buf[0] & 1)) /* seal it: reach the section parser */
    rt_cache_mac(mac_key, buf, 56, buf + 96, size - 96, buf + 56);
  RtCacheEntry e;
  if (rt_cache_validate(mac_key, buf, size, key, &e))
    for (int i = 0; i < e.nsec; i++) {
      const uint8_t *p = e.sec[i].data;
      if (p < buf || p + e.sec[i].len > buf + size)
        abort(); /* a section outside the entry */
    }
  free(buf);
  return 0;
}
