/* api_internal.h - what the files of api/ (the public API behind
 * include/kjit.h) share and no other folder sees. */
#ifndef KJIT_API_API_INTERNAL_H
#define KJIT_API_API_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/runtime.h"
#include "runtime/value.h"

/* Tuple arguments (arg_tuple.c).  rt_tuple_take: the tuple
 * kjit_arg `a` as a value whose elements live in arena (arrays: live host
 * arrays of ctx, used in place); NULL, or what is wrong with it. */
const char *rt_tuple_take(kjit_context *ctx, Arena *arena, const kjit_arg *a, RtValue *out,
                          int depth);
/* Namedtuple instances in a taken tuple value (at any depth): the class
 * looked up in p by tname, the elements placed in field order (keywords by
 * name; the new list in arena), v->cls set.  NULL, or what is wrong. */
const char *rt_tuple_resolve(const IrProgram *p, Arena *arena, RtValue *v);

/* dlpack.c: drops the reference array `a` holds on the storage it shares
 * with DLPack tensors (a->shared); the last reference frees the memory or
 * calls the producer's deleter.  From kjit_array_destroy, lock held. */
void rt_dlpack_release(kjit_array *a);

#endif
