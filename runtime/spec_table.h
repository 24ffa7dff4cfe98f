/* spec_table.h - the specialization table both targets keep their
 * compiled kernels in (runtime/spec_table.c).
 *
 * An open-addressing hash table of entries, each found by a key of bytes
 * that lives inside the entry itself (a target's key struct: the kernel,
 * one fixed-width record per argument, the variant facts).  Keys are hashed
 * and compared as bytes, so a target zeroes its key's padding.  A hit is a
 * hash of a few dozen bytes and one compare: no allocation.  Entries are
 * the target's (the CPU target's JIT entry points, the CUDA target's loaded
 * modules); the table only points at them and never moves them. */
#ifndef KJIT_RUNTIME_SPEC_TABLE_H
#define KJIT_RUNTIME_SPEC_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct RtSpecSlot RtSpecSlot;

typedef struct RtSpecTable {
  RtSpecSlot *slots;         /* power-of-two capacity */
  uint32_t cap, count;
} RtSpecTable;

/* The entry whose key is key[0..len), or NULL. */
void *rt_spec_table_find(const RtSpecTable *t, const void *key, size_t len);
/* Adds entry under key[0..len) (which must live as long as the entry: it
 * points into it).  False when memory runs out (nothing added). */
bool rt_spec_table_insert(RtSpecTable *t, const void *key, size_t len, void *entry);
/* Removes every entry for which drop(entry, data) returns true (drop frees
 * what it must); drop NULL removes all.  The table stays usable. */
void rt_spec_table_remove(RtSpecTable *t, bool (*drop)(void *entry, void *data), void *data);
/* Frees the table itself (not the entries: remove them first). */
void rt_spec_table_free(RtSpecTable *t);

#endif
