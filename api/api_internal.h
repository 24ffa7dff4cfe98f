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

/* The array helpers every api/ file shares (api_array.c). */
struct RtCuda;
/* A new handle owning `a` (moved in), linked on ctx; NULL when out of memory. */
kjit_array *rt_api_adopt(kjit_context *ctx, RtArray *a);
/* The RtArray of memory the caller owns (kjit_array_wrap, and
 * kjit_array_wrap_device for device memory): dtype, shape, the strides
 * given (NULL: C order) and the bytes the shape spans; owns is false.  The
 * shape must have passed rt_api_check_shape. */
RtArray rt_api_wrap_fill(kjit_dtype dtype, int ndim, const int64_t *shape, const int64_t *strides,
                         void *data);
/* Reports fmt (one %s: a) as an argument error and finishes the call with st. */
kjit_status rt_api_fail(RtCall *call, kjit_status st, const char *fmt, const char *a);
/* dtype, ndim and shape of a new array: false with the message. */
bool rt_api_check_shape(RtCall *call, kjit_dtype dt, int ndim, const int64_t *shape);
/* The context of a live or destroyed handle (NULL for anything else). */
kjit_context *rt_api_context_of(const kjit_array *a);
/* The context's GPU, opened and current, or NULL with the reason (the cpu
 * target: "device arrays need the cuda target"). */
struct RtCuda *rt_api_device_of(RtCall *call);
/* Why `a` cannot take part in a copy, or NULL. */
const char *rt_api_copy_problem(const kjit_array *a, const struct RtCuda *cu);

/* Streams and events kjit made for the context (embed.c), destroyed with it
 * before the device is closed. */
void rt_api_streams_release(kjit_context *ctx);
/* Why `stream` cannot be used (a kjit stream that was destroyed), or NULL. */
const char *rt_api_stream_problem(kjit_context *ctx, void *stream);

/* dlpack.c: drops the reference array `a` holds on the storage it shares
 * with DLPack tensors (a->shared); the last reference frees the memory or
 * calls the producer's deleter.  From kjit_array_destroy, lock held. */
void rt_dlpack_release(kjit_array *a);
/* The kjit context is being destroyed: an export of a's device memory in
 * kjit's own CUDA context (destroyed with it) must not free it later. */
void rt_dlpack_context_gone(kjit_array *a);

/* api_launch.c, for tune.c: resolves a launch of k over args as kjit_launch
 * does (the checks, the eager signature, the context's target) into call's
 * diagnostics, running nothing; params[0..nargs) receive the parameter
 * types of the specialization it would run.  The caller holds the call. */
kjit_status rt_api_launch_types(kjit_kernel *k, const kjit_arg *args, int nargs, RtCall *call,
                                const Type **params);

#endif
