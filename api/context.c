/* context.c - kjit_context's life: options, creation, destruction (which
 * releases what every target and the cache hold), and the small
 * context-free helpers of kjit.h.  The context's core (the lock, the last
 * error, the codegen session) is runtime/context.c. */
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "cache/cache.h"
#include "cuda/cuda.h"

/* ------------------------------------------------------ small helpers --- */

const char *kjit_status_name(kjit_status status) {
  switch (status) {
  case KJIT_OK: return "KJIT_OK";
  case KJIT_ERROR_INVALID_ARGUMENT: return "KJIT_ERROR_INVALID_ARGUMENT";
  case KJIT_ERROR_IO: return "KJIT_ERROR_IO";
  case KJIT_ERROR_SYNTAX: return "KJIT_ERROR_SYNTAX";
  case KJIT_ERROR_TYPE: return "KJIT_ERROR_TYPE";
  case KJIT_ERROR_NOT_FOUND: return "KJIT_ERROR_NOT_FOUND";
  case KJIT_ERROR_CODEGEN: return "KJIT_ERROR_CODEGEN";
  case KJIT_ERROR_NO_DEVICE: return "KJIT_ERROR_NO_DEVICE";
  case KJIT_ERROR_INTERNAL: return "KJIT_ERROR_INTERNAL";
  case KJIT_ERROR_OUT_OF_MEMORY: return "KJIT_ERROR_OUT_OF_MEMORY";
  case KJIT_ERROR_KERNEL_FAULT: return "KJIT_ERROR_KERNEL_FAULT";
  }
  return "KJIT_ERROR_UNKNOWN";
}

const char *kjit_version(void) {
#ifdef KJIT_VERSION
  return KJIT_VERSION;
#else
  return "0.0.0";
#endif
}

void kjit_free(void *p) { free(p); }

static bool is_all_null(void *const *p, int n) {
  for (int i = 0; i < n; i++)
    if (p[i])
      return false;
  return true;
}

/* ---------------------------------------------------------- lifecycle --- */

void kjit_context_options_init(kjit_context_options *opts) {
  if (!opts)
    return;
  memset(opts, 0, sizeof *opts);
  opts->device = KJIT_DEVICE_DEFAULT;
}

kjit_status kjit_context_create(const kjit_context_options *opts,
                                kjit_context **out) {
  if (!out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  kjit_context_options o;
  kjit_context_options_init(&o);
  if (opts)
    o = *opts;
  bool foreign = o.cuda_context || o.cuda_context_mode == KJIT_CUDA_CONTEXT_CURRENT;
  if (o.max_errors < 0 || !is_all_null(o.reserved, 4) || (o.debug != 0 && o.debug != 1) ||
      (o.lineinfo != 0 && o.lineinfo != 1) || o.reserved32 != 0 ||
      o.device < KJIT_DEVICE_DEFAULT ||
      o.cuda_context_mode < KJIT_CUDA_CONTEXT_PRIMARY || o.cuda_context_mode > KJIT_CUDA_CONTEXT_OWN ||
      (o.cuda_context && o.cuda_context_mode != KJIT_CUDA_CONTEXT_PRIMARY) ||
      (o.fault_policy != KJIT_FAULT_REPORT && o.fault_policy != KJIT_FAULT_RESET) ||
      (foreign && o.fault_policy == KJIT_FAULT_RESET) ||
      (foreign && o.target == KJIT_TARGET_CPU) ||
      (o.target != KJIT_TARGET_AUTO && o.target != KJIT_TARGET_CPU &&
       o.target != KJIT_TARGET_CUDA))
    return KJIT_ERROR_INVALID_ARGUMENT;
  kjit_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx)
    return KJIT_ERROR_OUT_OF_MEMORY;
  pthread_mutexattr_t attr;
  if (pthread_mutexattr_init(&attr) != 0 ||
      pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE) != 0 ||
      pthread_mutex_init(&ctx->lock, &attr) != 0) {
    free(ctx);
    return KJIT_ERROR_OUT_OF_MEMORY;
  }
  pthread_mutexattr_destroy(&attr);
  ctx->opts = o;
  rt_init_error_slots(ctx);
  *out = ctx;
  return KJIT_OK;
}

void kjit_context_destroy(kjit_context *ctx) {
  if (!ctx)
    return;
  while (ctx->programs)
    kjit_program_destroy(ctx->programs); /* unlinks itself */
  rt_quarantine_program(ctx, NULL, true); /* destroyed programs, for good */
  rt_api_release(ctx);                   /* device arrays need the device */
  rt_api_streams_release(ctx);
  rt_cuda_release(ctx);                  /* after the programs' modules */
  rt_free_error_slots(ctx);
  if (ctx->cg)
    cg_session_free(ctx->cg);
  rt_cache_close(ctx->cache); /* disk cache (cache/cache.h) */
  free(ctx->search_path);
  pthread_mutex_destroy(&ctx->lock);
  free(ctx);
}

kjit_status kjit_context_set_search_path(kjit_context *ctx, const char *dirs) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  char *copy = dirs && *dirs ? strdup(dirs) : NULL;
  if (dirs && *dirs && !copy)
    return KJIT_ERROR_OUT_OF_MEMORY;
  rt_lock(ctx);
  free(ctx->search_path);
  ctx->search_path = copy;
  rt_unlock(ctx);
  return KJIT_OK;
}
