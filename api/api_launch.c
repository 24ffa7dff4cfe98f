/* api_launch.c - the public launch API: the context's target, kernel
 * handles, kjit_launch and its checks, timings.
 *
 * kjit_launch resolves a launch once into a plan (runtime/plan.h): the
 * geometry, the argument count, each argument's handle and type, the eager
 * signature Numba's dispatcher picks, each error naming the kernel and the
 * argument; then the context's target (host/ or cuda/) runs the plan:
 * specializes, compiles on a miss, loads, copies and runs.
 * Kernel handles live in their program's arena. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/settings.h"
#include "cuda/cuc.h"
#include "cuda/cuda.h"
#include "runtime/dispatch.h"
#include "host/host_exec.h"
#include "api/api_internal.h"
#include "host/launch.h"
#include "runtime/plan.h"
#include "runtime/runtime.h"

#define STACK_ARGS 16          /* arguments packed without allocating */

/* ------------------------------------------------------------ target --- */

/* Resolves ctx's target once.  CUDA opens the device (cuda/cuda.h) or
 * fails with the reason; AUTO becomes CUDA when a device opens, else CPU
 * with a note, unless the device number itself is wrong (a KJIT_DEVICE
 * that is no number, an ordinal past the machine's GPUs): asking for a
 * GPU that cannot exist is an error whatever the target. */
/* A context created with KJIT_TARGET_AUTO takes $KJIT_TARGET's choice
 * (common/settings.c); *chosen tells an explicit "auto" from none. */
static kjit_status env_target(RtCall *call, kjit_target *out, bool *chosen) {
  static const struct { const char *name; kjit_target t; } names[] = {
      {"auto", KJIT_TARGET_AUTO}, {"cpu", KJIT_TARGET_CPU}, {"cuda", KJIT_TARGET_CUDA}};
  const char *env = rt_setting(RT_SET_TARGET);
  *out = KJIT_TARGET_AUTO;
  *chosen = env != NULL;
  if (!env)
    return KJIT_OK;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(env, names[i].name) == 0)
      return *out = names[i].t, KJIT_OK;
  diag_error(&call->diags, RT_E_ARGUMENT, (SrcLoc){0}, "set KJIT_TARGET to auto, cpu or cuda, "
             "or unset it", "KJIT_TARGET='%s' is not a target", env);
  return KJIT_ERROR_INVALID_ARGUMENT;
}

kjit_status rt_resolve_target(RtCall *call) {
  kjit_context *ctx = call->ctx;
  if (ctx->api.target != KJIT_TARGET_AUTO)
    return KJIT_OK;
  kjit_target want = ctx->opts.target;
  bool explicit_auto = false;
  if (want == KJIT_TARGET_AUTO) {
    kjit_status st = env_target(call, &want, &explicit_auto);
    if (st != KJIT_OK)
      return st;
  }
  switch (want) {
  case KJIT_TARGET_CUDA:
    if (!rt_cuda_available(ctx, &call->diags))
      return KJIT_ERROR_NO_DEVICE;
    ctx->api.target = KJIT_TARGET_CUDA;
    return KJIT_OK;
  case KJIT_TARGET_AUTO: {
    Diags probe;                       /* why there is no GPU: not an error */
    diags_init(&probe, &call->arena);
    if (rt_cuda_available(ctx, &probe)) {
      ctx->api.target = KJIT_TARGET_CUDA;
      return KJIT_OK;
    }
    const Diag *why = probe.list.len ? &probe.list.data[0] : NULL;
    if (why && (why->code == RT_E_CUDA_BAD_DEVICE || why->code == RT_E_ARGUMENT)) {
      diag_error(&call->diags, why->code, why->loc, why->hint, "%s", why->msg);
      return rt_status_of(&call->diags);
    }
    if (!explicit_auto)                /* KJIT_TARGET=auto: the caller knows */
      diag_add(&call->diags, DL_NOTE, RT_E_ARGUMENT, (SrcLoc){0}, NULL,
               "no CUDA device; running on the cpu target (%s)",
               probe.list.len ? probe.list.data[0].msg : "none found");
  }
    /* fall through */
  default:
    ctx->api.target = KJIT_TARGET_CPU;
    return KJIT_OK;
  }
}

kjit_status kjit_context_target(kjit_context *ctx, kjit_target *out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  kjit_status st = rt_resolve_target(&call);
  if (st == KJIT_OK)
    *out = ctx->api.target;
  return rt_finish(&call, st);
}

kjit_status kjit_last_timing(const kjit_context *ctx, double *compile_ms,
                             double *copy_ms, double *run_ms) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  rt_lock(ctx);
  if (compile_ms) *compile_ms = ctx->api.compile_ms;
  if (copy_ms) *copy_ms = ctx->api.copy_ms;
  if (run_ms) *run_ms = ctx->api.run_ms;
  rt_unlock(ctx);
  return KJIT_OK;
}

kjit_status kjit_last_resources(const kjit_context *ctx, kjit_resources *out) {
  if (!ctx || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  rt_lock(ctx);
  bool has = ctx->api.has_resources;
  if (has)
    *out = ctx->api.resources;
  rt_unlock(ctx);
  return has ? KJIT_OK : KJIT_ERROR_NOT_FOUND;
}

/* ----------------------------------------------------------- kernels --- */

static int find_kernel_index(kjit_program *prog, const char *name, Diags *d) {
  for (int i = 0; i < prog->kernels.len; i++)
    if (strcmp(prog->kernels.data[i]->name, name) == 0)
      return i;
  return rt_factory_kernel(prog, name, d) ? prog->kernels.len - 1 : -1; /* "make_k(2)" */
}

static kjit_kernel *get_handle(kjit_program *prog, int i) {
  if (!prog->kernel_handles)
    prog->kernel_handles = arena_alloc(&prog->arena, sizeof(kjit_kernel *) *
                                                         (size_t)prog->kernels.len);
  if (!prog->kernel_handles[i]) {
    kjit_kernel *k = arena_alloc(&prog->arena, sizeof *k);
    *k = (kjit_kernel){RT_KERNEL_MAGIC, prog, prog->kernels.data[i], NULL};
    prog->kernel_handles[i] = k;
  }
  return prog->kernel_handles[i];
}

/* A CUDA C kernel's handle, by name expression (cuda/cuc.c). */
static kjit_status cuc_handle(kjit_program *prog, const char *name, RtCall *call,
                              kjit_kernel **out) {
  CucKernel *c = rt_cuc_kernel(prog, name, &call->diags);
  if (!c)
    return rt_status_of(&call->diags);
  if (!c->handle) {
    c->handle = arena_alloc(&prog->arena, sizeof *c->handle);
    *c->handle = (kjit_kernel){RT_KERNEL_MAGIC, prog, c->fn, NULL};
  }
  *out = c->handle;
  return KJIT_OK;
}

kjit_status kjit_program_kernel(kjit_program *prog, const char *name, kjit_kernel **out) {
  if (!rt_program_live(prog) || !name || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, prog->ctx);
  if (prog->cuc)
    return rt_finish(&call, cuc_handle(prog, name, &call, out));
  int i = find_kernel_index(prog, name, &call.diags);
  if (i < 0 && call.diags.nerrors)
    return rt_finish(&call, rt_status_of(&call.diags));
  if (i < 0) {
    rt_report_unknown_kernel(prog, name, &call);
    return rt_finish(&call, KJIT_ERROR_NOT_FOUND);
  }
  *out = get_handle(prog, i);
  return rt_finish(&call, KJIT_OK);
}

/* A kernel handle whose program is live: a kernel of a destroyed program
 * (quarantined) is refused, not run on freed memory. */
static bool is_kernel(const kjit_kernel *k) {
  return k && k->magic == RT_KERNEL_MAGIC && rt_program_live(k->prog);
}

kjit_status kjit_kernel_name(const kjit_kernel *k, const char **name) {
  if (!is_kernel(k) || !name)
    return KJIT_ERROR_INVALID_ARGUMENT;
  *name = k->fn->name;
  return KJIT_OK;
}

kjit_status kjit_kernel_param_count(const kjit_kernel *k, int *count) {
  if (!is_kernel(k) || !count)
    return KJIT_ERROR_INVALID_ARGUMENT;
  *count = k->fn->nparams;
  return KJIT_OK;
}

kjit_status kjit_kernel_param_name(const kjit_kernel *k, int i, const char **name) {
  if (!is_kernel(k) || !name)
    return KJIT_ERROR_INVALID_ARGUMENT;
  if (i < 0 || i >= k->fn->nparams)
    return KJIT_ERROR_NOT_FOUND;
  *name = k->fn->locals.data[i].name;
  return KJIT_OK;
}

/* ------------------------------------------------------------ checks --- */

void kjit_launch_config_init(kjit_launch_config *cfg) {
  if (!cfg)
    return;
  memset(cfg, 0, sizeof *cfg);
  for (int d = 0; d < 3; d++)
    cfg->grid[d] = cfg->block[d] = 1;
  cfg->repeat = 1;
}

/* One launch being resolved: the kernel, the call, where messages go, and
 * the plan it becomes (runtime/plan.h). */
typedef struct Launch {
  kjit_kernel *k;
  RtCall *call;            /* the API call it belongs to (its lock held) */
  const kjit_arg *args;
  int nargs;
  RtValue *vals;           /* nargs values handed to the target */
  uint8_t origin[RT_CUDA_MAX_ARGS]; /* RtMemOrigin of vals[i] */
  RtPlan plan;
} Launch;

static const char *kernel_name(const Launch *l) { return l->k->fn->name; }
/* "kernel", or "function" for kjit_call's device functions */
static const char *what(const Launch *l) { return l->k->fn->is_kernel ? "kernel" : "function"; }
static const char *param_name(const Launch *l, int i) { return l->k->fn->locals.data[i].name; }

static bool fail_launch(Launch *l, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "kernel 'add': <message>" (or "function 'f': ...") */
static bool fail_launch(Launch *l, const char *hint, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(&l->call->diags, RT_E_ARGUMENT, (SrcLoc){0}, hint, "%s '%s': %s", what(l),
             kernel_name(l), msg);
  return false;
}

/* Moves one argument into l->vals[i] (arrays shallow: the runner uses the
 * caller's memory). */
static bool take_arg(Launch *l, int i) {
  const kjit_arg *a = &l->args[i];
  RtValue *v = &l->vals[i];
  memset(v, 0, sizeof *v);
  switch (a->kind) {
  case KJIT_ARG_ARRAY:
    if (!a->value.array)
      return fail_launch(l, NULL, "argument %d ('%s'): the array is NULL", i + 1, param_name(l, i));
    if (a->value.array->magic == RT_ARRAY_DEAD)
      return fail_launch(l, NULL, "argument %d ('%s'): array was destroyed", i + 1, param_name(l, i));
    if (!rt_array_is_live(a->value.array))
      return fail_launch(l, NULL, "argument %d ('%s'): not a kjit_array", i + 1, param_name(l, i));
    if (a->value.array->ctx != l->call->ctx)
      return fail_launch(l, NULL, "argument %d ('%s'): the array belongs to another context",
                         i + 1, param_name(l, i));
    if (a->value.array->device) {
      RtCuda *cu = l->call->ctx->cuda;
      if (!cu || a->value.array->epoch != cu->resets)
        return fail_launch(l, "destroy it and allocate a new one",
                           "argument %d ('%s'): array was allocated before a device fault and "
                           "is no longer valid", i + 1, param_name(l, i));
      if (i >= RT_CUDA_MAX_ARGS)
        return fail_launch(l, NULL, "argument %d ('%s'): the cuda target takes at most %d "
                           "arguments", i + 1, param_name(l, i), RT_CUDA_MAX_ARGS);
      l->origin[i] = RT_MEM_DEVICE;
      l->plan.any_device = true;
    }
    if (a->value.array->a.ndim == 0 && a->value.array->a.dtype != RT_RECORD) /* a 0-d record
                                                 array is one record, passed by reference */
      return fail_launch(l, "pass a scalar, or an array of shape (1,)",
                         "argument %d ('%s'): 0-dimensional arrays cannot be kernel arguments",
                         i + 1, param_name(l, i));
    v->is_array = true;
    v->array = a->value.array->a;
    v->array.owns = false;
    return true;
  case KJIT_ARG_INT64:
    v->scalar.dtype = RT_I64;
    v->scalar.v.i64 = a->value.i64;
    return true;
  case KJIT_ARG_FLOAT64:
    v->scalar.dtype = RT_F64;
    v->scalar.v.f64 = a->value.f64;
    return true;
  case KJIT_ARG_SCALAR:
    if ((int)a->dtype < 0 || (int)a->dtype >= RT_NDTYPES)
      return fail_launch(l, NULL, "argument %d ('%s'): invalid scalar dtype %d", i + 1,
                         param_name(l, i), (int)a->dtype);
    v->scalar.dtype = rt_dtype_of(a->dtype);
    memcpy(v->scalar.v.bytes, a->value.bits, rt_dtype_size(v->scalar.dtype));
    return true;
  case KJIT_ARG_POINTER:
    if ((int)a->dtype < 0 || (int)a->dtype >= RT_NDTYPES || rt_dtype_of(a->dtype) == RT_RECORD)
      return fail_launch(l, "give the pointee's dtype: kjit_arg_pointer(KJIT_FLOAT32, p)",
                         "argument %d ('%s'): invalid pointer dtype %d", i + 1, param_name(l, i),
                         (int)a->dtype);
    v->is_ptr = true;
    v->ptr_dtype = rt_dtype_of(a->dtype);
    v->scalar.dtype = RT_U64;
    v->scalar.v.u64 = (uint64_t)(uintptr_t)a->value.ptr;
    return true;
  case KJIT_ARG_TUPLE: {
    const char *why = rt_tuple_take(l->call->ctx, &l->call->arena, a, v, 1);
    if (!why)
      why = rt_tuple_resolve(&l->k->prog->ir, &l->call->arena, v);
    return !why || fail_launch(l, NULL, "argument %d ('%s'): %s", i + 1, param_name(l, i), why);
  }
  }
  return fail_launch(l, NULL, "argument %d ('%s'): invalid kjit_arg kind %d", i + 1,
                     param_name(l, i), (int)a->kind);
}

/* ------------------------------------------------------------ launch --- */

/* The plan of a launch with this configuration (nothing checked yet). */
static void start_plan(Launch *l, const kjit_launch_config *cfg) {
  rt_plan_init(&l->plan, l->k->prog, l->k->fn, l->vals, l->nargs, cfg->grid, cfg->block,
               cfg->shared_bytes);
  l->plan.origin = l->origin;
  l->plan.repeat = cfg->repeat > 1 ? cfg->repeat : 1;
  l->plan.use_graph = cfg->use_graph != 0;
  l->plan.kernel = l->k;
  l->plan.raw_args = l->args;
}

/* Resolves the launch into l->plan: every check happens here, once. */
static kjit_status check_launch(Launch *l, const kjit_launch_config *cfg) {
  if (!cfg) {
    fail_launch(l, NULL, "the launch configuration is NULL");
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  if (l->nargs > 0 && !l->args) {
    fail_launch(l, NULL, "args is NULL but nargs is %d", l->nargs);
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  start_plan(l, cfg);
  if (!rt_plan_check_count(&l->plan, &l->call->diags) ||
      !rt_plan_check_geometry(&l->plan, &l->call->diags))
    return KJIT_ERROR_INVALID_ARGUMENT;
  const char *gone = rt_api_stream_problem(l->call->ctx, cfg->stream);
  if (gone) {
    fail_launch(l, "create a new one (kjit_stream_create)", "kjit_launch_config.stream: %s", gone);
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  l->plan.stream = cfg->stream;                 /* checked by the cuda target */
  for (int i = 0; i < l->nargs; i++)
    if (!take_arg(l, i))
      return KJIT_ERROR_INVALID_ARGUMENT;
  if (!rt_plan_pick_signature(&l->plan, &l->call->diags))
    return KJIT_ERROR_TYPE;
  const CucKernel *cuc = rt_cuc_kernel_of(l->k->prog, l->k->fn); /* CUDA C */
  if (cuc && !rt_cuc_check_args(cuc, l->vals, l->nargs, &l->call->diags))
    return KJIT_ERROR_TYPE;
  kjit_status st = rt_resolve_target(l->call);
  if (st == KJIT_OK && l->plan.any_device && l->call->ctx->api.target != KJIT_TARGET_CUDA) {
    fail_launch(l, NULL, "device arrays need the cuda target");
    st = KJIT_ERROR_INVALID_ARGUMENT;
  }
  if (st == KJIT_OK && cuc && l->call->ctx->api.target != KJIT_TARGET_CUDA) {
    diag_error(&l->call->diags, RT_E_CUC_TARGET, (SrcLoc){0},
               "CUDA C runs on a GPU only (NVRTC compiles it for the device); "
               "write the kernel in Python to run it on the cpu target",
               "kernel '%s': the cpu target cannot run CUDA C kernels", kernel_name(l));
    st = KJIT_ERROR_INVALID_ARGUMENT;
  }
  return st;
}

/* The context's resolved target (rt_resolve_target ran). */
static const RtTarget *target_of(const kjit_context *ctx) {
  return ctx->api.target == KJIT_TARGET_CUDA ? &rt_cuda_target : &rt_host_target;
}

static kjit_status failed(RtCall *call) {
  return call->diags.nerrors ? rt_status_of(&call->diags) : KJIT_ERROR_INTERNAL;
}

static kjit_status run_launch(Launch *l) {
  kjit_context *ctx = l->call->ctx;
  RtLaunchTiming t;
  if (!target_of(ctx)->run(&l->plan, &l->call->diags, &t))
    return failed(l->call);
  ctx->api.compile_ms = t.compile_ms;
  ctx->api.copy_ms = t.copy_ms;
  ctx->api.run_ms = t.run_ms;
  ctx->api.has_resources = t.has_resources;
  if (t.has_resources)
    ctx->api.resources = t.resources;
  return KJIT_OK;
}

kjit_status kjit_synchronize(kjit_context *ctx) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  bool ok = rt_cuda_target.sync(ctx, &call.diags) && rt_host_target.sync(ctx, &call.diags);
  return rt_finish(&call, ok ? KJIT_OK : rt_status_of(&call.diags));
}

kjit_status kjit_launch(kjit_kernel *k, const kjit_launch_config *cfg,
                        const kjit_arg *args, int nargs) {
  if (!is_kernel(k))
    return KJIT_ERROR_INVALID_ARGUMENT;
  rt_lock(k->prog->ctx);                        /* the fast path shares argv */
  bool fast = k->fast && rt_cuda_fast_launch(k, cfg, args, nargs);
  rt_unlock(k->prog->ctx);
  if (fast)
    return KJIT_OK;                            /* no arena, no diagnostics */
  RtValue stack_vals[STACK_ARGS];
  RtCall call;
  Launch l = {.k = k, .call = &call, .args = args, .nargs = nargs, .vals = stack_vals};
  rt_begin(l.call, k->prog->ctx);
  if (nargs > STACK_ARGS && nargs <= k->fn->nparams) {
    l.vals = calloc((size_t)nargs, sizeof *l.vals);
    if (!l.vals)
      return rt_finish(l.call, KJIT_ERROR_OUT_OF_MEMORY);
  }
  kjit_status st = check_launch(&l, cfg);
  if (st == KJIT_OK)
    st = run_launch(&l);
  if (l.vals != stack_vals)
    free(l.vals);
  return rt_finish(l.call, st);
}

/* ----------------------------------------- kjit_kernel_max_cooperative_grid --- */

static kjit_status max_cooperative(Launch *l, const kjit_launch_config *cfg, int64_t *blocks) {
  kjit_status st = check_launch(l, cfg);
  if (st != KJIT_OK)
    return st;
  l->plan.grid32 = true; /* a resident grid is far below 2^31 threads */
  return target_of(l->call->ctx)->max_cooperative(&l->plan, blocks, &l->call->diags)
             ? KJIT_OK : failed(l->call);
}

kjit_status kjit_kernel_max_cooperative_grid(kjit_kernel *k, const kjit_arg *args, int nargs,
                                             const uint32_t block[3], size_t shared_bytes,
                                             int64_t *blocks) {
  if (!is_kernel(k) || !block || !blocks)
    return KJIT_ERROR_INVALID_ARGUMENT;
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  memcpy(cfg.block, block, sizeof cfg.block);
  cfg.shared_bytes = shared_bytes;
  RtValue stack_vals[STACK_ARGS];
  RtCall call;
  Launch l = {.k = k, .call = &call, .args = args, .nargs = nargs, .vals = stack_vals};
  rt_begin(l.call, k->prog->ctx);
  if (nargs > STACK_ARGS && nargs <= k->fn->nparams) {
    l.vals = calloc((size_t)nargs, sizeof *l.vals);
    if (!l.vals)
      return rt_finish(l.call, KJIT_ERROR_OUT_OF_MEMORY);
  }
  int64_t n = 0;
  kjit_status st = max_cooperative(&l, &cfg, &n);
  if (st == KJIT_OK)
    *blocks = n;
  if (l.vals != stack_vals)
    free(l.vals);
  return rt_finish(l.call, st);
}

/* ------------------------------------------------ kjit_kernel_prepare --- */

kjit_status kjit_kernel_prepare(kjit_kernel *k, const kjit_launch_config *cfg,
                                const kjit_arg *args, int nargs) {
  if (!is_kernel(k))
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtValue stack_vals[STACK_ARGS];
  RtCall call;
  Launch l = {.k = k, .call = &call, .args = args, .nargs = nargs, .vals = stack_vals};
  rt_begin(l.call, k->prog->ctx);
  if (nargs > STACK_ARGS && nargs <= k->fn->nparams) {
    l.vals = calloc((size_t)nargs, sizeof *l.vals);
    if (!l.vals)
      return rt_finish(l.call, KJIT_ERROR_OUT_OF_MEMORY);
  }
  kjit_status st = check_launch(&l, cfg);
  if (st == KJIT_OK && !target_of(l.call->ctx)->prepare(&l.plan, &l.call->diags))
    st = failed(l.call);
  if (l.vals != stack_vals)
    free(l.vals);
  return rt_finish(l.call, st);
}

/* ---------------------------------------------------------- kjit_call --- */

/* The device function `name`, or NULL with the reason (did-you-mean, or
 * "'add' is a kernel"). */
static IrFunc *find_device_function(kjit_program *prog, const char *name, RtCall *call) {
  IrFunc *f = ir_find_func(&prog->ir, name);
  if (f && !f->is_kernel)
    return f;
  if (f)
    diag_error(&call->diags, RT_E_NO_KERNEL, f->ast ? f->ast->loc : (SrcLoc){0},
               "kjit_call calls functions decorated @cuda.jit(device=True)",
               "'%s' is a kernel; launch it with kjit_launch", name);
  else
    rt_report_unknown_function(prog, name, call);
  return NULL;
}

/* The arguments checked and converted as for a launch (l->vals). */
static kjit_status check_call(Launch *l) {
  if (l->nargs > 0 && !l->args) {
    fail_launch(l, NULL, "args is NULL but nargs is %d", l->nargs);
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  static const uint32_t one[3] = {1, 1, 1};
  rt_plan_init(&l->plan, l->k->prog, l->k->fn, l->vals, l->nargs, one, one, 0);
  if (!rt_plan_check_count(&l->plan, &l->call->diags)) /* the launch's own check */
    return KJIT_ERROR_INVALID_ARGUMENT;
  for (int i = 0; i < l->nargs; i++)
    if (!take_arg(l, i))
      return KJIT_ERROR_INVALID_ARGUMENT;
  return rt_plan_pick_signature(&l->plan, &l->call->diags) ? KJIT_OK : KJIT_ERROR_TYPE;
}

static kjit_status run_call(Launch *l, kjit_value *result) {
  kjit_value v;
  if (!rt_host_call(&l->plan, &v, &l->call->diags))
    return failed(l->call);
  if (result)
    *result = v;
  return KJIT_OK;
}

kjit_status kjit_program_function(kjit_program *prog, const char *name, kjit_function **out) {
  if (!rt_program_live(prog) || !name || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, prog->ctx);
  IrFunc *fn = find_device_function(prog, name, &call);
  if (!fn)
    return rt_finish(&call, KJIT_ERROR_NOT_FOUND);
  kjit_function *f = prog->functions;
  while (f && f->fn != fn)
    f = f->next;
  if (!f) {
    f = arena_alloc(&prog->arena, sizeof *f);
    *f = (kjit_function){RT_FUNCTION_MAGIC, prog, fn, prog->functions};
    prog->functions = f;
  }
  *out = f;
  return rt_finish(&call, KJIT_OK);
}

kjit_status kjit_call(kjit_function *f, const kjit_arg *args, int nargs, kjit_value *result) {
  if (!f || f->magic != RT_FUNCTION_MAGIC || !rt_program_live(f->prog))
    return KJIT_ERROR_INVALID_ARGUMENT;
  kjit_program *prog = f->prog;
  RtValue vals[RT_HOST_MAX_ARGS];
  kjit_kernel k = {RT_KERNEL_MAGIC, prog, f->fn, NULL};
  RtCall call;
  Launch l = {.k = &k, .call = &call, .args = args, .nargs = nargs, .vals = vals};
  rt_begin(l.call, prog->ctx);
  if (prog->ctx->opts.target == KJIT_TARGET_CUDA) {
    diag_error(&l.call->diags, RT_E_ARGUMENT, (SrcLoc){0}, "use a context created with KJIT_TARGET_CPU or AUTO",
               "kjit_call runs device functions on the cpu target only");
    return rt_finish(l.call, KJIT_ERROR_INVALID_ARGUMENT);
  }
  if (k.fn->nparams > RT_HOST_MAX_ARGS) {
    fail_launch(&l, NULL, "has %d parameters; kjit_call passes at most %d", k.fn->nparams, RT_HOST_MAX_ARGS);
    return rt_finish(l.call, KJIT_ERROR_INVALID_ARGUMENT);
  }
  kjit_status st = check_call(&l);
  if (st == KJIT_OK)
    st = run_call(&l, result);
  return rt_finish(l.call, st);
}

/* ------------------------------------------------ tuning records (tune.c) --- */

kjit_status rt_api_launch_types(kjit_kernel *k, const kjit_arg *args, int nargs, RtCall *call,
                                const Type **params) {
  RtValue stack_vals[STACK_ARGS];
  Launch l = {.k = k, .call = call, .args = args, .nargs = nargs, .vals = stack_vals};
  if (nargs > STACK_ARGS && nargs <= k->fn->nparams && !(l.vals = calloc((size_t)nargs, sizeof *l.vals)))
    return KJIT_ERROR_OUT_OF_MEMORY;
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  kjit_status st = check_launch(&l, &cfg);
  const Signature *eager = st == KJIT_OK ? rt_plan_signature(&l.plan) : NULL;
  for (int i = 0; st == KJIT_OK && i < nargs; i++)
    params[i] = eager ? eager->params[i] : rt_value_type(k->prog->ir.types, &l.vals[i]);
  if (l.vals != stack_vals)
    free(l.vals);
  return st;
}
