/* embed.c - what a CUDA program needs to share its GPU work with kjit:
 * the host's device memory as kjit arrays (kjit_array_wrap_device), views
 * of arrays (kjit_array_view), and streams and events for callers without
 * their own (kjit_stream_*, kjit_event_*).  The launch side (a caller's
 * stream, graph capture, kjit_kernel_prepare) is the launch plan's:
 * api/api_launch.c and cuda/cuda_run.c.
 *
 * On the cpu target streams and events exist too, so one program runs on
 * both: a stream is a token (launches there are synchronous) and an event
 * a host clock reading. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api_internal.h"
#include "cuda/cuda.h"
#include "runtime/runtime.h"

/* ------------------------------------------------ the host's memory --- */

/* The byte offsets, from the data pointer, of the first and one past the
 * last byte an array of this shape and these strides touches (strides of
 * any sign).  False for an empty array. */
static bool span_of(const RtArray *a, int64_t *lo, int64_t *hi) {
  if (rt_array_size(a) == 0)
    return false;
  *lo = 0;
  *hi = (int64_t)rt_array_itemsize(a);
  for (int d = 0; d < a->ndim; d++) {
    int64_t reach = (a->shape[d] - 1) * a->strides[d];
    if (reach < 0)
      *lo += reach;
    else
      *hi += reach;
  }
  return true;
}

/* The array a.data .. spans, checked against what the driver knows of the
 * pointer: device memory of cu's device (or managed, or mapped pinned host
 * memory), large enough when the driver knows the allocation's size. */
static bool check_device_memory(RtCall *call, RtCuda *cu, const RtArray *a) {
  Diags *d = &call->diags;
  RtCuDeviceptr p = (RtCuDeviceptr)(uintptr_t)a->data;
  int64_t lo = 0, hi = 0;
  if (!span_of(a, &lo, &hi))
    return true;                                /* nothing is ever read */
  if (!p) {
    diag_error(d, RT_E_CUDA_MEMORY, (SrcLoc){0}, NULL,
               "argument 'device_ptr' is 0 for a non-empty array");
    return false;
  }
  size_t item = rt_array_itemsize(a);
  if (p % item) {
    diag_error(d, RT_E_CUDA_MEMORY, (SrcLoc){0}, "GPU loads and stores need aligned elements",
               "argument 'device_ptr' (0x%llx) is not aligned to the dtype's %zu bytes",
               (unsigned long long)p, item);
    return false;
  }
  unsigned memtype = 0;
  RtCuResult r = cu->api.PointerGetAttribute(&memtype, RT_CU_POINTER_MEMORY_TYPE, p);
  if (r != RT_CU_SUCCESS) {
    char name[64];
    diag_error(d, RT_E_CUDA_MEMORY, (SrcLoc){0},
               "host memory is wrapped with kjit_array_wrap (a launch copies it); device memory "
               "comes from cuMemAlloc, cudaMalloc, a memory pool, managed or mapped pinned memory",
               "argument 'device_ptr' (0x%llx) is not memory the CUDA driver knows (%s): a host "
               "pointer?", (unsigned long long)p, rt_cu_error_name(&cu->api, r, name, sizeof name));
    return false;
  }
  int managed = 0, ordinal = -1;
  cu->api.PointerGetAttribute(&managed, RT_CU_POINTER_IS_MANAGED, p);
  if (memtype == RT_CU_MEMORYTYPE_DEVICE && !managed &&
      cu->api.PointerGetAttribute(&ordinal, RT_CU_POINTER_DEVICE_ORDINAL, p) == RT_CU_SUCCESS &&
      ordinal >= 0 && ordinal != cu->info.ordinal) {
    diag_error(d, RT_E_CUDA_MEMORY, (SrcLoc){0},
               "wrap it in a kjit context of that device (kjit_context_options.device), or copy "
               "it to this device first",
               "argument 'device_ptr' (0x%llx) is memory of CUDA device %d; this context runs on "
               "device %d", (unsigned long long)p, ordinal, cu->info.ordinal);
    return false;
  }
  RtCuDeviceptr start = 0;
  size_t size = 0;
  if (cu->api.PointerGetAttribute(&start, RT_CU_POINTER_RANGE_START_ADDR, p) == RT_CU_SUCCESS &&
      cu->api.PointerGetAttribute(&size, RT_CU_POINTER_RANGE_SIZE, p) == RT_CU_SUCCESS && size &&
      start <= p) {
    int64_t before = (int64_t)(p - start), after = (int64_t)(start + size - p);
    if (-lo > before || hi > after) {
      diag_error(d, RT_E_CUDA_MEMORY, (SrcLoc){0},
                 "check the shape and strides against the allocation's size",
                 "the array reaches %lld bytes before and %lld bytes after argument "
                 "'device_ptr' (0x%llx), but its allocation (0x%llx, %zu bytes) holds only "
                 "%lld before and %lld after", (long long)-lo, (long long)hi,
                 (unsigned long long)p, (unsigned long long)start, size, (long long)before,
                 (long long)after);
      return false;
    }
  }
  return true;
}

kjit_status kjit_array_wrap_device(kjit_context *ctx, kjit_dtype dtype, int ndim,
                                   const int64_t *shape, const int64_t *strides,
                                   uint64_t device_ptr, kjit_array **out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (!rt_api_check_shape(&call, dtype, ndim, shape))
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  RtArray a = rt_api_wrap_fill(dtype, ndim, shape, strides, (void *)(uintptr_t)device_ptr);
  RtCuda *cu = rt_api_device_of(&call);
  if (!cu)
    return rt_finish(&call, call.diags.nerrors ? rt_status_of(&call.diags) : KJIT_ERROR_NO_DEVICE);
  if (!check_device_memory(&call, cu, &a))
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  kjit_array *h = rt_api_adopt(ctx, &a);
  if (!h)
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  h->device = true;
  h->borrowed = true;
  h->epoch = cu->resets;
  *out = h;
  return rt_finish(&call, KJIT_OK);
}

/* --------------------------------------------------------------- views --- */

kjit_status kjit_array_view(kjit_array *a, int ndim, const int64_t *shape,
                            const int64_t *strides, int64_t offset, kjit_array **out) {
  kjit_context *ctx = rt_api_context_of(a);
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (!rt_array_is_live(a))
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s", "the array was destroyed");
  if (a->a.dtype == RT_RECORD)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s",
                       "views of record arrays are made field by field (kjit_array_field)");
  if (!rt_api_check_shape(&call, (kjit_dtype)a->a.dtype, ndim, shape))
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  RtArray v = {.dtype = a->a.dtype, .ndim = ndim, .owns = false,
               .data = (char *)a->a.data + offset};
  for (int i = 0; i < ndim; i++)
    v.shape[i] = shape[i];
  if (strides)
    for (int i = 0; i < ndim; i++)
      v.strides[i] = strides[i];
  else
    rt_array_set_c_strides(&v);
  int64_t plo = 0, phi = 0, lo = 0, hi = 0;
  if (span_of(&v, &lo, &hi)) {
    bool inside = span_of(&a->a, &plo, &phi) && offset + lo >= plo && offset + hi <= phi;
    if (!inside) {
      diag_error(&call.diags, RT_E_ARGUMENT, (SrcLoc){0},
                 "offset, shape and strides must stay within the array viewed",
                 "the view reaches bytes %lld to %lld of the array, which spans %lld to %lld",
                 (long long)(offset + lo), (long long)(offset + hi),
                 span_of(&a->a, &plo, &phi) ? (long long)plo : 0LL,
                 span_of(&a->a, &plo, &phi) ? (long long)phi : 0LL);
      return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
    }
  }
  v.nbytes = (size_t)(hi > 0 && rt_array_size(&v) ? hi : 0);
  kjit_array *h = rt_api_adopt(ctx, &v);
  if (!h)
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  h->device = a->device;
  h->borrowed = a->device;
  h->epoch = a->epoch;
  *out = h;
  return rt_finish(&call, KJIT_OK);
}

/* ---------------------------------------------------- streams, events --- */

/* A stream or event kjit made: on the cuda target the driver's handle, on
 * the cpu target this record itself (a host clock reading for an event). */
typedef struct RtEmbedHandle {
  struct RtEmbedHandle *next;
  bool event;
  bool destroyed;                 /* a stream kjit_stream_destroy parked (below) */
  void *cu;                       /* CUstream / CUevent; NULL on the cpu target */
  double host_ms;                 /* cpu target event: when recorded (-1: never) */
} RtEmbedHandle;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *public_of(RtEmbedHandle *h) { return h->cu ? h->cu : (void *)h; }

/* The record behind a handle kjit_stream_create / kjit_event_create gave. */
static RtEmbedHandle *find_handle(kjit_context *ctx, void *handle, bool event) {
  for (RtEmbedHandle *h = ctx->api.handles; h; h = h->next)
    if (public_of(h) == handle && h->event == event && !h->destroyed)
      return h;
  return NULL;
}

/* A stream kjit_stream_destroy took is parked, not destroyed: the driver's
 * handle stays valid (no other stream can get its address), so a later
 * use is caught here instead of reaching the driver with a dangling
 * handle.  The oldest parked streams are really destroyed past this many. */
#define RT_PARKED_STREAMS 64

const char *rt_api_stream_problem(kjit_context *ctx, void *stream) {
  if (!stream || stream == KJIT_STREAM_LEGACY || stream == KJIT_STREAM_PER_THREAD)
    return NULL;
  for (RtEmbedHandle *h = ctx->api.handles; h; h = h->next)
    if (public_of(h) == stream && !h->event)
      return h->destroyed ? "the stream was destroyed (kjit_stream_destroy)" : NULL;
  return NULL;
}

static void unlink_handle(kjit_context *ctx, RtEmbedHandle *gone) {
  for (RtEmbedHandle **p = &ctx->api.handles; *p; p = &(*p)->next)
    if (*p == gone) {
      *p = gone->next;
      return;
    }
}

static void release_handle(kjit_context *ctx, RtEmbedHandle *h) {
  RtCuda *cu = ctx->cuda;
  if (h->cu && cu && cu->ctx && !cu->dead) {
    cu->api.CtxSetCurrent(cu->ctx);
    if (h->event)
      cu->api.EventDestroy(h->cu);
    else
      cu->api.StreamDestroy(h->cu);
  }
  free(h);
}

void rt_api_streams_release(kjit_context *ctx) {
  while (ctx->api.handles) {
    RtEmbedHandle *h = ctx->api.handles;
    ctx->api.handles = h->next;
    release_handle(ctx, h);
  }
}

/* The target is resolved first: on the GPU the handle is the driver's. */
static kjit_status make_handle(kjit_context *ctx, bool event, void **out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  kjit_status st = rt_resolve_target(&call);
  if (st != KJIT_OK)
    return rt_finish(&call, st);
  RtEmbedHandle *h = calloc(1, sizeof *h);
  if (!h)
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  h->event = event;
  h->host_ms = -1;
  if (ctx->api.target == KJIT_TARGET_CUDA) {
    RtCuda *cu = rt_cuda_device(ctx, &call.diags);
    RtCuResult r = RT_CU_SUCCESS;
    if (cu && event)
      r = cu->api.EventCreate((RtCuEvent *)&h->cu, RT_CU_EVENT_DEFAULT);
    else if (cu)
      r = cu->api.StreamCreate((RtCuStream *)&h->cu, RT_CU_STREAM_NON_BLOCKING);
    if (!cu || !rt_cuda_check(cu, r, event ? "cuEventCreate" : "cuStreamCreate", NULL, &call.diags)) {
      free(h);
      return rt_finish(&call, rt_status_of(&call.diags));
    }
  }
  h->next = ctx->api.handles;
  ctx->api.handles = h;
  *out = public_of(h);
  return rt_finish(&call, KJIT_OK);
}

/* The record of a handle this context made, or NULL with the message. */
static RtEmbedHandle *handle_arg(RtCall *call, void *handle, bool event, const char *made_by) {
  RtEmbedHandle *h = handle ? find_handle(call->ctx, handle, event) : NULL;
  if (!h)
    diag_error(&call->diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL,
               "argument '%s' was not made by %s on this context (or was destroyed)",
               event ? "event" : "stream", made_by);
  return h;
}

kjit_status kjit_stream_create(kjit_context *ctx, void **stream) {
  return make_handle(ctx, false, stream);
}

kjit_status kjit_event_create(kjit_context *ctx, void **event) {
  return make_handle(ctx, true, event);
}

/* A GPU stream is parked (see RT_PARKED_STREAMS), the oldest parked one
 * past the limit really destroyed. */
static void park_stream(kjit_context *ctx, RtEmbedHandle *h) {
  h->destroyed = true;
  ctx->api.streams_destroyed++;
  int parked = 0;
  RtEmbedHandle *oldest = NULL;                 /* the list is newest first */
  for (RtEmbedHandle *p = ctx->api.handles; p; p = p->next)
    if (p->destroyed && ++parked > RT_PARKED_STREAMS && !oldest)
      oldest = p;
  if (oldest) {
    unlink_handle(ctx, oldest);
    release_handle(ctx, oldest);
  }
}

/* kjit_stream_destroy and kjit_event_destroy: look the handle up, then
 * unlink and release it (an event, a cpu token) or park it (a GPU stream). */
static kjit_status destroy_handle(kjit_context *ctx, void *handle, bool event) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  RtEmbedHandle *h = handle_arg(&call, handle, event, event ? "kjit_event_create" : "kjit_stream_create");
  if (!h)
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  if (!event && h->cu) {
    park_stream(ctx, h);
  } else {
    unlink_handle(ctx, h);
    release_handle(ctx, h);
  }
  return rt_finish(&call, KJIT_OK);
}

kjit_status kjit_stream_destroy(kjit_context *ctx, void *stream) {
  return destroy_handle(ctx, stream, false);
}

kjit_status kjit_event_destroy(kjit_context *ctx, void *event) {
  return destroy_handle(ctx, event, true);
}

/* Any stream of the context's CUDA context (the caller's too), NULL for
 * kjit's own; a fault of a kernel queued on it is reported here. */
kjit_status kjit_stream_synchronize(kjit_context *ctx, void *stream) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (ctx->api.target != KJIT_TARGET_CUDA || !ctx->cuda)
    return rt_finish(&call, KJIT_OK);           /* nothing is ever queued */
  const char *gone = rt_api_stream_problem(ctx, stream);
  if (gone)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "argument 'stream': %s", gone);
  RtCuStream st = NULL;
  bool capturing = false;
  bool ok = rt_cuda_check_stream(ctx->cuda, stream, NULL, &st, &capturing, &call.diags);
  if (ok && capturing) {
    diag_error(&call.diags, RT_E_CUDA_STREAM, (SrcLoc){0}, "end the capture first",
               "a stream under graph capture cannot be synchronized");
    ok = false;
  }
  ok = ok && rt_cuda_sync_stream(ctx->cuda, st, &call.diags);
  return rt_finish(&call, ok ? KJIT_OK : rt_status_of(&call.diags));
}

kjit_status kjit_event_record(kjit_context *ctx, void *event, void *stream) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  RtEmbedHandle *h = handle_arg(&call, event, true, "kjit_event_create");
  if (!h)
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  if (!h->cu) {
    h->host_ms = now_ms();
    return rt_finish(&call, KJIT_OK);
  }
  const char *gone = rt_api_stream_problem(ctx, stream);
  if (gone)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "argument 'stream': %s", gone);
  RtCuda *cu = ctx->cuda;
  RtCuStream st = NULL;
  bool capturing = false;
  bool ok = rt_cuda_check_stream(cu, stream, NULL, &st, &capturing, &call.diags) &&
            rt_cuda_make_current(cu, &call.diags) &&
            rt_cuda_check(cu, cu->api.EventRecord(h->cu, st ? st : cu->stream), "cuEventRecord",
                          NULL, &call.diags);
  return rt_finish(&call, ok ? KJIT_OK : rt_status_of(&call.diags));
}

kjit_status kjit_event_elapsed_ms(kjit_context *ctx, void *start, void *end, double *ms) {
  if (!ctx || !ms)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  RtEmbedHandle *a = handle_arg(&call, start, true, "kjit_event_create");
  RtEmbedHandle *b = a ? handle_arg(&call, end, true, "kjit_event_create") : NULL;
  if (!a || !b)
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  if (!a->cu) {
    if (a->host_ms < 0 || b->host_ms < 0)
      return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s",
                         "an event was never recorded (kjit_event_record)");
    *ms = b->host_ms - a->host_ms;
    return rt_finish(&call, KJIT_OK);
  }
  RtCuda *cu = ctx->cuda;
  float f = 0;
  bool ok = rt_cuda_make_current(cu, &call.diags) &&
            rt_cuda_check(cu, cu->api.EventSynchronize(b->cu), "cuEventSynchronize", NULL,
                          &call.diags) &&
            rt_cuda_check(cu, cu->api.EventElapsedTime(&f, a->cu, b->cu), "cuEventElapsedTime",
                          NULL, &call.diags);
  if (ok)
    *ms = f;
  return rt_finish(&call, ok ? KJIT_OK : rt_status_of(&call.diags));
}
