/* dlpack.c - DLPack tensors in and out of kjit arrays (include/kjit_dlpack.h,
 * kjit.h "DLPack"), and read-only arrays.
 *
 * An import checks the tensor, then makes the array through the public
 * wrap calls (kjit_array_wrap for host memory, kjit_array_wrap_device for
 * device memory) and attaches an RtDlShared: the storage record that owns
 * the producer's managed tensor.  An export attaches one too (taking over
 * the array's own memory, which the array stops freeing) and hands the
 * consumer a reference.  The invariant: the memory behind a shared array
 * is released exactly once, by whoever drops the storage's last reference
 * (kjit_array_destroy, the context's destruction, an exported tensor's
 * deleter), on any thread, taking no kjit lock itself: so the storage keeps
 * what releasing needs (the driver's entry points, the CUDA context the
 * memory lives in, retained when it is the primary one), never the kjit
 * context. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "cuda/cuda.h"

/* ----------------------------------------------------------- storage --- */

/* What frees device memory kjit allocated, without the kjit context: the
 * context the memory lives in, which is the one kjit runs in (retained for
 * us only when it is the device's primary context: a caller's context is
 * the caller's to keep, and kjit's own dies with the kjit context). */
typedef struct RtDlDevice {
  RtCuDeviceptr ptr;
  RtCuDevice dev;
  RtCuContext ctx;                 /* the context of ptr (kjit's cu->ctx) */
  bool primary;                    /* ctx is the primary context, retained here */
  bool own;                        /* ctx is kjit's own (cuCtxCreate) */
  int gone;                        /* own: the kjit context destroyed ctx, and
                                      with it the memory (atomic) */
  RtCuResult (*get_current)(RtCuContext *);
  RtCuResult (*set_current)(RtCuContext);
  RtCuResult (*mem_free)(RtCuDeviceptr);
  RtCuResult (*release)(RtCuDevice);
} RtDlDevice;

typedef struct RtDlShared {
  int refs;                        /* the array's + one per live export (atomic) */
  int32_t dl_device;               /* the device type exports report */
  RtArray mem;                     /* host memory kjit allocated (mem.owns), moved
                                      out of the array at its first export */
  RtDlDevice *device;              /* device memory kjit allocated, else NULL */
  kjit_dl_managed_tensor *producer;            /* imported (0.x), else NULL */
  kjit_dl_managed_tensor_versioned *producer_v; /* imported (1.x), else NULL */
} RtDlShared;

/* Frees the memory in its own context; never in another (the address
 * could be another allocation's there), and not at all once kjit's own
 * context, which freed it, is gone. */
static void free_device(RtDlDevice *d) {
  RtCuContext prev = NULL;
  if (!__atomic_load_n(&d->gone, __ATOMIC_ACQUIRE) && d->get_current(&prev) == RT_CU_SUCCESS &&
      d->set_current(d->ctx) == RT_CU_SUCCESS) {
    d->mem_free(d->ptr);
    d->set_current(prev);
  }
  if (d->primary)
    d->release(d->dev);
  free(d);
}

void rt_dlpack_context_gone(kjit_array *a) {
  if (a->shared && a->shared->device && a->shared->device->own)
    __atomic_store_n(&a->shared->device->gone, 1, __ATOMIC_RELEASE);
}

/* Drops one reference; the last frees the memory or calls the producer's
 * deleter (exactly once: only the last dropper gets here). */
static void shared_drop(RtDlShared *s) {
  if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0)
    return;
  if (s->producer && s->producer->deleter)
    s->producer->deleter(s->producer);
  if (s->producer_v && s->producer_v->deleter)
    s->producer_v->deleter(s->producer_v);
  if (s->device)
    free_device(s->device);
  rt_array_free(&s->mem);
  free(s);
}

void rt_dlpack_release(kjit_array *a) {
  RtDlShared *s = a->shared;
  a->shared = NULL;
  a->a.owns = false; /* the storage holds the memory */
  shared_drop(s);
}

/* a's storage record, made on first use: it takes over the memory the
 * array owns (host memory, or device memory kjit allocated on cu:
 * a device array not borrowed; a wrap of the caller's device memory owns
 * nothing). */
static RtDlShared *shared_of(kjit_array *a, RtCuda *cu) {
  if (a->shared)
    return a->shared;
  RtDlShared *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->refs = 1;
  s->dl_device = a->device ? KJIT_DL_CUDA : KJIT_DL_CPU;
  if (a->device && !a->borrowed) {
    RtDlDevice *d = calloc(1, sizeof *d);
    RtCuContext retained = NULL;
    bool primary = cu && cu->kind == RT_CTX_PRIMARY;
    if (!d || !cu || !cu->ctx ||
        (primary && cu->api.DevicePrimaryCtxRetain(&retained, cu->dev) != RT_CU_SUCCESS)) {
      free(d);
      free(s);
      return NULL;
    }
    *d = (RtDlDevice){(RtCuDeviceptr)(uintptr_t)a->a.data, cu->dev, cu->ctx, primary, cu->kind == RT_CTX_OWN,
                      0, cu->api.CtxGetCurrent, cu->api.CtxSetCurrent, cu->api.MemFree,
                      cu->api.DevicePrimaryCtxRelease};
    s->device = d;
  } else if (a->a.owns) {
    s->mem = a->a; /* data, map: freed by the storage now */
    s->mem.rec = NULL;
    a->a.owns = false;
    a->a.map = NULL;
  }
  a->shared = s;
  return s;
}

/* ------------------------------------------------------------ dtypes --- */

static const struct {
  uint8_t code, bits;
  RtDtype dtype;
} dtype_map[] = {
    {KJIT_DL_BOOL, 8, RT_BOOL},     {KJIT_DL_INT, 8, RT_I8},       {KJIT_DL_INT, 16, RT_I16},
    {KJIT_DL_INT, 32, RT_I32},      {KJIT_DL_INT, 64, RT_I64},     {KJIT_DL_UINT, 8, RT_U8},
    {KJIT_DL_UINT, 16, RT_U16},     {KJIT_DL_UINT, 32, RT_U32},    {KJIT_DL_UINT, 64, RT_U64},
    {KJIT_DL_FLOAT, 16, RT_F16},    {KJIT_DL_FLOAT, 32, RT_F32},   {KJIT_DL_FLOAT, 64, RT_F64},
    {KJIT_DL_COMPLEX, 64, RT_C64},  {KJIT_DL_COMPLEX, 128, RT_C128},
};
#define NMAP (sizeof dtype_map / sizeof dtype_map[0])

static const char *code_name(int code) {
  static const char *const names[] = {"kDLInt", "kDLUInt", "kDLFloat", "kDLOpaqueHandle",
                                      "kDLBfloat", "kDLComplex", "kDLBool"};
  return code >= 0 && code < 7 ? names[code] : "an unknown type code";
}

static const char *device_name(int32_t t) {
  switch (t) {
  case KJIT_DL_CPU: return "kDLCPU";
  case KJIT_DL_CUDA: return "kDLCUDA";
  case KJIT_DL_CUDA_HOST: return "kDLCUDAHost";
  case 4: return "kDLOpenCL";
  case 7: return "kDLVulkan";
  case 8: return "kDLMetal";
  case 9: return "kDLVPI";
  case 10: return "kDLROCM";
  case 11: return "kDLROCMHost";
  case 12: return "kDLExtDev";
  case KJIT_DL_CUDA_MANAGED: return "kDLCUDAManaged";
  case 14: return "kDLOneAPI";
  case 15: return "kDLWebGPU";
  case 16: return "kDLHexagon";
  default: return "an unknown device type";
  }
}

/* ------------------------------------------------------------ import --- */

/* What an import checked and will make. */
typedef struct DlImport {
  const char *fn;                  /* the public call, for messages */
  RtDtype dtype;
  int ndim;
  int64_t shape[RT_MAX_NDIM];
  int64_t strides[RT_MAX_NDIM];    /* bytes, unless c_order */
  bool c_order;                    /* the tensor's strides are NULL */
  char *data;                      /* data + byte_offset */
  int32_t dl_device;
  bool device;                     /* a device array (kDLCUDA, or managed on cuda) */
  bool readonly;
} DlImport;

static kjit_status bad(RtCall *call, kjit_status st, const char *hint, const char *fn,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* "<fn>: argument 'tensor': <what>" on the call, and its status. */
static kjit_status bad(RtCall *call, kjit_status st, const char *hint, const char *fn,
                       const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(&call->diags, st == KJIT_ERROR_NO_DEVICE ? RT_E_CUDA_NO_DEVICE : RT_E_ARGUMENT,
             (SrcLoc){0}, hint, "%s: argument 'tensor': %s", fn, msg);
  return rt_finish(call, st);
}

static kjit_status check_dtype(RtCall *call, DlImport *im, kjit_dl_dtype dt) {
  if (dt.lanes != 1)
    return bad(call, KJIT_ERROR_INVALID_ARGUMENT, "kjit arrays hold scalars: view the data with lanes 1",
               im->fn, "dl_tensor.dtype has %u lanes (%s, %u bits); kjit takes 1", dt.lanes,
               code_name(dt.code), dt.bits);
  for (size_t i = 0; i < NMAP; i++)
    if (dtype_map[i].code == dt.code && dtype_map[i].bits == dt.bits) {
      im->dtype = dtype_map[i].dtype;
      return KJIT_OK;
    }
  if (dt.code == KJIT_DL_BFLOAT)
    return bad(call, KJIT_ERROR_INVALID_ARGUMENT,
               "convert the tensor to float32 (or float16) before passing it to kjit", im->fn,
               "dl_tensor.dtype is bfloat16 (kDLBfloat, %u bits): kjit arrays have no bfloat16 "
               "dtype (neither have Numba's)", dt.bits);
  return bad(call, KJIT_ERROR_INVALID_ARGUMENT,
             "kjit takes kDLInt/kDLUInt 8-64, kDLFloat 16/32/64, kDLComplex 64/128 and kDLBool 8",
             im->fn, "dl_tensor.dtype (%s, code %u, %u bits) is not a kjit dtype", code_name(dt.code),
             dt.code, dt.bits);
}

static kjit_status check_shape(RtCall *call, DlImport *im, const kjit_dl_tensor *t) {
  if (t->ndim < 0 || t->ndim > KJIT_MAX_NDIM)
    return bad(call, KJIT_ERROR_INVALID_ARGUMENT, NULL, im->fn,
               "dl_tensor.ndim is %d; kjit arrays have 0 to %d dimensions", (int)t->ndim,
               KJIT_MAX_NDIM);
  if (t->ndim > 0 && !t->shape)
    return bad(call, KJIT_ERROR_INVALID_ARGUMENT, NULL, im->fn,
               "dl_tensor.shape is NULL for a %d-dimensional tensor", (int)t->ndim);
  im->ndim = t->ndim;
  int64_t item = (int64_t)rt_dtype_size(im->dtype);
  for (int i = 0; i < t->ndim; i++) {
    if (t->shape[i] < 0)
      return bad(call, KJIT_ERROR_INVALID_ARGUMENT, NULL, im->fn,
                 "dl_tensor.shape[%d] is negative (%lld)", i, (long long)t->shape[i]);
    im->shape[i] = t->shape[i];
    if (t->strides && __builtin_mul_overflow(t->strides[i], item, &im->strides[i]))
      return bad(call, KJIT_ERROR_INVALID_ARGUMENT, NULL, im->fn,
                 "dl_tensor.strides[%d] (%lld elements) overflows in bytes", i,
                 (long long)t->strides[i]);
  }
  im->c_order = !t->strides; /* the wrap computes C strides, checking the size */
  im->data = t->byte_offset ? (char *)t->data + t->byte_offset : t->data;
  return KJIT_OK;
}

/* Where the tensor's memory goes: a host or a device array of ctx. */
static kjit_status check_device(RtCall *call, DlImport *im, kjit_dl_device dev, kjit_target target,
                                int ordinal) {
  im->dl_device = dev.device_type;
  switch (dev.device_type) {
  case KJIT_DL_CPU:
  case KJIT_DL_CUDA_HOST:
    return KJIT_OK;
  case KJIT_DL_CUDA_MANAGED:
  case KJIT_DL_CUDA:
    if (target != KJIT_TARGET_CUDA) {
      if (dev.device_type == KJIT_DL_CUDA_MANAGED)
        return KJIT_OK; /* the host reads and writes managed memory */
      return bad(call, KJIT_ERROR_NO_DEVICE,
                 "create the context with KJIT_TARGET_CUDA (or AUTO) on a machine with a GPU, or "
                 "copy the tensor to host memory first", im->fn,
                 "dl_tensor.device is kDLCUDA (device %d): device memory needs the cuda target; "
                 "this context runs on the cpu (KJIT_TARGET_CPU, or no usable GPU)",
                 (int)dev.device_id);
    }
    if (dev.device_id != ordinal)
      return bad(call, KJIT_ERROR_INVALID_ARGUMENT,
                 "use a context created with options.device set to the tensor's device", im->fn,
                 "dl_tensor.device is %s device %d, but this context's device is %d",
                 device_name(dev.device_type), (int)dev.device_id, ordinal);
    im->device = true;
    return KJIT_OK;
  default:
    return bad(call, KJIT_ERROR_INVALID_ARGUMENT,
               "kjit takes kDLCPU, kDLCUDA, kDLCUDAHost and kDLCUDAManaged tensors", im->fn,
               "dl_tensor.device.device_type is %s (%d)", device_name(dev.device_type),
               (int)dev.device_type);
  }
}

/* Checks t (and the versioned header, vt) and fills im; KJIT_OK or the
 * failed call's status. */
static kjit_status check_tensor(kjit_context *ctx, DlImport *im, const kjit_dl_tensor *t,
                                const kjit_dl_managed_tensor_versioned *vt) {
  bool cuda_memory = t && (t->device.device_type == KJIT_DL_CUDA ||
                           t->device.device_type == KJIT_DL_CUDA_MANAGED);
  kjit_target target = KJIT_TARGET_CPU;
  int ordinal = 0;
  if (cuda_memory && (kjit_context_target(ctx, &target) != KJIT_OK ||
                      kjit_context_device(ctx, &ordinal) != KJIT_OK))
    target = KJIT_TARGET_CPU; /* no usable GPU: refused below by device type */
  RtCall call;
  rt_begin(&call, ctx);
  if (!t)
    return bad(&call, KJIT_ERROR_INVALID_ARGUMENT, NULL, im->fn, "the tensor is NULL");
  if (vt && vt->version.major != KJIT_DL_MAJOR_VERSION)
    return bad(&call, KJIT_ERROR_INVALID_ARGUMENT,
               "kjit reads DLPack 1.x tensors; ask the producer for version 1", im->fn,
               "version.major is %u; kjit knows DLPack major version %d", vt->version.major,
               KJIT_DL_MAJOR_VERSION);
  im->readonly = vt && (vt->flags & KJIT_DL_FLAG_READ_ONLY);
  kjit_status st = check_dtype(&call, im, t->dtype);
  if (st == KJIT_OK)
    st = check_shape(&call, im, t);
  if (st == KJIT_OK)
    st = check_device(&call, im, t->device, target, ordinal);
  return st == KJIT_OK ? rt_finish(&call, KJIT_OK) : st;
}

/* Checks, wraps and attaches the producer (one of mt, vt) to the new array. */
static kjit_status import(kjit_context *ctx, const char *fn, kjit_dl_managed_tensor *mt,
                          kjit_dl_managed_tensor_versioned *vt, kjit_array **out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  DlImport im = {.fn = fn};
  const kjit_dl_tensor *t = mt ? &mt->dl_tensor : vt ? &vt->dl_tensor : NULL;
  kjit_status st = check_tensor(ctx, &im, t, vt);
  if (st != KJIT_OK)
    return st;
  kjit_array *a = NULL;
  const int64_t *strides = im.c_order ? NULL : im.strides;
  st = im.device ? kjit_array_wrap_device(ctx, (kjit_dtype)im.dtype, im.ndim, im.shape, strides,
                                          (uint64_t)(uintptr_t)im.data, &a)
                 : kjit_array_wrap(ctx, (kjit_dtype)im.dtype, im.ndim, im.shape, strides, im.data, &a);
  if (st != KJIT_OK)
    return st;
  RtDlShared *s = calloc(1, sizeof *s);
  if (!s) {
    kjit_array_destroy(a);
    return KJIT_ERROR_OUT_OF_MEMORY;
  }
  rt_lock(ctx);
  *s = (RtDlShared){.refs = 1, .dl_device = im.dl_device, .producer = mt, .producer_v = vt};
  a->shared = s;
  a->a.readonly = im.readonly;
  rt_unlock(ctx);
  *out = a;
  return KJIT_OK;
}

kjit_status kjit_array_from_dlpack(kjit_context *ctx, kjit_dl_managed_tensor *tensor,
                                   kjit_array **out) {
  return import(ctx, "kjit_array_from_dlpack", tensor, NULL, out);
}

kjit_status kjit_array_from_dlpack_versioned(kjit_context *ctx,
                                             kjit_dl_managed_tensor_versioned *tensor,
                                             kjit_array **out) {
  return import(ctx, "kjit_array_from_dlpack_versioned", NULL, tensor, out);
}

/* ------------------------------------------------------------ export --- */

/* An export's single allocation: the tensor the consumer sees, the shape
 * and strides it points at, and the reference it holds. */
typedef struct DlExport {
  union {
    kjit_dl_managed_tensor m;
    kjit_dl_managed_tensor_versioned v;
  } t;
  int64_t shape[RT_MAX_NDIM];
  int64_t strides[RT_MAX_NDIM];    /* elements */
  RtDlShared *shared;
} DlExport;

static void drop_export(void *manager_ctx) {
  DlExport *e = manager_ctx;
  if (!e)
    return;
  RtDlShared *s = e->shared;
  free(e);
  shared_drop(s);
}

static void delete_export(kjit_dl_managed_tensor *self) {
  if (self)
    drop_export(self->manager_ctx);
}

static void delete_export_versioned(kjit_dl_managed_tensor_versioned *self) {
  if (self)
    drop_export(self->manager_ctx);
}

/* Fills dl (and e's shape and strides) from a; false with the reason. */
static const char *describe(const kjit_array *a, RtCuda *cu, DlExport *e, kjit_dl_tensor *dl) {
  if (a->a.dtype == RT_RECORD)
    return "record arrays have no DLPack dtype";
  if (a->device && (!cu || a->epoch != cu->resets))
    return "array was allocated before a device fault and is no longer valid";
  int64_t item = (int64_t)rt_dtype_size(a->a.dtype);
  for (size_t i = 0; i < NMAP; i++)
    if (dtype_map[i].dtype == a->a.dtype)
      dl->dtype = (kjit_dl_dtype){dtype_map[i].code, dtype_map[i].bits, 1};
  for (int i = 0; i < a->a.ndim; i++) {
    if (a->a.strides[i] % item)
      return "its byte strides are not a multiple of the item size (DLPack counts strides in "
             "elements)";
    e->shape[i] = a->a.shape[i];
    e->strides[i] = a->a.strides[i] / item;
  }
  dl->data = a->a.data;
  dl->ndim = a->a.ndim;
  dl->shape = e->shape;
  dl->strides = e->strides;
  dl->byte_offset = 0;
  dl->device.device_type = a->shared ? a->shared->dl_device : a->device ? KJIT_DL_CUDA : KJIT_DL_CPU;
  dl->device.device_id = a->device && cu ? cu->info.ordinal : 0;
  return NULL;
}

/* A new export of a (versioned or not) in *out; KJIT_OK or the error. */
static kjit_status export(kjit_array *a, bool versioned, void **out) {
  kjit_context *ctx = rt_array_is_live(a) ? a->ctx : NULL;
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  const char *fn = versioned ? "kjit_array_to_dlpack_versioned" : "kjit_array_to_dlpack";
  DlExport *e = calloc(1, sizeof *e);
  if (!e)
    return rt_finish(&call, KJIT_ERROR_OUT_OF_MEMORY);
  kjit_dl_tensor *dl = versioned ? &e->t.v.dl_tensor : &e->t.m.dl_tensor;
  const char *why = describe(a, ctx->cuda, e, dl);
  RtDlShared *s = why ? NULL : shared_of(a, ctx->cuda);
  if (!s) {
    free(e);
    diag_error(&call.diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL, "%s: argument 'a': %s", fn,
               why ? why : "the device's context could not be retained");
    return rt_finish(&call, why ? KJIT_ERROR_INVALID_ARGUMENT : KJIT_ERROR_NO_DEVICE);
  }
  __atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
  e->shared = s;
  if (versioned) {
    e->t.v.version = (kjit_dl_version){KJIT_DL_MAJOR_VERSION, KJIT_DL_MINOR_VERSION};
    e->t.v.manager_ctx = e;
    e->t.v.deleter = delete_export_versioned;
    e->t.v.flags = a->a.readonly ? KJIT_DL_FLAG_READ_ONLY : 0;
  } else {
    e->t.m.manager_ctx = e;
    e->t.m.deleter = delete_export;
  }
  *out = e; /* the tensor is the allocation's first member */
  return rt_finish(&call, KJIT_OK);
}

kjit_status kjit_array_to_dlpack(kjit_array *a, kjit_dl_managed_tensor **out) {
  return export(a, false, (void **)out);
}

kjit_status kjit_array_to_dlpack_versioned(kjit_array *a, kjit_dl_managed_tensor_versioned **out) {
  return export(a, true, (void **)out);
}

/* --------------------------------------------------- read-only arrays --- */

kjit_status kjit_array_set_readonly(kjit_array *a, int readonly) {
  kjit_context *ctx = rt_array_is_live(a) ? a->ctx : NULL;
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  const kjit_dl_managed_tensor_versioned *vt = a->shared ? a->shared->producer_v : NULL;
  if (!readonly && vt && (vt->flags & KJIT_DL_FLAG_READ_ONLY)) {
    diag_error(&call.diags, RT_E_ARGUMENT, (SrcLoc){0},
               "copy it into a writable array (kjit_array_create, kjit_array_copy)",
               "kjit_array_set_readonly: argument 'a' was imported from a read-only DLPack tensor; "
               "its producer does not allow writes");
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  }
  a->a.readonly = readonly != 0;
  return rt_finish(&call, KJIT_OK);
}

int kjit_array_is_readonly(const kjit_array *a) {
  return rt_array_is_live(a) ? a->a.readonly : -1;
}

