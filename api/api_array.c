/* api_array.c - the public array API: dtypes, kjit_array, argument builders
 * and the views of a record array's fields.
 *
 * A kjit_array is an RtArray (data/array.h) with a magic word, linked on
 * its context.  kjit_array_destroy frees the memory but keeps the handle,
 * poisoned, in a quarantine of the last RT_QUARANTINE_MAX destroyed arrays,
 * so a later launch can say "array was destroyed" instead of crashing.
 * Errors are reported on the array's context like every other API call. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda/cuda.h"
#include "api/api_internal.h"
#include "host/launch.h"
#include "data/npy.h"
#include "data/random.h"
#include "runtime/runtime.h"

_Static_assert((int)KJIT_BOOL == RT_BOOL && (int)KJIT_INT64 == RT_I64 &&
                   (int)KJIT_UINT8 == RT_U8 && (int)KJIT_FLOAT16 == RT_F16 &&
                   (int)KJIT_COMPLEX128 == RT_C128 && RT_NDTYPES == 14 &&
                   (int)KJIT_RECORD == RT_RECORD,
               "kjit_dtype and RtDtype share their numbering");

/* ------------------------------------------------------------ dtypes --- */

static bool is_dtype(kjit_dtype dt) {
  return (int)dt >= 0 && (int)dt < RT_NDTYPES;
}

RtDtype rt_dtype_of(kjit_dtype dt) { return (RtDtype)dt; }

const char *kjit_dtype_name(kjit_dtype dtype) {
  if (dtype == KJIT_NONE)
    return "none";
  if (dtype == KJIT_RECORD)
    return "record";
  return is_dtype(dtype) ? rt_dtype_name(rt_dtype_of(dtype)) : NULL;
}

size_t kjit_dtype_size(kjit_dtype dtype) {
  return is_dtype(dtype) ? rt_dtype_size(rt_dtype_of(dtype)) : 0;
}

/* ------------------------------------------------------- bookkeeping --- */

bool rt_array_is_live(const kjit_array *a) {
  return a && a->magic == RT_ARRAY_LIVE;
}

static void link_live(kjit_context *ctx, kjit_array *h) {
  h->prev = NULL;
  h->next = ctx->api.live;
  if (h->next)
    h->next->prev = h;
  ctx->api.live = h;
}

static void unlink_live(kjit_context *ctx, kjit_array *h) {
  if (h->prev)
    h->prev->next = h->next;
  else
    ctx->api.live = h->next;
  if (h->next)
    h->next->prev = h->prev;
}

/* Parks a destroyed handle; the oldest one leaves when the quarantine is
 * full (a use of that one is undefined, as documented in kjit.h). */
static void quarantine(kjit_context *ctx, kjit_array *h) {
  RtApiState *s = &ctx->api;
  h->magic = RT_ARRAY_DEAD;
  h->next = NULL;
  h->prev = s->dead_tail;
  if (s->dead_tail)
    s->dead_tail->next = h;
  else
    s->dead = h;
  s->dead_tail = h;
  if (++s->ndead <= RT_QUARANTINE_MAX)
    return;
  kjit_array *old = s->dead;
  s->dead = old->next;
  s->dead->prev = NULL;
  s->ndead--;
  free(old);
}

void rt_api_release(kjit_context *ctx) {
  for (kjit_array *h = ctx->api.live; h; h = h->next)
    rt_dlpack_context_gone(h);          /* before kjit's own CUDA context goes */
  while (ctx->api.live)
    kjit_array_destroy(ctx->api.live);
  for (kjit_array *h = ctx->api.dead, *next; h; h = next) {
    next = h->next;
    free(h);
  }
  ctx->api.dead = ctx->api.dead_tail = NULL;
  ctx->api.ndead = 0;
}

/* A new handle owning `a` (moved in); NULL when out of memory. */
kjit_array *rt_api_adopt(kjit_context *ctx, RtArray *a) {
  kjit_array *h = calloc(1, sizeof *h);
  if (!h)
    return NULL;
  h->magic = RT_ARRAY_LIVE;
  h->ctx = ctx;
  h->a = *a;
  link_live(ctx, h);
  return h;
}

/* -------------------------------------------------------- validation --- */

kjit_status rt_api_fail(RtCall *call, kjit_status st, const char *fmt, const char *a) {
  diag_error(&call->diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL, fmt, a);
  return rt_finish(call, st);
}

bool rt_api_check_shape(RtCall *call, kjit_dtype dt, int ndim, const int64_t *shape) {
  Diags *d = &call->diags;
  if (dt == KJIT_RECORD) {
    diag_error(d, RT_E_ARGUMENT, (SrcLoc){0}, "use kjit_array_create_record(ctx, descr, ...)",
               "arrays of records need their fields (a descr)");
    return false;
  }
  if (!is_dtype(dt)) {
    diag_error(d, RT_E_ARGUMENT, (SrcLoc){0}, NULL, "%d is not a kjit_dtype", (int)dt);
    return false;
  }
  if (ndim < 0 || ndim > RT_MAX_NDIM || (ndim > 0 && !shape)) {
    if (ndim > 0 && ndim <= RT_MAX_NDIM)
      diag_error(d, RT_E_ARGUMENT, (SrcLoc){0}, NULL, "shape is NULL for a %d-dimensional array", ndim);
    else
      diag_error(d, RT_E_ARGUMENT, (SrcLoc){0}, NULL, "arrays have 0 to %d dimensions, not %d",
                 RT_MAX_NDIM, ndim);
    return false;
  }
  size_t nbytes;
  for (int i = 0; i < ndim; i++)
    if (shape[i] < 0) {
      diag_error(d, RT_E_ARGUMENT, (SrcLoc){0}, NULL,
                 "shape[%d] is negative (%lld)", i, (long long)shape[i]);
      return false;
    }
  if (!rt_shape_nbytes(rt_dtype_of(dt), ndim, shape, &nbytes)) {
    diag_error(d, RT_E_ARGUMENT, (SrcLoc){0}, NULL, "the array's size overflows");
    return false;
  }
  return true;
}

kjit_dtype kjit_dtype_from_name(const char *name) {
  RtDtype dt;
  return name && rt_dtype_parse(name, strlen(name), &dt) ? (kjit_dtype)dt : KJIT_DTYPE_INVALID;
}

/* ------------------------------------------------------------ create --- */

kjit_status kjit_array_create(kjit_context *ctx, kjit_dtype dtype, int ndim,
                              const int64_t *shape, kjit_array **out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (!rt_api_check_shape(&call, dtype, ndim, shape))
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  RtArray a;
  if (rt_array_alloc(&a, rt_dtype_of(dtype), ndim, shape) != 0)
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  kjit_array *h = rt_api_adopt(ctx, &a);
  if (!h) {
    rt_array_free(&a);
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  }
  *out = h;
  return rt_finish(&call, KJIT_OK);
}

/* numba.cuda.random states (data/random.c). */
kjit_status kjit_array_xoroshiro128p(kjit_context *ctx, int64_t n, uint64_t seed,
                                     uint64_t subsequence_start, kjit_array **out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  if (n < 0) {
    RtCall call;
    rt_begin(&call, ctx);
    diag_error(&call.diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL,
               "the number of xoroshiro128p generators is negative (%lld)", (long long)n);
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  }
  int64_t shape[2] = {n, 2};
  kjit_status st = kjit_array_create(ctx, KJIT_UINT64, 2, shape, out);
  if (st != KJIT_OK)
    return st;
  rt_xoroshiro128p_init(kjit_array_data(*out), n, seed, subsequence_start);
  return KJIT_OK;
}

RtArray rt_api_wrap_fill(kjit_dtype dtype, int ndim, const int64_t *shape, const int64_t *strides,
                         void *data) {
  RtArray a = {.dtype = rt_dtype_of(dtype), .ndim = ndim, .data = data, .owns = false};
  for (int i = 0; i < ndim; i++)
    a.shape[i] = shape[i];
  rt_shape_nbytes(a.dtype, ndim, shape, &a.nbytes);
  if (strides)
    for (int i = 0; i < ndim; i++)
      a.strides[i] = strides[i];
  else
    rt_array_set_c_strides(&a);
  return a;
}

kjit_status kjit_array_wrap(kjit_context *ctx, kjit_dtype dtype, int ndim,
                            const int64_t *shape, const int64_t *strides,
                            void *data, kjit_array **out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (!rt_api_check_shape(&call, dtype, ndim, shape))
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  RtArray a = rt_api_wrap_fill(dtype, ndim, shape, strides, data);
  if (!data && a.nbytes)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s", "data is NULL for a non-empty array");
  kjit_array *h = rt_api_adopt(ctx, &a);
  if (!h)
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  *out = h;
  return rt_finish(&call, KJIT_OK);
}

/* ----------------------------------------------------------- records --- */

/* The record of a descr, or NULL with the reason on call's diagnostics. */
static RtRecord *parse_record_descr(RtCall *call, const char *descr) {
  char err[400];
  RtRecord *r = descr ? rt_record_parse(descr, strlen(descr), err, sizeof err) : NULL;
  if (!r)
    diag_error(&call->diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL, "%s",
               descr ? err : "the record descr is NULL");
  return r;
}

kjit_status kjit_array_create_record(kjit_context *ctx, const char *descr, int ndim,
                                     const int64_t *shape, kjit_array **out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (!rt_api_check_shape(&call, KJIT_UINT8, ndim, shape))
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  RtRecord *r = parse_record_descr(&call, descr);
  if (!r)
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  RtArray a;
  int rc = rt_array_alloc_record(&a, r, ndim, shape);
  rt_record_release(r); /* the array holds its own reference */
  if (rc != 0)
    return rt_api_fail(&call, KJIT_ERROR_OUT_OF_MEMORY, "%s", "the record array does not fit in memory");
  kjit_array *h = rt_api_adopt(ctx, &a);
  if (!h) {
    rt_array_free(&a);
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  }
  *out = h;
  return rt_finish(&call, KJIT_OK);
}

const char *kjit_array_descr(const kjit_array *a) {
  return rt_array_is_live(a) && a->a.dtype == RT_RECORD && a->a.rec ? a->a.rec->descr : NULL;
}

int64_t kjit_array_itemsize(const kjit_array *a) {
  return rt_array_is_live(a) ? (int64_t)rt_array_itemsize(&a->a) : -1;
}

/* ---------------------------------------------------------- .npy I/O --- */

/* The context of a handle that may be destroyed: a quarantined handle still
 * knows it, so the error lands where the caller looks. */
kjit_context *rt_api_context_of(const kjit_array *a) {
  return a && (a->magic == RT_ARRAY_LIVE || a->magic == RT_ARRAY_DEAD) ? a->ctx : NULL;
}

int kjit_array_field_count(const kjit_array *a) {
  if (!rt_array_is_live(a))
    return -1;
  return a->a.dtype == RT_RECORD && a->a.rec ? a->a.rec->nfields : 0;
}

const char *kjit_array_field_name(const kjit_array *a, int i) {
  return i >= 0 && i < kjit_array_field_count(a) ? a->a.rec->fields[i].name : NULL;
}

/* Why field i of a cannot be viewed, or NULL (the NOT_FOUND cases apart). */
static const char *field_problem(const kjit_array *a) {
  if (!rt_array_is_live(a))
    return "the array was destroyed";
  return a->device ? "the fields of a device array cannot be viewed; copy it to a host array "
                     "(kjit_array_copy)" : NULL;
}

kjit_status kjit_array_field(kjit_array *a, int i, kjit_array **out) {
  kjit_context *ctx = rt_api_context_of(a);
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  const char *why = field_problem(a);
  if (why)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s", why);
  int n = kjit_array_field_count(a);
  if (i < 0 || i >= n) {
    diag_error(&call.diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL,
               n ? "no field %d: the record has %d fields" : "no field %d: the array is not a record array",
               i, n);
    return rt_finish(&call, KJIT_ERROR_NOT_FOUND);
  }
  RtArray v;
  if (!rt_record_field_view(&a->a, i, &v)) {
    diag_error(&call.diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL,
               "field '%s' of a %d-dimensional array has more than %d dimensions",
               a->a.rec->fields[i].name, a->a.ndim, RT_MAX_NDIM);
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  }
  v.readonly = a->a.readonly; /* a view writes the same memory */
  kjit_array *h = rt_api_adopt(ctx, &v);
  if (!h) {
    rt_array_free(&v);
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  }
  *out = h;
  return rt_finish(&call, KJIT_OK);
}

static kjit_status npy_status(int rc) {
  return rc == RT_NPY_E_NOMEM ? KJIT_ERROR_OUT_OF_MEMORY : KJIT_ERROR_IO;
}

kjit_status kjit_array_load_npy(kjit_context *ctx, const char *path, kjit_array **out) {
  if (!ctx || !path || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  char err[512];
  RtArray a;
  int rc = rt_npy_read(path, &a, err, sizeof err);
  if (rc != RT_NPY_OK) {
    diag_error(&call.diags, RT_E_IO, (SrcLoc){0}, NULL, "%s", err);
    return rt_finish(&call, npy_status(rc));
  }
  kjit_array *h = rt_api_adopt(ctx, &a);
  if (!h) {
    rt_array_free(&a);
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  }
  *out = h;
  return rt_finish(&call, KJIT_OK);
}

kjit_status kjit_array_save_npy(kjit_array *a, const char *path) {
  kjit_context *ctx = rt_api_context_of(a);
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (!rt_array_is_live(a))
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s", "the array was destroyed");
  if (a->device)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s",
                "a device array cannot be saved; copy it to a host array (kjit_array_copy)");
  if (!path)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s", "path is NULL");
  char err[512];
  int rc = rt_npy_write(path, &a->a, err, sizeof err);
  if (rc != RT_NPY_OK) {
    diag_error(&call.diags, RT_E_IO, (SrcLoc){0}, NULL, "%s", err);
    return rt_finish(&call, npy_status(rc));
  }
  return rt_finish(&call, KJIT_OK);
}

kjit_status kjit_array_save_npy_all(kjit_context *ctx, kjit_array *const *arrays, const char *const *paths,
                                    int n) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (n < 0 || (n > 0 && (!arrays || !paths)))
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s", "arrays or paths is NULL, or n < 0");
  const RtArray **as = calloc((size_t)n + 1, sizeof *as);
  if (!as)
    return rt_api_fail(&call, KJIT_ERROR_OUT_OF_MEMORY, "%s", "out of memory");
  for (int i = 0; i < n; i++) {
    if (!paths[i] || !rt_array_is_live(arrays[i]) || arrays[i]->device || rt_api_context_of(arrays[i]) != ctx) {
      free(as);
      return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s",
                  "a NULL path, or a destroyed, device or other context's array");
    }
    as[i] = &arrays[i]->a;
  }
  char err[512];
  int rc = rt_npy_write_all(paths, as, n, err, sizeof err);
  free(as);
  if (rc != RT_NPY_OK) {
    diag_error(&call.diags, RT_E_IO, (SrcLoc){0}, NULL, "%s", err);
    return rt_finish(&call, npy_status(rc));
  }
  return rt_finish(&call, KJIT_OK);
}

kjit_status kjit_array_save_check(kjit_context *ctx, const char *path) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (!path)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s", "path is NULL");
  char err[512];
  if (rt_out_check(path, NULL, err, sizeof err) != 0) {
    diag_error(&call.diags, RT_E_IO, (SrcLoc){0}, "outputs are regular files (new, or replaced)", "%s", err);
    return rt_finish(&call, KJIT_ERROR_IO);
  }
  return rt_finish(&call, KJIT_OK);
}

void kjit_remove_temporaries(void) { rt_out_cleanup(); }

kjit_status kjit_array_write_npy_fd(kjit_array *a, int fd, const char *name) {
  kjit_context *ctx = rt_api_context_of(a);
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (!rt_array_is_live(a) || a->device || fd < 0)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s",
                fd < 0 ? "bad file descriptor" : "a destroyed or device array cannot be written");
  int own = dup(fd);
  FILE *f = own >= 0 ? fdopen(own, "wb") : NULL;
  char err[512] = "";
  int rc = f ? rt_npy_write_stream(f, name ? name : "output", &a->a, err, sizeof err) : RT_NPY_E_IO;
  if (!f && own >= 0)
    close(own);
  if (f && fclose(f) != 0 && rc == RT_NPY_OK)
    rc = RT_NPY_E_IO, snprintf(err, sizeof err, "cannot write: %s", strerror(errno));
  if (rc != RT_NPY_OK) {
    diag_error(&call.diags, RT_E_IO, (SrcLoc){0}, NULL, "%s", err[0] ? err : strerror(errno));
    return rt_finish(&call, npy_status(rc));
  }
  return rt_finish(&call, KJIT_OK);
}

/* --------------------------------------------------------- accessors --- */

void *kjit_array_data(const kjit_array *a) {
  return rt_array_is_live(a) ? a->a.data : NULL;
}

int kjit_array_ndim(const kjit_array *a) {
  return rt_array_is_live(a) ? a->a.ndim : -1;
}

const int64_t *kjit_array_shape(const kjit_array *a) {
  return rt_array_is_live(a) ? a->a.shape : NULL;
}

const int64_t *kjit_array_strides(const kjit_array *a) {
  return rt_array_is_live(a) ? a->a.strides : NULL;
}

kjit_dtype kjit_array_dtype(const kjit_array *a) {
  return rt_array_is_live(a) ? (kjit_dtype)a->a.dtype : KJIT_DTYPE_INVALID;
}

int64_t kjit_array_size(const kjit_array *a) {
  return rt_array_is_live(a) ? rt_array_size(&a->a) : -1;
}

static void destroy_array(kjit_array *a);

void kjit_array_destroy(kjit_array *a) {
  if (!rt_array_is_live(a))
    return;
  kjit_context *ctx = a->ctx;
  rt_lock(ctx);
  destroy_array(a);
  rt_unlock(ctx);
}

static void destroy_array(kjit_array *a) {
  unlink_live(a->ctx, a);
  RtCuda *cu = a->ctx->cuda;
  if (a->shared) /* memory shared with DLPack tensors: its last user frees it */
    rt_dlpack_release(a);
  else if (a->device && !a->borrowed && cu && cu->ctx && a->epoch == cu->resets) { /* else the
                                                 reset freed it, or it is not kjit's */
    cu->api.CtxSetCurrent(cu->ctx);
    rt_cuda_free(cu, (RtCuDeviceptr)(uintptr_t)a->a.data);
  }
  rt_array_free(&a->a);
  quarantine(a->ctx, a);
}

/* ----------------------------------------------------- device arrays --- */

int kjit_array_is_device(const kjit_array *a) {
  return rt_array_is_live(a) ? a->device : -1;
}

/* The context's device, or NO_DEVICE with the reason. */
RtCuda *rt_api_device_of(RtCall *call) {
  kjit_status st = rt_resolve_target(call);
  if (st != KJIT_OK)
    return NULL;
  if (call->ctx->api.target != KJIT_TARGET_CUDA) {
    diag_error(&call->diags, RT_E_CUDA_NO_DEVICE, (SrcLoc){0},
               "create the context with KJIT_TARGET_CUDA (or AUTO) on a machine with a GPU",
               "device arrays need the cuda target; this context runs on the cpu%s",
               call->ctx->opts.target == KJIT_TARGET_CPU ? " (KJIT_TARGET_CPU)"
                                                          : " (no usable CUDA device)");
    return NULL;
  }
  return rt_cuda_device(call->ctx, &call->diags);
}

/* A device array of dtype/shape on cu (C order); false with a message. */
static bool new_device_array(RtCall *call, RtCuda *cu, kjit_dtype dtype, int ndim,
                             const int64_t *shape, kjit_array **out) {
  RtArray a = {.dtype = rt_dtype_of(dtype), .ndim = ndim, .owns = false};
  for (int i = 0; i < ndim; i++)
    a.shape[i] = shape[i];
  rt_shape_nbytes(a.dtype, ndim, shape, &a.nbytes);
  rt_array_set_c_strides(&a);
  RtCuDeviceptr p = 0;
  if (!rt_cuda_alloc(cu, a.nbytes, &p, "a device array", &call->diags))
    return false;
  a.data = (void *)(uintptr_t)p;
  kjit_array *h = rt_api_adopt(call->ctx, &a);
  if (!h) {
    rt_cuda_free(cu, p);
    return false;
  }
  h->device = true;                /* not borrowed: kjit frees it */
  h->epoch = cu->resets;
  *out = h;
  return true;
}

kjit_status kjit_array_create_device(kjit_context *ctx, kjit_dtype dtype, int ndim,
                                     const int64_t *shape, kjit_array **out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  if (!rt_api_check_shape(&call, dtype, ndim, shape))
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  RtCuda *cu = rt_api_device_of(&call);
  if (!cu)
    return rt_finish(&call, call.diags.nerrors ? rt_status_of(&call.diags) : KJIT_ERROR_NO_DEVICE);
  if (!new_device_array(&call, cu, dtype, ndim, shape, out))
    return rt_finish(&call, call.diags.nerrors ? rt_status_of(&call.diags) : KJIT_ERROR_OUT_OF_MEMORY);
  return rt_finish(&call, KJIT_OK);
}

/* Why `a` cannot take part in a copy, or NULL. */
const char *rt_api_copy_problem(const kjit_array *a, const RtCuda *cu) {
  if (!rt_array_is_live(a))
    return "the array was destroyed";
  if (a->device && (!cu || a->epoch != cu->resets))
    return "array was allocated before a device fault and is no longer valid";
  if (!rt_array_is_c_contiguous(&a->a))
    return "the array is not C-contiguous";
  return NULL;
}

kjit_status kjit_array_to_device(kjit_context *ctx, kjit_array *host, kjit_array **out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  const char *why = !host ? "the array is NULL" : rt_api_copy_problem(host, ctx->cuda);
  if (!why && host->ctx != ctx)
    why = "the array belongs to another context";
  if (!why && host->device)
    why = "the array is already a device array (kjit_array_copy copies device to device)";
  if (!why && host->a.dtype == RT_RECORD)
    why = "device arrays of records are not supported yet; pass the host array to the launch "
          "(it is copied to the device and back)";
  if (why)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s", why);
  RtCuda *cu = rt_api_device_of(&call);
  kjit_array *d = NULL;
  if (!cu || !new_device_array(&call, cu, (kjit_dtype)host->a.dtype, host->a.ndim,
                               host->a.shape, &d))
    return rt_finish(&call, call.diags.nerrors ? rt_status_of(&call.diags) : KJIT_ERROR_OUT_OF_MEMORY);
  if (!rt_cuda_copy(cu, d->a.data, true, host->a.data, false, host->a.nbytes, NULL, false,
                    &call.diags)) {
    kjit_array_destroy(d);
    return rt_finish(&call, rt_status_of(&call.diags));
  }
  *out = d;
  return rt_finish(&call, KJIT_OK);
}

/* kjit_array_copy and kjit_array_copy_async: stream NULL is the context's
 * own; async returns once the copy is queued. */
static kjit_status copy_arrays(kjit_array *dst, kjit_array *src, void *stream, bool async) {
  kjit_context *ctx = rt_api_context_of(dst);
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  const char *why = rt_api_copy_problem(dst, ctx->cuda);
  if (!why && dst->a.readonly)
    why = "the array is read-only (kjit_array_set_readonly, or a read-only DLPack tensor)";
  if (why)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "destination: %s", why);
  if (!src || (why = rt_api_copy_problem(src, ctx->cuda)))
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "source: %s", src ? why : "NULL");
  if (src->ctx != ctx)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s", "the arrays belong to different contexts");
  bool same = src->a.dtype == dst->a.dtype && src->a.ndim == dst->a.ndim &&
              rt_record_same(src->a.rec, dst->a.rec);
  for (int i = 0; same && i < src->a.ndim; i++)
    same = src->a.shape[i] == dst->a.shape[i];
  if (!same)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "%s",
                "the arrays differ in dtype or shape");
  size_t bytes = (size_t)rt_array_size(&src->a) * (size_t)rt_array_itemsize(&src->a);
  if (!src->device && !dst->device) {
    if (bytes)
      memmove(dst->a.data, src->a.data, bytes);
    return rt_finish(&call, KJIT_OK);
  }
  const char *gone = rt_api_stream_problem(ctx, stream);
  if (gone)
    return rt_api_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, "argument 'stream': %s", gone);
  RtCuda *cu = ctx->cuda;
  RtCuStream st = NULL;
  bool capturing = false;
  bool ok = rt_cuda_check_stream(cu, stream, NULL, &st, &capturing, &call.diags);
  if (ok && capturing && (!src->device || !dst->device)) {
    diag_error(&call.diags, RT_E_CUDA_STREAM, (SrcLoc){0},
               "copy between device arrays under capture, or copy before it begins",
               "a copy from or to host memory on a stream under graph capture would be recorded "
               "with the host buffer's address: kjit refuses it");
    ok = false;
  }
  ok = ok && rt_cuda_copy(cu, dst->a.data, dst->device, src->a.data, src->device, bytes, st,
                          async, &call.diags);
  return rt_finish(&call, ok ? KJIT_OK : rt_status_of(&call.diags));
}

kjit_status kjit_array_copy(kjit_array *dst, kjit_array *src) {
  return copy_arrays(dst, src, NULL, false);
}

kjit_status kjit_array_copy_async(kjit_array *dst, kjit_array *src, void *stream) {
  return copy_arrays(dst, src, stream, true);
}

/* --------------------------------------------------------- arguments --- */

kjit_arg kjit_arg_array(kjit_array *a) {
  kjit_arg r;
  memset(&r, 0, sizeof r);
  r.kind = KJIT_ARG_ARRAY;
  r.value.array = a;
  return r;
}

kjit_arg kjit_arg_i64(int64_t v) {
  kjit_arg r;
  memset(&r, 0, sizeof r);
  r.kind = KJIT_ARG_INT64;
  r.dtype = KJIT_INT64;
  r.value.i64 = v;
  return r;
}

kjit_arg kjit_arg_f64(double v) {
  kjit_arg r;
  memset(&r, 0, sizeof r);
  r.kind = KJIT_ARG_FLOAT64;
  r.dtype = KJIT_FLOAT64;
  r.value.f64 = v;
  return r;
}

kjit_arg kjit_arg_pointer(kjit_dtype dtype, void *ptr) {
  kjit_arg r;
  memset(&r, 0, sizeof r);
  r.kind = KJIT_ARG_POINTER;
  r.dtype = is_dtype(dtype) ? dtype : KJIT_DTYPE_INVALID;
  r.value.ptr = ptr;
  return r;
}

kjit_arg kjit_arg_scalar(kjit_dtype dtype, const void *value) {
  kjit_arg r;
  memset(&r, 0, sizeof r);
  r.kind = KJIT_ARG_SCALAR;
  r.dtype = is_dtype(dtype) && value ? dtype : KJIT_DTYPE_INVALID;
  if (r.dtype != KJIT_DTYPE_INVALID)
    memcpy(r.value.bits, value, kjit_dtype_size(dtype));
  return r;
}
