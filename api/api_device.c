/* api_device.c - which GPU a context is bound to, and the list of GPUs:
 * kjit_device_count, kjit_device_get_info, kjit_context_device.
 *
 * A context is bound to one device for its whole life (its option, else
 * $KJIT_DEVICE, else 0); several GPUs are used through one context each
 * (include/kjit.h, "devices").  The listing needs no context: it loads the
 * driver, asks, and unloads it, keeping no state. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda.h"
#include "runtime/runtime.h"

kjit_status kjit_context_device(kjit_context *ctx, int *ordinal) {
  if (!ctx || !ordinal)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  int v = 0;
  bool ok = rt_context_device(ctx, &v, &call.diags);
  if (ok)
    *ordinal = v;
  return rt_finish(&call, ok ? KJIT_OK : KJIT_ERROR_INVALID_ARGUMENT);
}

kjit_status kjit_device_count(int *count) {
  if (!count)
    return KJIT_ERROR_INVALID_ARGUMENT;
  *count = rt_cuda_device_count();
  return KJIT_OK;
}

kjit_status kjit_device_get_info(int ordinal, kjit_device_info *out) {
  if (!out || ordinal < 0)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCudaDeviceInfo d;
  if (!rt_cuda_query(ordinal, &d))
    return KJIT_ERROR_NO_DEVICE;
  memset(out, 0, sizeof *out);
  out->ordinal = ordinal;
  snprintf(out->name, sizeof out->name, "%s", d.name);
  out->cc_major = d.cc_major;
  out->cc_minor = d.cc_minor;
  out->total_memory = d.total_mem;
  out->multiprocessors = d.sm_count;
  out->max_threads_per_block = d.max_threads_per_block;
  out->max_shared_per_block = d.max_shared_per_block;
  out->max_shared_optin = d.max_shared_optin;
  out->memory_clock_khz = d.mem_clock_khz;
  out->memory_bus_width = d.bus_width;
  int64_t peak = rt_cuda_peak_bandwidth(&d, &out->peak_bandwidth_source);
  out->peak_bandwidth_mbs = peak > INT32_MAX ? INT32_MAX : (int)peak;
  return KJIT_OK;
}
