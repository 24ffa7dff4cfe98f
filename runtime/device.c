/* device.c - the GPU a context is bound to: its option, else $KJIT_DEVICE,
 * else 0 (include/kjit.h, "devices").  Read by the compile driver (the
 * default architecture) and the CUDA target (which device to open). */
#include <errno.h>
#include <stdlib.h>

#include "common/settings.h"
#include "runtime/runtime.h"

/* $KJIT_DEVICE (common/settings.c) as an ordinal: -1 when unset or empty,
 * -2 when it is not a non-negative decimal number. */
static int env_ordinal(void) {
  const char *env = rt_setting(RT_SET_DEVICE);
  if (!env || !*env)
    return -1;
  char *end;
  errno = 0;
  long v = strtol(env, &end, 10);
  if (*env < '0' || *env > '9' || *end || errno || v > 1000000)
    return -2;
  return (int)v;
}

int rt_context_ordinal(const kjit_context *ctx) {
  if (ctx->opts.device >= 0)
    return ctx->opts.device;
  int v = env_ordinal();
  return v >= 0 ? v : 0;
}

bool rt_context_device(const kjit_context *ctx, int *ordinal, Diags *diags) {
  if (ctx->opts.device >= 0) {
    *ordinal = ctx->opts.device;
    return true;
  }
  int v = env_ordinal();
  if (v == -2) {
    diag_error(diags, RT_E_ARGUMENT, (SrcLoc){0}, "set KJIT_DEVICE to a device number from 0 "
               "(kjit info lists them), or unset it", "KJIT_DEVICE='%s' is not a device number",
               rt_setting(RT_SET_DEVICE));
    return false;
  }
  *ordinal = v >= 0 ? v : 0;
  return true;
}
