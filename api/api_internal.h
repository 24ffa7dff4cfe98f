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
 * arrays of ctx, used in place); NULL, or what is wrong with it.
 * rt_tuple_to_arg: a parsed tuple value as a kjit_arg whose element lists
 * are malloc'd (kjit_arg_tuple_free), its arrays handed to ctx through
 * `adopt` (they then belong to ctx, not to v); false when memory runs out. */
const char *rt_tuple_take(kjit_context *ctx, Arena *arena, const kjit_arg *a, RtValue *out,
                          int depth);
bool rt_tuple_to_arg(kjit_context *ctx, RtValue *v, kjit_array *(*adopt)(kjit_context *, RtArray *),
                     kjit_arg *out);
/* Namedtuple instances in a taken tuple value (at any depth): the class
 * looked up in p by tname, the elements placed in field order (keywords by
 * name; the new list in arena), v->cls set.  NULL, or what is wrong. */
const char *rt_tuple_resolve(const IrProgram *p, Arena *arena, RtValue *v);

#endif
