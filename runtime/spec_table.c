/* spec_table.c - the specialization table (runtime/spec_table.h): open
 * addressing with linear probing, at most half full. */
#include <stdlib.h>
#include <string.h>

#include "runtime/spec_table.h"

struct RtSpecSlot {
  uint64_t hash;             /* never 0 for a used slot */
  const void *key;
  size_t len;
  void *entry;               /* NULL: empty */
};

static uint64_t hash_bytes(const void *key, size_t len) {
  const unsigned char *p = key;
  uint64_t h = 1469598103934665603ull;           /* FNV-1a */
  for (size_t i = 0; i < len; i++)
    h = (h ^ p[i]) * 1099511628211ull;
  return h | 1;
}

void *rt_spec_table_find(const RtSpecTable *t, const void *key, size_t len) {
  if (!t->cap)
    return NULL;
  uint64_t h = hash_bytes(key, len);
  for (uint32_t i = (uint32_t)h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    const RtSpecSlot *s = &t->slots[i];
    if (!s->entry)
      return NULL;
    if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0)
      return s->entry;
  }
}

static void place(RtSpecSlot *slots, uint32_t cap, const RtSpecSlot *from) {
  uint32_t i = (uint32_t)from->hash & (cap - 1);
  while (slots[i].entry)
    i = (i + 1) & (cap - 1);
  slots[i] = *from;
}

/* Rehashes into `cap` slots (a power of two above count). */
static bool resize(RtSpecTable *t, uint32_t cap) {
  RtSpecSlot *slots = calloc(cap, sizeof *slots);
  if (!slots)
    return false;
  for (uint32_t i = 0; i < t->cap; i++)
    if (t->slots[i].entry)
      place(slots, cap, &t->slots[i]);
  free(t->slots);
  t->slots = slots;
  t->cap = cap;
  return true;
}

bool rt_spec_table_insert(RtSpecTable *t, const void *key, size_t len, void *entry) {
  if ((t->count + 1) * 2 > t->cap && !resize(t, t->cap ? t->cap * 2 : 16))
    return false;
  RtSpecSlot s = {hash_bytes(key, len), key, len, entry};
  place(t->slots, t->cap, &s);
  t->count++;
  return true;
}

void rt_spec_table_remove(RtSpecTable *t, bool (*drop)(void *entry, void *data), void *data) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < t->cap; i++) {
    RtSpecSlot *s = &t->slots[i];
    if (s->entry && (!drop || drop(s->entry, data)))
      s->entry = NULL;
    else if (s->entry)
      kept++;
  }
  t->count = kept;
  if (t->cap)
    resize(t, t->cap);                           /* close the probe gaps */
}

void rt_spec_table_free(RtSpecTable *t) {
  free(t->slots);
  memset(t, 0, sizeof *t);
}
