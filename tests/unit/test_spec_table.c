/* test_spec_table.c - the specialization table both targets share
 * (runtime/spec_table.h): keys compared as bytes, growth past its first
 * capacity, removal by predicate with the probe chains kept whole. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "runtime/spec_table.h"

typedef struct Entry {
  struct { int owner; int n; uint32_t words[4]; } key;
  int value;
} Entry;

static size_t key_len(const Entry *e) { return offsetof(Entry, key.words) + 4 * (size_t)e->key.n; }

static Entry *make(int owner, int n, uint32_t w0, int value) {
  Entry *e = calloc(1, sizeof *e);
  e->key.owner = owner;
  e->key.n = n;
  e->key.words[0] = w0;
  e->value = value;
  return e;
}

static Entry *find(RtSpecTable *t, int owner, int n, uint32_t w0) {
  Entry probe;
  memset(&probe, 0, sizeof probe);
  probe.key.owner = owner;
  probe.key.n = n;
  probe.key.words[0] = w0;
  return rt_spec_table_find(t, &probe.key, key_len(&probe));
}

static bool drop_owner(void *entry, void *data) {
  Entry *e = entry;
  if (e->key.owner != *(int *)data)
    return false;
  free(e);
  return true;
}

static bool drop_all(void *entry, void *data) {
  (void)data;
  free(entry);
  return true;
}

int main(void) {
  RtSpecTable t = {0};
  CHECK(find(&t, 1, 1, 7) == NULL);              /* empty: no slots yet */
  for (int i = 0; i < 1000; i++) {               /* grows from 16 slots */
    Entry *e = make(i % 3, 1 + i % 4, (uint32_t)i, i);
    CHECK(rt_spec_table_insert(&t, &e->key, key_len(e), e));
  }
  CHECK(t.count == 1000 && t.cap >= 2000);
  int bad = 0;
  for (int i = 0; i < 1000; i++) {
    Entry *e = find(&t, i % 3, 1 + i % 4, (uint32_t)i);
    bad += !e || e->value != i;
  }
  CHECK(bad == 0);
  CHECK(find(&t, 0, 2, 0) == NULL);              /* same first word, longer key */
  int owner = 1;
  rt_spec_table_remove(&t, drop_owner, &owner);
  CHECK(t.count == 1000 - 333);
  bad = 0;
  for (int i = 0; i < 1000; i++) {               /* the rest still found */
    Entry *e = find(&t, i % 3, 1 + i % 4, (uint32_t)i);
    bad += (i % 3 == 1) ? e != NULL : (!e || e->value != i);
  }
  CHECK(bad == 0);
  rt_spec_table_remove(&t, drop_all, NULL);
  CHECK(t.count == 0 && find(&t, 0, 1, 0) == NULL);
  rt_spec_table_free(&t);
  return failures != 0;
}
