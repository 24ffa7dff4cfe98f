/* globals.c - kjit_program_set_global: the host binds a module global whose
 * value it computes (ir/host_global.c says how kernels read it).
 *
 * A NumPy array global (`A = np.random.rand(16)`) is frozen: its elements
 * are copied now, packed in C order, into the program's arena, and kernels
 * compiled later see a read-only constant array, as Numba freezes a global
 * NumPy array when it compiles.  A device array global (`D =
 * cuda.device_array(...)`) is captured by reference: its address is
 * embedded, so kernels write the caller's array.  On the cuda target a host
 * array given for it is first copied into a device array that the program
 * owns (freed with the program). */
#include <stdio.h>
#include <string.h>

#include "runtime/api.h"
#include "api/api_internal.h"
#include "host/launch.h"
#include "runtime/runtime.h"

static kjit_status bind_fail(RtCall *call, kjit_status st, const char *hint, const char *msg) {
  diag_error(&call->diags, RT_E_ARGUMENT, (SrcLoc){0}, hint, "%s", msg);
  return rt_finish(call, st);
}

/* Why the array cannot be bound to h, or NULL. */
static const char *array_problem(RtCall *call, const IrHostGlobal *h, const kjit_array *a) {
  if (!rt_array_is_live(a))
    return "the array was destroyed";
  if (a->ctx != call->ctx)
    return "the array belongs to another context";
  if (a->a.ndim < 1 || a->a.ndim > 4)
    return "a bound global has 1 to 4 dimensions";
  if (a->a.dtype == RT_F16 || a->a.dtype == RT_C64 || a->a.dtype == RT_C128)
    return "float16 and complex global arrays are not supported yet";
  if (!h->byref && a->device)
    return "a NumPy array global is frozen from a host array (copy the device array to a "
           "host array first)";
  return NULL;
}

/* Copies the elements of a host array in C order (any strides). */
static void pack_c_order(const RtArray *a, uint8_t *out) {
  size_t es = rt_dtype_size(a->dtype);
  int64_t idx[4] = {0}, n = 1;
  for (int k = 0; k < a->ndim; k++)
    n *= a->shape[k];
  for (int64_t i = 0; i < n; i++, out += es) {
    int64_t off = 0;
    for (int k = 0; k < a->ndim; k++)
      off += idx[k] * a->strides[k];
    memcpy(out, (const uint8_t *)a->data + off, es);
    for (int k = a->ndim - 1; k >= 0 && ++idx[k] == a->shape[k]; k--)
      idx[k] = 0;
  }
}

static void bind_shape(IrHostGlobal *h, const RtArray *a) {
  h->elem = rt_dtype_type(a->dtype);
  h->ndim = a->ndim;
  memset(h->shape, 0, sizeof h->shape);
  memset(h->strides, 0, sizeof h->strides);
  for (int k = 0; k < a->ndim; k++)
    h->shape[k] = a->shape[k], h->strides[k] = a->strides[k];
}

static kjit_status bind_const(RtCall *call, kjit_program *prog, IrHostGlobal *h,
                              const kjit_array *a) {
  int64_t n = 1;
  for (int k = 0; k < a->a.ndim; k++)
    n *= a->a.shape[k];
  size_t bytes = (size_t)n * rt_dtype_size(a->a.dtype);
  if (bytes > 65536)
    return bind_fail(call, KJIT_ERROR_INVALID_ARGUMENT,
                     "pass a large array to the kernel as an argument instead",
                     arena_printf(&call->arena,
                                  "global '%s': a frozen NumPy array lives in constant "
                                  "memory, at most 65536 bytes; this one has %zu",
                                  h->name, bytes));
  uint8_t *data = arena_alloc(&prog->arena, bytes ? bytes : 1);
  pack_c_order(&a->a, data);
  bind_shape(h, &a->a);
  h->data = data;
  h->bound = true;
  return rt_finish(call, KJIT_OK);
}

/* cuda target, host array for a device array global: a device copy the
 * program owns. */
static kjit_array *device_copy(RtCall *call, kjit_program *prog, kjit_array *a) {
  kjit_array *d = NULL;
  if (kjit_array_to_device(call->ctx, a, &d) != KJIT_OK) {
    diag_error(&call->diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL, "%s",
               arena_strdup(&call->arena, kjit_last_error(call->ctx)));
    return NULL;
  }
  vec_push(&prog->arena, &prog->bound_arrays, d);
  return d;
}

static kjit_status bind_ref(RtCall *call, kjit_program *prog, IrHostGlobal *h, kjit_array *a) {
  kjit_status st = rt_resolve_target(call);
  if (st != KJIT_OK)
    return rt_finish(call, st);
  bool gpu = call->ctx->api.target == KJIT_TARGET_CUDA;
  if (!gpu && a->device)
    return bind_fail(call, KJIT_ERROR_INVALID_ARGUMENT, NULL,
                     "device arrays need the cuda target");
  if (gpu && !a->device && !(a = device_copy(call, prog, a)))
    return rt_finish(call, rt_status_of(&call->diags));
  bind_shape(h, &a->a);
  h->addr = (uint64_t)(uintptr_t)a->a.data;
  h->data = NULL;
  h->bound = true;
  return rt_finish(call, KJIT_OK);
}

static bool is_constant(const kjit_program *prog, const char *name) {
  for (int i = 0; i < prog->ir.globals.len; i++)
    if (strcmp(prog->ir.globals.data[i].name, name) == 0)
      return true;
  return false;
}

static kjit_status unknown_global(RtCall *call, const kjit_program *prog, const char *name) {
  const char *msg = is_constant(prog, name)
                        ? "global '%s' is a compile-time constant in '%s'; kernels already "
                          "see its value"
                        : "'%s' is not a global of '%s' whose value the host computes";
  return bind_fail(call, KJIT_ERROR_NOT_FOUND,
                   "the host binds top-level names assigned from a call: A = np.random.rand(16)",
                   arena_printf(&call->arena, msg, name, prog->src.path));
}

kjit_status kjit_program_set_global(kjit_program *prog, const char *name, kjit_array *array) {
  if (!rt_program_live(prog) || !name || !array)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, prog->ctx);
  IrHostGlobal *h = ir_host_global_find(&prog->ir, name);
  if (!h)
    return unknown_global(&call, prog, name);
  const char *why = array_problem(&call, h, array);
  if (why)
    return bind_fail(&call, KJIT_ERROR_INVALID_ARGUMENT, NULL,
                     arena_printf(&call.arena, "global '%s': %s", name, why));
  return h->byref ? bind_ref(&call, prog, h, array) : bind_const(&call, prog, h, array);
}

void rt_globals_free(kjit_program *prog) {
  for (int i = 0; i < prog->bound_arrays.len; i++)
    kjit_array_destroy(prog->bound_arrays.data[i]);
  prog->bound_arrays.len = 0;
}
