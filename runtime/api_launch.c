/* api_launch.c - the public launch API: the context's target, kernel
 * handles, kjit_launch and its checks, timings.
 *
 * kjit_launch validates everything it can before anything runs (geometry,
 * argument count, each argument's handle and type against the kernel's
 * eager signatures), each error naming the kernel and the argument, then
 * hands RtValues to the target's runner (rt_host_run for the CPU target,
 * runtime/launch.h), which specializes, compiles on a cache miss and runs.
 * Kernel handles live in their program's arena. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuc.h"
#include "runtime/cuda.h"
#include "runtime/dispatch.h"
#include "runtime/host_exec.h"
#include "runtime/launch.h"
#include "runtime/runtime.h"

#define MAX_GRID_X 2147483647u
#define MAX_GRID_YZ 65535u
#define MAX_BLOCK_XY 1024u
#define MAX_BLOCK_Z 64u
#define STACK_ARGS 16          /* arguments packed without allocating */

/* ------------------------------------------------------------ target --- */

/* Resolves ctx's target once.  CUDA opens the device (runtime/cuda.h) or
 * fails with the reason; AUTO becomes CUDA when a device opens, else CPU
 * with a note, unless the device number itself is wrong (a KJIT_DEVICE
 * that is no number, an ordinal past the machine's GPUs): asking for a
 * GPU that cannot exist is an error whatever the target. */
kjit_status rt_resolve_target(RtCall *call) {
  kjit_context *ctx = call->ctx;
  if (ctx->api.target != KJIT_TARGET_AUTO)
    return KJIT_OK;
  switch (ctx->opts.target) {
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

/* ----------------------------------------------------------- kernels --- */

static int find_kernel_index(const kjit_program *prog, const char *name) {
  for (int i = 0; i < prog->kernels.len; i++)
    if (strcmp(prog->kernels.data[i]->name, name) == 0)
      return i;
  return -1;
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

/* A CUDA C kernel's handle, by name expression (runtime/cuc.c). */
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
  if (!prog || !name || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, prog->ctx);
  if (prog->cuc)
    return rt_finish(&call, cuc_handle(prog, name, &call, out));
  int i = find_kernel_index(prog, name);
  if (i < 0) {
    rt_report_unknown_kernel(prog, name, &call);
    return rt_finish(&call, KJIT_ERROR_NOT_FOUND);
  }
  *out = get_handle(prog, i);
  return rt_finish(&call, KJIT_OK);
}

static bool is_kernel(const kjit_kernel *k) { return k && k->magic == RT_KERNEL_MAGIC; }

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

/* One launch being checked: the kernel, the call, where messages go. */
typedef struct Launch {
  kjit_kernel *k;
  RtCall call;
  const kjit_arg *args;
  int nargs;
  RtValue *vals;           /* nargs values handed to the runner */
  uint8_t on_device[RT_CUDA_MAX_ARGS]; /* 1: vals[i] is a device array */
  bool any_device;
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
  diag_error(&l->call.diags, RT_E_ARGUMENT, (SrcLoc){0}, hint, "%s '%s': %s", what(l),
             kernel_name(l), msg);
  return false;
}

static bool check_geometry(Launch *l, const kjit_launch_config *c) {
  static const char xyz[] = "xyz";
  for (int d = 0; d < 3; d++) {
    if (c->grid[d] == 0 || c->block[d] == 0)
      return fail_launch(l, "use 1 for unused dimensions",
                         "%s.%c is 0; every grid and block dimension must be at least 1",
                         c->grid[d] == 0 ? "grid" : "block", xyz[d]);
    if (c->grid[d] > (d ? MAX_GRID_YZ : MAX_GRID_X))
      return fail_launch(l, NULL, "grid.%c is %u; the limit is %u", xyz[d], c->grid[d],
                         d ? MAX_GRID_YZ : MAX_GRID_X);
    if (c->block[d] > (d == 2 ? MAX_BLOCK_Z : MAX_BLOCK_XY))
      return fail_launch(l, NULL, "block.%c is %u; the limit is %u", xyz[d], c->block[d],
                         d == 2 ? MAX_BLOCK_Z : MAX_BLOCK_XY);
  }
  uint64_t threads = (uint64_t)c->block[0] * c->block[1] * c->block[2];
  if (threads > RT_HOST_MAX_THREADS)
    return fail_launch(l, NULL, "a block of %u x %u x %u = %llu threads exceeds the limit of %u",
                       c->block[0], c->block[1], c->block[2], (unsigned long long)threads,
                       RT_HOST_MAX_THREADS);
  if (c->shared_bytes > RT_HOST_MAX_SHARED)
    return fail_launch(l, NULL, "%zu bytes of dynamic shared memory exceed the limit of %u",
                       c->shared_bytes, RT_HOST_MAX_SHARED);
  if (c->stream)
    return fail_launch(l, NULL, "streams come with the cuda target; pass stream = NULL");
  return true;
}

/* Numba's spelling of an array type: float32[::1], float64[:, :]. */
static void array_type_text(RtDtype dt, int ndim, bool c_order, char *buf, size_t n) {
  size_t w = (size_t)snprintf(buf, n, "%s[", rt_dtype_name(dt));
  for (int d = 0; d < ndim && w < n; d++)
    w += (size_t)snprintf(buf + w, n - w, "%s%s", d ? ", " : "",
                          d == ndim - 1 && c_order ? "::1" : ":");
  if (w < n)
    snprintf(buf + w, n - w, "]");
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
    if (a->value.array->ctx != l->call.ctx)
      return fail_launch(l, NULL, "argument %d ('%s'): the array belongs to another context",
                         i + 1, param_name(l, i));
    if (a->value.array->device) {
      RtCuda *cu = l->call.ctx->cuda;
      if (!cu || a->value.array->epoch != cu->resets)
        return fail_launch(l, "destroy it and allocate a new one",
                           "argument %d ('%s'): array was allocated before a device fault and "
                           "is no longer valid", i + 1, param_name(l, i));
      if (i >= RT_CUDA_MAX_ARGS)
        return fail_launch(l, NULL, "argument %d ('%s'): the cuda target takes at most %d "
                           "arguments", i + 1, param_name(l, i), RT_CUDA_MAX_ARGS);
      l->on_device[i] = 1;
      l->any_device = true;
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
  case KJIT_ARG_TUPLE: {
    const char *why = rt_tuple_take(l->call.ctx, &l->call.arena, a, v, 1);
    if (!why)
      why = rt_tuple_resolve(&l->k->prog->ir, &l->call.arena, v);
    return !why || fail_launch(l, NULL, "argument %d ('%s'): %s", i + 1, param_name(l, i), why);
  }
  }
  return fail_launch(l, NULL, "argument %d ('%s'): invalid kjit_arg kind %d", i + 1,
                     param_name(l, i), (int)a->kind);
}

/* ------------------------------------------------- eager signatures --- */

/* Does value v fit parameter type p (with any conversion Numba allows)? */
static bool value_fits(const RtValue *v, const Type *p) {
  return rt_value_conversion(v, p, true) != TYCONV_NONE;
}

static void convert_scalar(RtScalar *s, const Type *p) {
  RtDtype to;
  if (rt_type_dtype(p, &to) && to != s->dtype)
    rt_scalar_convert(s, to, s);
}

/* A tuple's elements converted to the signature's element types (the
 * elements live in the call's arena, so converting in place is safe). */
static void convert_value(RtValue *v, const Type *p) {
  if (!v->is_tuple) {
    if (!v->is_array)
      convert_scalar(&v->scalar, p);
    return;
  }
  for (int i = 0; i < v->nelems && i < p->nelems; i++)
    convert_value(&v->elems[i], p->elems[i]);
}

static void value_text(const RtValue *v, char *buf, size_t n) {
  if (v->is_tuple)
    rt_tuple_text(v, buf, n);
  else if (v->is_array && v->array.dtype == RT_RECORD)
    snprintf(buf, n, "%s %s", v->array.ndim ? "an array of records" : "the record",
             v->array.rec ? v->array.rec->descr : "?");
  else if (v->is_array)
    array_type_text(v->array.dtype, v->array.ndim, rt_array_is_c_contiguous(&v->array), buf, n);
  else
    snprintf(buf, n, "%s", rt_dtype_name(v->scalar.dtype));
}

static void type_text(const Type *t, char *buf, size_t n) {
  RtDtype dt;
  if (t->kind == TY_ARRAY && rt_type_dtype(t->elem, &dt))
    array_type_text(dt, t->ndim, t->layout == LAYOUT_C, buf, n);
  else
    ty_name(t, buf, (int)n);
}

static int first_misfit(const Launch *l, const Signature *s) {
  for (int i = 0; i < l->nargs && i < s->nparams; i++)
    if (!value_fits(&l->vals[i], s->params[i]))
      return i;
  return -1;
}

/* "(float64[::1], int64)": a signature's parameters, spelled as value_text
 * spells arguments. */
static void sig_text(const Signature *s, char *buf, size_t n) {
  snprintf(buf, n, "(");
  for (int i = 0; i < s->nparams; i++) {
    char t[256];
    type_text(s->params[i], t, sizeof t);
    snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", t);
  }
  snprintf(buf + strlen(buf), n - strlen(buf), ")");
}

/* "(float64[::1], int32)": the launch's argument types. */
static void args_text(const Launch *l, char *buf, size_t n) {
  snprintf(buf, n, "(");
  for (int i = 0; i < l->nargs; i++) {
    char t[256];
    value_text(&l->vals[i], t, sizeof t);
    snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", t);
  }
  snprintf(buf + strlen(buf), n - strlen(buf), ")");
}

/* Two of the signatures the arguments fit equally well (Numba refuses the
 * call too: "Ambiguous overloading"). */
static bool fail_ambiguous(Launch *l, const int tied[2]) {
  const IrFunc *f = l->k->fn;
  char got[512], a[512], b[512];
  args_text(l, got, sizeof got);
  sig_text(&f->eager.data[tied[0]], a, sizeof a);
  sig_text(&f->eager.data[tied[1]], b, sizeof b);
  diag_error(&l->call.diags, RT_E_AMBIGUOUS, (SrcLoc){0},
             "Numba refuses such a call too; pass arguments of one signature's types, or add a "
             "signature for these",
             "%s '%s': the arguments %s fit signatures %d %s and %d %s equally well", what(l), f->name,
             got, tied[0] + 1, a, tied[1] + 1, b);
  return false;
}

/* No signature accepts the arguments: with one signature, the first
 * argument that does not fit; with several, all of them. */
static bool fail_no_match(Launch *l) {
  const IrFunc *f = l->k->fn;
  const Signature *s0 = &f->eager.data[0];
  char got[512], want[1024];
  if (f->eager.len == 1) {
    int i = first_misfit(l, s0);
    value_text(&l->vals[i], got, sizeof got);
    type_text(s0->params[i], want, sizeof want);
    diag_error(&l->call.diags, RT_E_ARGUMENT, (SrcLoc){0},
               "pass arguments of the declared types, or declare the kernel lazily (@cuda.jit)",
               "%s '%s': argument %d ('%s'): %s does not match the signature's %s", what(l), f->name,
               i + 1, param_name(l, i), got, want);
    return false;
  }
  args_text(l, got, sizeof got);
  want[0] = 0;
  for (int s = 0; s < f->eager.len && strlen(want) + 256 < sizeof want; s++) {
    char t[512];
    sig_text(&f->eager.data[s], t, sizeof t);
    snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", s ? ", " : "", t);
  }
  diag_error(&l->call.diags, RT_E_ARGUMENT, (SrcLoc){0},
             "numbers convert to any number type (complex only to complex); an array needs its "
             "signature's dtype and dimensions, and C order for [::1]",
             "%s '%s': the arguments %s match none of its signatures %s", what(l), f->name, got, want);
  return false;
}

/* A signature of another arity than the def (Numba refuses it when the
 * decorator runs; kjit check reports it at the signature). */
static bool check_arities(Launch *l) {
  const IrFunc *f = l->k->fn;
  for (int s = 0; s < f->eager.len; s++)
    if (f->eager.data[s].nparams != l->nargs) {
      char t[512];
      sig_text(&f->eager.data[s], t, sizeof t);
      diag_error(&l->call.diags, RT_E_ARITY, f->eager.data[s].loc, NULL,
                 "%s '%s' takes %d arguments but its signature %d %s has %d", what(l), f->name,
                 l->nargs, s + 1, t, f->eager.data[s].nparams);
      return false;
    }
  return true;
}

/* Is a float scalar passed for an integer parameter of the chosen
 * signature?  Numba's dispatcher chooses such a signature (an unsafe
 * conversion), but its launch then marshals the value with ctypes, which
 * refuses a float ("'float' object cannot be interpreted as an integer"). */
static bool float_for_int(const RtValue *v, const Type *p) {
  if (v->is_tuple) {
    for (int i = 0; i < v->nelems && i < p->nelems; i++)
      if (float_for_int(&v->elems[i], p->elems[i]))
        return true;
    return false;
  }
  return !v->is_array && rt_dtype_is_float(v->scalar.dtype) && ty_is_int(p);
}

/* Kernel launches only: kjit_call (no Numba counterpart) converts. */
static bool check_marshal(Launch *l, const Signature *s) {
  for (int i = 0; i < l->nargs && l->k->fn->is_kernel; i++)
    if (float_for_int(&l->vals[i], s->params[i])) {
      char got[256], want[256];
      value_text(&l->vals[i], got, sizeof got);
      type_text(s->params[i], want, sizeof want);
      diag_error(&l->call.diags, RT_E_ARGUMENT, (SrcLoc){0},
                 "Numba's launch refuses it too (ctypes: 'float' object cannot be interpreted as "
                 "an integer); pass an integer, or add a signature with a float parameter",
                 "%s '%s': argument %d ('%s'): a %s value for the %s parameter of the chosen "
                 "signature", what(l), l->k->fn->name, i + 1, param_name(l, i), got, want);
      return false;
    }
  return true;
}

/* An eager kernel runs only with one of its signatures: the one Numba's
 * dispatcher picks (runtime/dispatch.h), the scalars converted to it. */
static bool match_eager(Launch *l) {
  const IrFunc *f = l->k->fn;
  if (f->eager.len == 0)
    return true;
  if (!check_arities(l))
    return false;
  int tied[2];
  int s = rt_pick_eager(f, l->vals, l->nargs, tied);
  if (s >= 0) {
    if (!check_marshal(l, &f->eager.data[s]))
      return false;
    for (int i = 0; i < l->nargs; i++)
      convert_value(&l->vals[i], f->eager.data[s].params[i]);
    return true;
  }
  return s == IR_PICK_AMBIGUOUS ? fail_ambiguous(l, tied) : fail_no_match(l);
}

/* ------------------------------------------------------------ launch --- */

static kjit_status check_launch(Launch *l, const kjit_launch_config *cfg) {
  if (!cfg) {
    fail_launch(l, NULL, "the launch configuration is NULL");
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  int want = l->k->fn->nparams;
  if (l->nargs != want || (l->nargs > 0 && !l->args)) {
    if (!l->args && l->nargs > 0)
      fail_launch(l, NULL, "args is NULL but nargs is %d", l->nargs);
    else
      diag_error(&l->call.diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL,
                 "kernel '%s' takes %d argument%s (%d given)", kernel_name(l), want,
                 want == 1 ? "" : "s", l->nargs);
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  if (!check_geometry(l, cfg))
    return KJIT_ERROR_INVALID_ARGUMENT;
  for (int i = 0; i < l->nargs; i++)
    if (!take_arg(l, i))
      return KJIT_ERROR_INVALID_ARGUMENT;
  if (!match_eager(l))
    return KJIT_ERROR_TYPE;
  const CucKernel *cuc = rt_cuc_kernel_of(l->k->prog, l->k->fn); /* CUDA C */
  if (cuc && !rt_cuc_check_args(cuc, l->vals, l->nargs, &l->call.diags))
    return KJIT_ERROR_TYPE;
  kjit_status st = rt_resolve_target(&l->call);
  if (st == KJIT_OK && l->any_device && l->call.ctx->api.target != KJIT_TARGET_CUDA) {
    fail_launch(l, NULL, "device arrays need the cuda target");
    st = KJIT_ERROR_INVALID_ARGUMENT;
  }
  if (st == KJIT_OK && cuc && l->call.ctx->api.target != KJIT_TARGET_CUDA) {
    diag_error(&l->call.diags, RT_E_CUC_TARGET, (SrcLoc){0},
               "CUDA C runs on a GPU only (NVRTC compiles it for the device); "
               "write the kernel in Python to run it on the cpu target",
               "kernel '%s': the cpu target cannot run CUDA C kernels", kernel_name(l));
    st = KJIT_ERROR_INVALID_ARGUMENT;
  }
  return st;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The CPU target: `repeat` synchronous runs, the median run time. */
static kjit_status run_host(Launch *l, const kjit_launch_config *cfg, int repeat) {
  kjit_context *ctx = l->call.ctx;
  double runs[64], first_compile = 0;
  int kept = 0;
  for (int r = 0; r < repeat; r++) {
    double compile_ms = 0, run_ms = 0;
    if (!rt_host_run(l->k->prog, kernel_name(l), l->vals, l->nargs, cfg->grid, cfg->block,
                     cfg->shared_bytes, &l->call.diags, &compile_ms, &run_ms))
      return l->call.diags.nerrors ? rt_status_of(&l->call.diags) : KJIT_ERROR_INTERNAL;
    if (r == 0)
      first_compile = compile_ms;
    runs[kept < 64 ? kept++ : r % 64] = run_ms; /* the median of the last 64 */
  }
  qsort(runs, (size_t)kept, sizeof runs[0], cmp_double);
  ctx->api.compile_ms = first_compile;
  ctx->api.copy_ms = 0;
  ctx->api.run_ms = runs[kept / 2];
  return KJIT_OK;
}

static kjit_status run_launch(Launch *l, const kjit_launch_config *cfg) {
  kjit_context *ctx = l->call.ctx;
  int repeat = cfg->repeat > 1 ? cfg->repeat : 1;
  if (ctx->api.target != KJIT_TARGET_CUDA)
    return run_host(l, cfg, repeat);
  RtCudaTiming t;                              /* runtime/cuda_run.c */
  RtCudaSpec *spec = NULL;
  if (!rt_cuda_run(l->k->prog, kernel_name(l), l->vals, l->on_device, l->nargs, cfg->grid,
                   cfg->block, cfg->shared_bytes, repeat, cfg->use_graph != 0, &l->call.diags,
                   &t, &spec))
    return l->call.diags.nerrors ? rt_status_of(&l->call.diags) : KJIT_ERROR_INTERNAL;
  ctx->api.compile_ms = t.compile_ms;
  ctx->api.copy_ms = t.copy_ms;
  ctx->api.run_ms = t.kernel_ms;
  if (spec && repeat == 1)                     /* the next such launch: the fast path */
    rt_cuda_remember_fast(l->k, spec, l->args, l->nargs);
  return KJIT_OK;
}

kjit_status kjit_synchronize(kjit_context *ctx) {
  if (!ctx)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  bool ok = !ctx->cuda || rt_cuda_sync(ctx->cuda, &call.diags);
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
  Launch l = {.k = k, .args = args, .nargs = nargs, .vals = stack_vals};
  rt_begin(&l.call, k->prog->ctx);
  if (nargs > STACK_ARGS && nargs <= k->fn->nparams) {
    l.vals = calloc((size_t)nargs, sizeof *l.vals);
    if (!l.vals)
      return rt_finish(&l.call, KJIT_ERROR_OUT_OF_MEMORY);
  }
  kjit_status st = check_launch(&l, cfg);
  if (st == KJIT_OK)
    st = run_launch(&l, cfg);
  if (l.vals != stack_vals)
    free(l.vals);
  return rt_finish(&l.call, st);
}

/* ----------------------------------------- kjit_kernel_max_cooperative_grid --- */

static kjit_status max_cooperative(Launch *l, const kjit_launch_config *cfg, int64_t *blocks) {
  kjit_status st = check_launch(l, cfg);
  if (st != KJIT_OK)
    return st;
  if (l->call.ctx->api.target != KJIT_TARGET_CUDA) {
    *blocks = RT_HOST_MAX_GRID_THREADS / ((int64_t)cfg->block[0] * cfg->block[1] * cfg->block[2]);
    return KJIT_OK;
  }
  if (!rt_cuda_max_cooperative(l->k->prog, kernel_name(l), l->vals, l->on_device, l->nargs, cfg->block,
                               cfg->shared_bytes, blocks, &l->call.diags))
    return l->call.diags.nerrors ? rt_status_of(&l->call.diags) : KJIT_ERROR_INTERNAL;
  return KJIT_OK;
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
  Launch l = {.k = k, .args = args, .nargs = nargs, .vals = stack_vals};
  rt_begin(&l.call, k->prog->ctx);
  if (nargs > STACK_ARGS && nargs <= k->fn->nparams) {
    l.vals = calloc((size_t)nargs, sizeof *l.vals);
    if (!l.vals)
      return rt_finish(&l.call, KJIT_ERROR_OUT_OF_MEMORY);
  }
  int64_t n = 0;
  kjit_status st = max_cooperative(&l, &cfg, &n);
  if (st == KJIT_OK)
    *blocks = n;
  if (l.vals != stack_vals)
    free(l.vals);
  return rt_finish(&l.call, st);
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
  int want = l->k->fn->nparams;
  if (l->nargs != want || (l->nargs > 0 && !l->args)) {
    if (!l->args && l->nargs > 0)
      fail_launch(l, NULL, "args is NULL but nargs is %d", l->nargs);
    else
      diag_error(&l->call.diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL,
                 "function '%s' takes %d argument%s (%d given)", kernel_name(l), want,
                 want == 1 ? "" : "s", l->nargs);
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  for (int i = 0; i < l->nargs; i++)
    if (!take_arg(l, i))
      return KJIT_ERROR_INVALID_ARGUMENT;
  return match_eager(l) ? KJIT_OK : KJIT_ERROR_TYPE;
}

static kjit_status run_call(Launch *l, kjit_value *result) {
  kjit_value v;
  if (!rt_host_call(l->k->prog, l->k->fn, l->vals, l->nargs, &v, &l->call.diags))
    return l->call.diags.nerrors ? rt_status_of(&l->call.diags) : KJIT_ERROR_INTERNAL;
  if (result)
    *result = v;
  return KJIT_OK;
}

kjit_status kjit_program_function(kjit_program *prog, const char *name, kjit_function **out) {
  if (!prog || !name || !out)
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
  if (!f || f->magic != RT_FUNCTION_MAGIC)
    return KJIT_ERROR_INVALID_ARGUMENT;
  kjit_program *prog = f->prog;
  RtValue vals[RT_HOST_MAX_ARGS];
  kjit_kernel k = {RT_KERNEL_MAGIC, prog, f->fn, NULL};
  Launch l = {.k = &k, .args = args, .nargs = nargs, .vals = vals};
  rt_begin(&l.call, prog->ctx);
  if (prog->ctx->opts.target == KJIT_TARGET_CUDA) {
    diag_error(&l.call.diags, RT_E_ARGUMENT, (SrcLoc){0}, "use a context created with KJIT_TARGET_CPU or AUTO",
               "kjit_call runs device functions on the cpu target only");
    return rt_finish(&l.call, KJIT_ERROR_INVALID_ARGUMENT);
  }
  if (k.fn->nparams > RT_HOST_MAX_ARGS) {
    fail_launch(&l, NULL, "has %d parameters; kjit_call passes at most %d", k.fn->nparams, RT_HOST_MAX_ARGS);
    return rt_finish(&l.call, KJIT_ERROR_INVALID_ARGUMENT);
  }
  kjit_status st = check_call(&l);
  if (st == KJIT_OK)
    st = run_call(&l, result);
  return rt_finish(&l.call, st);
}
