/* cuda_run.c - one launch on the GPU, start to finish: the context's device
 * (opened on first use), the specialization for these argument types
 * (found in the table, else compiled: signature -> PTX -> cubin -> loaded
 * function), the launch checks, host arrays copied in, the timed launches,
 * the arrays copied back out.
 *
 * Host arrays are treated as Numba treats NumPy arrays passed to a kernel:
 * each is copied to a fresh device buffer before the launch and copied
 * back (all of them, inputs included) after it, synchronously with respect
 * to the caller.  The device buffer keeps the host array's strides, so a
 * strided view is copied as the span it covers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/sha256.h"
#include "common/trace.h"
#include "ir/type.h"
#include "cuda/cuc.h"
#include "cache/cache.h"
#include "cuda/cuda.h"
#include "runtime/compile.h"
#include "runtime/dispatch.h"
#include "common/host_abi.h"
#include "runtime/value.h"
#include "cuda/link.h"
#include "runtime/runtime.h"
#include "common/settings.h"

/* ------------------------------------------------------------- hooks --- */

void rt_cuda_release(kjit_context *ctx) {
  rt_cuda_close(ctx->cuda);
  ctx->cuda = NULL;
}

void rt_cuda_forget_program(kjit_program *prog) {
  RtCuda *cu = prog->ctx ? prog->ctx->cuda : NULL;
  if (cu && cu->specs.count) {
    cu->api.CtxSetCurrent(cu->ctx);
    rt_spec_forget_program(&cu->specs, cu, prog);
    cu->last_spec = NULL;
  }
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The context's device (its option, else KJIT_DEVICE, else 0), opened:
 * the driver started and the device's limits read, its context perhaps
 * still being retained (rt_cuda_open).  Enough to compile for it. */
static RtCuda *device_opened(kjit_context *ctx, Diags *diags) {
  if (ctx->cuda)
    return ctx->cuda;
  const kjit_context_options *o = &ctx->opts;
  RtCudaOpen how = {.foreign = o->cuda_context,
                    .use_current = o->cuda_context_mode == KJIT_CUDA_CONTEXT_CURRENT,
                    .own = o->cuda_context_mode == KJIT_CUDA_CONTEXT_OWN,
                    .reset_on_fault = o->fault_policy == KJIT_FAULT_RESET};
  if (!rt_context_device(ctx, &how.ordinal, diags))
    return NULL;
  how.ordinal_explicit = o->device != KJIT_DEVICE_DEFAULT;
  ctx->cuda = rt_cuda_open(&how, diags);
  return ctx->cuda;
}

/* The context's device with its context current on the calling thread. */
RtCuda *rt_cuda_device(kjit_context *ctx, Diags *diags) {
  RtCuda *cu = device_opened(ctx, diags);
  return cu && rt_cuda_make_current(cu, diags) ? cu : NULL;
}

/* Opens the context's device if it can; false with the reason in diags.
 * Does not wait for the device's context (the first use does). */
bool rt_cuda_available(kjit_context *ctx, Diags *diags) {
  return device_opened(ctx, diags) != NULL;
}

/* ---------------------------------------------------------- binding --- */

static const char *param_name(const IrFunc *f, int i) {
  return i < f->locals.len ? f->locals.data[i].name : "?";
}

static RtDtype type_dtype(const Type *t) {
  RtDtype d = RT_I64;
  rt_type_dtype(t, &d);
  return d;
}

/* Arguments -> the signature to compile: the plan's eager signature, or
 * the values' types for a lazy kernel. */
static bool bind(kjit_program *prog, IrFunc *f, const Signature *eager, const RtValue *args,
                 int nargs, const Type **types, Signature *sig, Diags *diags) {
  for (int i = 0; i < nargs; i++) {
    types[i] = eager ? eager->params[i] : rt_value_type(prog->ir.types, &args[i]);
    if (!types[i]) {
      diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, "pass arrays of 1 to 4 dimensions",
                 "argument '%s' of kernel '%s' cannot be passed to the GPU", param_name(f, i), f->name);
      return false;
    }
  }
  *sig = (Signature){.ret = &ty_void_, .nparams = nargs, .params = types};
  return true;
}

/* ---------------------------------------------------------- compiling --- */

/* The plan matched the arguments to the parameters; the GPU's own limit. */
static bool check_arity(const IrFunc *f, int nargs, Diags *diags) {
  if (nargs <= RT_CUDA_MAX_ARGS)
    return true;
  diag_error(diags, RT_E_CUDA_LAUNCH, f->ast ? f->ast->loc : (SrcLoc){0}, NULL,
             "kernel '%s' has %d parameters; the cuda target passes at most %d", f->name, nargs,
             RT_CUDA_MAX_ARGS);
  return false;
}

/* The disk cache keeps the linked cubin under a key of everything
 * nvJitLink is given (the PTX after the ISA clamp, each CUDA C module's
 * PTX, the device's architecture, line info) and kjit's build, so a warm
 * process hands the cached cubin to the driver: nvJitLink is not even
 * loaded. */
static void cubin_key(const char *ptx, const RtLinkInput *more, int nmore, const RtCuda *cu,
                      bool lineinfo, uint8_t key[RT_CACHE_KEY_SIZE]) {
  char head[200];
  snprintf(head, sizeof head, "kjit-cubin-1\nbuild %s\nsm %d%d\nlineinfo %d\nmodules %d\n",
           KJIT_BUILD_ID, cu->info.cc_major, cu->info.cc_minor, lineinfo, nmore);
  Sha256 h;
  sha256_init(&h);
  sha256_update(&h, head, strlen(head));
  sha256_update(&h, ptx, strlen(ptx) + 1);
  for (int i = 0; i < nmore; i++) {
    sha256_update(&h, more[i].name, strlen(more[i].name) + 1);
    sha256_update(&h, more[i].ptx, more[i].len + 1);
  }
  sha256_final(&h, key);
}

/* PTX -> loaded module, through the cubin cache. */
static bool load_module(RtCuda *cu, kjit_program *prog, const char *ptx, const RtLinkInput *more,
                        int nmore, const char *kernel, bool lineinfo, RtCudaModule *m,
                        Diags *diags) {
  uint8_t key[RT_CACHE_KEY_SIZE];
  RtCache *cache = rt_context_cache(prog->ctx, diags);
  RtCacheEntry e = {0};
  RtCubin cached = {0}, linked = {0};
  RtCacheClaim claim = {.lock.fd = -1}; /* processes linking the same cubin link it once */
  bool got = rt_cache_enabled(cache);
  if (got) {
    cubin_key(ptx, more, nmore, cu, lineinfo, key);
    got = rt_cache_claim(cache, key, &e, &claim);
  }
  if (got)
    cached.data = (void *)rt_cache_entry_find(&e, RT_SEC_CUBIN, &cached.len);
  trace_event("cubin of '%s': %s", kernel, cached.data ? "from the cache" : "not cached");
  bool ok = rt_cuda_module_load_linked(cu, ptx, more, nmore, kernel, lineinfo, &cached, &linked,
                                       m, diags);
  trace_event("module of '%s' %s", kernel, ok ? "loaded" : "not loaded");
  if (got)
    rt_cache_entry_release(&e);
  if (ok && linked.data && rt_cache_enabled(cache)) {
    RtCacheEntry put = {0};
    rt_cache_entry_add(&put, RT_SEC_CUBIN, linked.data, linked.len);
    rt_cache_put(cache, key, &put);
    rt_cache_flush_warnings(cache, diags);
  }
  rt_cache_release(&claim);
  free(linked.data);
  return ok;
}

/* Signature -> PTX -> loaded specialization, inserted into the table. */
static RtCudaSpec *compile_spec(RtCuda *cu, kjit_program *prog, IrFunc *f, const Signature *sig,
                                const RtSpecKey *key, Diags *diags) {
  char arch[16];
  rt_cuda_codegen_arch(cu->info.cc_major, cu->info.cc_minor, arch, sizeof arch);
  char *ptx = NULL;
  size_t len = 0;
  bool lineinfo = false;
  if (!rt_compile_ptx(prog, f, sig, arch, cu->ptx_isa_max, &ptx, &len, &lineinfo, diags))
    return NULL;
  rt_ptx_clamp_version(ptx, cu->ptx_isa_max);
  RtLinkInput *more = NULL;
  int nmore = 0;
  if (rt_link_count(prog, &f, 1) &&
      !rt_link_compile(prog, &f, 1, cu->info.cc_major * 10 + cu->info.cc_minor, &more, &nmore, diags)) {
    free(ptx);
    return NULL;
  }
  RtCudaSpec *spec = calloc(1, sizeof *spec);
  bool ok = spec && load_module(cu, prog, ptx, more, nmore, f->name, lineinfo, &spec->m, diags);
  rt_link_inputs_free(more, nmore);
  free(ptx);
  if (ok) {
    spec->key = *key;
    snprintf(spec->kernel, sizeof spec->kernel, "%s", f->name);
    ok = rt_spec_prepare_slots(spec) && rt_spec_insert(&cu->specs, spec);
    if (!ok)
      diag_error(diags, RT_E_CUDA_NOMEM, (SrcLoc){0}, NULL, "out of memory");
  }
  if (!ok && spec) {
    rt_cuda_module_unload(cu, &spec->m);
    free(spec->slots);
    free(spec);
  }
  return ok ? spec : NULL;
}

/* ------------------------------------------------------------- arrays --- */

/* Bytes from data that the array's elements span (strides >= 0). */
static bool array_span(const RtArray *a, size_t *span) {
  int64_t size = rt_array_size(a), end = (int64_t)rt_array_itemsize(a);
  for (int d = 0; d < a->ndim; d++) {
    if (a->strides[d] < 0)
      return false;
    end += (a->shape[d] - 1) * a->strides[d];
  }
  *span = size == 0 ? 0 : (size_t)end;
  if (a->nbytes && *span > a->nbytes)
    *span = a->nbytes;
  return true;
}

#define RT_CUDA_MAX_LEAVES 256     /* arrays inside tuple arguments, per launch */

typedef struct Buffers {
  RtCuDeviceptr ptr[RT_CUDA_MAX_ARGS];
  size_t span[RT_CUDA_MAX_ARGS];
  bool dev[RT_CUDA_MAX_ARGS];      /* a device array's own memory: not freed */
  bool host;                       /* some array is a host array */
  const RtArray *leaf[RT_CUDA_MAX_LEAVES]; /* host arrays inside tuple arguments, */
  RtCuDeviceptr leaf_ptr[RT_CUDA_MAX_LEAVES]; /* depth first, and their copies */
  size_t leaf_span[RT_CUDA_MAX_LEAVES];
  int nleaves;
} Buffers;

/* The host arrays inside a tuple argument, depth first (as packing meets them). */
static bool collect_leaves(const RtValue *v, Buffers *b) {
  for (int i = 0; i < v->nelems; i++) {
    const RtValue *e = &v->elems[i];
    if (e->is_tuple && !collect_leaves(e, b))
      return false;
    if (e->is_array) {
      if (b->nleaves == RT_CUDA_MAX_LEAVES)
        return false;
      b->leaf[b->nleaves++] = &e->array;
      b->host = true;
    }
  }
  return true;
}

static bool copy_leaves_in(RtCuda *cu, IrFunc *f, RtCuStream st, Buffers *b, Diags *diags) {
  for (int i = 0; i < b->nleaves; i++) {
    char what[160];
    snprintf(what, sizeof what, "an array in a tuple argument of kernel '%s'", f->name);
    if (!array_span(b->leaf[i], &b->leaf_span[i])) {
      diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, "pass a copy with positive strides",
                 "%s has negative strides, which the cuda target does not copy", what);
      return false;
    }
    if (!rt_cuda_alloc(cu, b->leaf_span[i], &b->leaf_ptr[i], what, diags))
      return false;
    if (b->leaf_span[i] &&
        !rt_cuda_check(cu, cu->api.MemcpyHtoDAsync(b->leaf_ptr[i], b->leaf[i]->data, b->leaf_span[i],
                                                   st),
                       "cuMemcpyHtoDAsync", f->name, diags))
      return false;
  }
  return true;
}

static bool copy_leaves_out(RtCuda *cu, IrFunc *f, RtCuStream st, const Buffers *b, Diags *diags) {
  for (int i = 0; i < b->nleaves; i++)
    if (b->leaf_span[i] &&
        !rt_cuda_check(cu, cu->api.MemcpyDtoHAsync(b->leaf[i]->data, b->leaf_ptr[i], b->leaf_span[i],
                                                   st),
                       "cuMemcpyDtoHAsync", f->name, diags))
      return false;
  return true;
}

static bool copy_in(RtCuda *cu, IrFunc *f, RtCuStream st, const RtValue *args, int nargs,
                    Buffers *b, Diags *diags) {
  if (!copy_leaves_in(cu, f, st, b, diags))
    return false;
  for (int i = 0; i < nargs; i++) {
    if (!args[i].is_array || b->dev[i])
      continue;
    char what[160];
    snprintf(what, sizeof what, "argument '%s' of kernel '%s'", param_name(f, i), f->name);
    if (!array_span(&args[i].array, &b->span[i])) {
      diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, "pass a copy with positive strides",
                 "%s has negative strides, which the cuda target does not copy", what);
      return false;
    }
    if (!rt_cuda_alloc(cu, b->span[i], &b->ptr[i], what, diags))
      return false;
    if (b->span[i] &&
        !rt_cuda_check(cu, cu->api.MemcpyHtoDAsync(b->ptr[i], args[i].array.data, b->span[i], st),
                       "cuMemcpyHtoDAsync", f->name, diags))
      return false;
  }
  return !b->host || rt_cuda_sync_stream(cu, st, diags);
}

static bool copy_out(RtCuda *cu, IrFunc *f, RtCuStream st, const RtValue *args, int nargs,
                     const Buffers *b, Diags *diags) {
  if (!copy_leaves_out(cu, f, st, b, diags))
    return false;
  for (int i = 0; i < nargs; i++)
    if (args[i].is_array && !b->dev[i] && b->span[i] && !args[i].array.readonly && /* unchanged */
        !rt_cuda_check(cu, cu->api.MemcpyDtoHAsync(args[i].array.data, b->ptr[i], b->span[i], st),
                       "cuMemcpyDtoHAsync", f->name, diags))
      return false;
  return !b->host || rt_cuda_sync_stream(cu, st, diags);
}

static void free_buffers(RtCuda *cu, unsigned resets, Buffers *b, int nargs) {
  if (cu->resets != resets)      /* a context reset already released them */
    return;
  for (int i = 0; i < nargs; i++)
    if (!b->dev[i])
      rt_cuda_free(cu, b->ptr[i]);
  for (int i = 0; i < b->nleaves; i++)
    rt_cuda_free(cu, b->leaf_ptr[i]);
}

/* ---------------------------------------------------- tuple arguments --- */

/* A copy of tuple v whose scalars have the element types of t (an eager
 * signature's Tuple(int64, float32) given (3, 2.5)); arrays are shared.
 * Malloc'd; released by free_tuple.  NULL when out of memory. */
static RtValue *convert_tuple(const RtValue *v, const Type *t) {
  RtValue *c = malloc(sizeof *c);
  if (!c)
    return NULL;
  *c = *v;
  c->elems = v->nelems ? calloc((size_t)v->nelems, sizeof *c->elems) : NULL;
  if (v->nelems && !c->elems) {
    free(c);
    return NULL;
  }
  for (int i = 0; i < v->nelems; i++) {
    const RtValue *e = &v->elems[i];
    const Type *et = t && t->kind == TY_TUPLE && i < t->nelems ? t->elems[i] : NULL;
    c->elems[i] = *e;
    if (e->is_tuple) {
      RtValue *sub = convert_tuple(e, et);
      if (sub) {
        c->elems[i] = *sub;
        free(sub);
      }
    } else if (!e->is_array && et && ty_is_scalar(et)) {
      RtDtype to = type_dtype(et);
      if (to != e->scalar.dtype)
        rt_scalar_convert(&e->scalar, to, &c->elems[i].scalar);
    }
  }
  return c;
}

static void free_tuple_elems(RtValue *v) {
  for (int i = 0; i < v->nelems; i++)
    if (v->elems[i].is_tuple)
      free_tuple_elems(&v->elems[i]);
  free(v->elems);
}

/* ---------------------------------------------------------------- run --- */

/* The specialization for these arguments: a table hit, or a compile. */
static RtCudaSpec *get_spec(RtCuda *cu, const RtPlan *p, const RtCuDeviceptr *dptrs, bool grid32,
                            bool may_compile, RtValue *bound, Diags *diags, double *compile_ms) {
  kjit_program *prog = p->prog;
  IrFunc *f = p->fn;
  const RtValue *args = p->args;
  int nargs = p->nargs;
  RtSpecKey key;
  rt_spec_key(&key, prog, f, args, dptrs, nargs);
  key.grid32 = grid32 && !prog->cuc;            /* CUDA C: one variant for every grid */
  for (int i = 0; i < nargs && i < RT_CUDA_MAX_ARGS; i++) { /* a tuple's or record's type is its key */
    bool typed = args[i].is_tuple || (args[i].is_array && args[i].array.dtype == RT_RECORD);
    if (typed && !(key.args[i].tuple = rt_value_type(prog->ir.types, &args[i]))) {
      diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, NULL,
                 "argument %d of kernel '%s': a %s kjit cannot type", i + 1, f->name,
                 args[i].is_tuple ? "tuple" : "record");
      return NULL;
    }
  }
  RtCudaSpec *spec = rt_spec_find(&cu->specs, &key);
  if (!spec && !may_compile) {
    diag_error(diags, RT_E_CUDA_STREAM, (SrcLoc){0},
               "call kjit_kernel_prepare with the same argument types and geometry before "
               "cuStreamBeginCapture: compiling and loading a module cannot be captured",
               "kernel '%s' is launched on a stream under capture, but was not prepared for these "
               "argument types", f->name);
    return NULL;
  }
  if (!spec && prog->cuc) {                     /* CUDA C: NVRTC (cuda/cuc.h) */
    double t0 = now_ms();
    if (!(spec = rt_cuc_spec(cu, prog, f, &key, diags)))
      return NULL;
    *compile_ms = now_ms() - t0;
  }
  if (!spec) {                                  /* else the fast path: a hit */
    const Type *types[RT_CUDA_MAX_ARGS];
    Signature sig;
    double t0 = now_ms();
    bool ok = bind(prog, f, rt_plan_signature(p), args, nargs, types, &sig, diags);
    sig.fits32 = nargs <= key.nargs;            /* the 32-bit variant: every argument fits */
    for (int i = 0; i < key.nargs; i++)
      sig.fits32 &= (key.args[i].flags & RT_ARGKEY_FITS32) != 0;
    sig.grid32 = key.grid32 != 0;
    if (!ok || !(spec = compile_spec(cu, prog, f, &sig, &key, diags)))
      return NULL;
    for (int i = 0; i < nargs; i++)
      spec->arg_dtype[i] = (uint8_t)type_dtype(types[i]->kind == TY_ARRAY ? types[i]->elem : types[i]);
    for (int i = 0; i < nargs; i++)
      spec->arg_tuple[i] = types[i]->kind == TY_TUPLE ? types[i] : NULL;
    *compile_ms = now_ms() - t0;
  }
  for (int i = 0; i < nargs; i++) {             /* scalars as the parameters' types */
    bound[i] = args[i];
    if (args[i].is_tuple) {                     /* elements too (freed by the caller) */
      RtValue *c = convert_tuple(&args[i], spec->arg_tuple[i]);
      if (!c) {
        for (int k = 0; k < i; k++)
          if (bound[k].is_tuple)
            free_tuple_elems(&bound[k]);
        diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, NULL, "out of memory");
        return NULL;
      }
      bound[i] = *c;
      free(c);
      continue;
    }
    if (!args[i].is_array && args[i].scalar.dtype != (RtDtype)spec->arg_dtype[i])
      rt_scalar_convert(&args[i].scalar, (RtDtype)spec->arg_dtype[i], &bound[i].scalar);
  }
  return spec;
}

/* The caller's stream (kjit_launch_config.stream, kjit_array_copy_async):
 * NULL is kjit's own stream (*st = NULL); the legacy and per-thread
 * default streams are valid in every context; any other must be a live
 * stream of this context.  *capturing: the stream is being captured into a
 * graph (cuStreamBeginCapture). */
bool rt_cuda_check_stream(RtCuda *cu, void *given, const char *kernel, RtCuStream *st,
                          bool *capturing, Diags *diags) {
  *st = NULL;
  *capturing = false;
  if (!given)
    return true;
  if (!rt_cuda_make_current(cu, diags))
    return false;
  RtCuStream s = given;
  char for_kernel[300] = "";
  if (kernel)
    snprintf(for_kernel, sizeof for_kernel, " of kernel '%s'", kernel);
  if (s != RT_CU_STREAM_LEGACY && s != RT_CU_STREAM_PER_THREAD) {
    RtCuContext c = NULL;
    RtCuResult r = cu->api.StreamGetCtx(s, &c);
    if (r != RT_CU_SUCCESS) {
      char name[64];
      diag_error(diags, RT_E_CUDA_STREAM, (SrcLoc){0},
                 "pass a live CUstream/cudaStream_t of this context, or NULL for kjit's own stream",
                 "the stream%s (kjit_launch_config.stream) is not a valid CUDA stream: %s (a "
                 "destroyed stream?)", for_kernel, rt_cu_error_name(&cu->api, r, name, sizeof name));
      return false;
    }
    if (c != cu->ctx) {
      diag_error(diags, RT_E_CUDA_STREAM, (SrcLoc){0},
                 "create the stream in the kjit context's CUDA context (kjit_stream_create), or "
                 "make the kjit context in the stream's (kjit_context_options.cuda_context)",
                 "the stream%s belongs to another CUDA context than the one this kjit context "
                 "runs in (device %d)", for_kernel, cu->info.ordinal);
      return false;
    }
  }
  int status = RT_CU_STREAM_CAPTURE_STATUS_NONE;
  if (cu->api.StreamIsCapturing && cu->api.StreamIsCapturing(s, &status) == RT_CU_SUCCESS &&
      status == RT_CU_STREAM_CAPTURE_STATUS_INVALIDATED) {
    diag_error(diags, RT_E_CUDA_STREAM, (SrcLoc){0}, "end the capture (cuStreamEndCapture) and begin a new one",
               "the stream%s is in a graph capture that was invalidated by an earlier error",
               for_kernel);
    return false;
  }
  *capturing = status == RT_CU_STREAM_CAPTURE_STATUS_ACTIVE;
  *st = s;
  return true;
}

/* A launch under stream capture records only the kernel: nothing may be
 * allocated, copied or synchronized. */
static bool check_capture(const RtPlan *p, const Buffers *b, Diags *diags) {
  const char *why = NULL;
  int arg = -1;
  for (int i = 0; i < p->nargs && !why; i++)
    if (p->args[i].is_array && !b->dev[i])
      why = "is a host array, which would be copied", arg = i;
  if (!why && b->nleaves)
    why = "holds host arrays in a tuple, which would be copied";
  if (!why && (p->repeat > 1 || p->use_graph))
    why = "asks for timed repeats or a graph of kjit's own";
  if (!why)
    return true;
  if (arg >= 0)
    diag_error(diags, RT_E_CUDA_STREAM, (SrcLoc){0},
               "pass device arrays (kjit_array_to_device or kjit_array_wrap_device before the "
               "capture)",
               "argument %d ('%s') of kernel '%s' %s, and the launch is on a stream under graph "
               "capture", arg + 1, param_name(p->fn, arg), p->fn->name, why);
  else
    diag_error(diags, RT_E_CUDA_STREAM, (SrcLoc){0}, "launch once per captured node",
               "kernel '%s': the launch %s, and it is on a stream under graph capture", p->fn->name,
               why);
  return false;
}

/* kjit_last_resources: what the driver says of the launched function (no
 * stack/spill split, no code sizes: those come from kjit_program_resources). */
static void describe_resources(const RtCuda *cu, const RtCudaModule *m, kjit_resources *r) {
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s", m->entry ? m->entry : "");
  snprintf(r->arch, sizeof r->arch, "sm_%d%d", cu->info.cc_major, cu->info.cc_minor);
  r->registers = m->registers;
  r->stack_bytes = m->local_bytes;
  r->static_shared_bytes = m->static_shared;
  r->const_bytes = m->const_bytes;
  r->max_threads_per_block = m->max_threads;
  r->barriers = r->spill_store_bytes = r->spill_load_bytes = -1;
  r->ptx_bytes = r->sass_bytes = r->cubin_bytes = -1;
}

bool rt_cuda_run(const RtPlan *p, Diags *diags, RtLaunchTiming *t, RtCudaSpec **used) {
  memset(t, 0, sizeof *t);
  if (used)
    *used = NULL;
  kjit_program *prog = p->prog;
  IrFunc *f = p->fn;
  const RtValue *args = p->args;
  int nargs = p->nargs;
  const uint32_t *grid = p->grid, *block = p->block;
  size_t dyn_shared = p->shared_bytes;
  if (!check_arity(f, nargs, diags))
    return false;
  /* A first launch compiles and links while the device's context is still
   * being made (rt_cuda_open); loading the module waits for it. */
  trace_event("launch of '%s': arguments ready", f->name);
  RtCuda *cu = device_opened(prog->ctx, diags);
  if (!cu)
    return false;
  Buffers b;
  memset(&b, 0, sizeof b);
  for (int i = 0; i < nargs; i++) {             /* device arrays stay put */
    b.dev[i] = args[i].is_array && rt_plan_on_device(p, i);
    b.host |= args[i].is_array && !b.dev[i];
    if (b.dev[i])
      b.ptr[i] = (RtCuDeviceptr)(uintptr_t)args[i].array.data;
    if (args[i].is_tuple && !collect_leaves(&args[i], &b)) {
      diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, NULL,
                 "kernel '%s': more than %d arrays inside tuple arguments", f->name,
                 RT_CUDA_MAX_LEAVES);
      return false;
    }
  }
  RtCuStream st = NULL;
  bool capturing = false;
  if (!rt_cuda_check_stream(cu, p->stream, f->name, &st, &capturing, diags) ||
      (capturing && !check_capture(p, &b, diags)))
    return false;
  RtValue bound[RT_CUDA_MAX_ARGS];
  RtCudaSpec *spec = get_spec(cu, p, b.ptr, p->grid32, !capturing, bound, diags, &t->compile_ms);
  if (spec && !rt_cuda_make_current(cu, diags)) {
    for (int i = 0; i < nargs; i++)
      if (bound[i].is_tuple)
        free_tuple_elems(&bound[i]);
    return false;
  }
  if (!spec)
    return false;
  if (!rt_cuda_check_launch(cu, &spec->m, f->name, grid, block, dyn_shared, diags)) {
    for (int i = 0; i < nargs; i++)
      if (bound[i].is_tuple)
        free_tuple_elems(&bound[i]);
    return false;
  }
  unsigned resets = cu->resets;
  if (!st)
    st = cu->stream;          /* copies, launch and waits on one stream (NULL would be
                                 the legacy default stream, which kjit's does not wait for) */
  double t0 = now_ms();
  bool ok = copy_in(cu, f, st, args, nargs, &b, diags);
  rt_cuda_set_tuple_leaves(spec, b.leaf_ptr, b.nleaves);
  ok = ok && rt_cuda_pack_args(spec, bound, b.ptr, nargs, diags);
  rt_cuda_set_tuple_leaves(spec, NULL, 0);
  for (int i = 0; i < nargs; i++)               /* get_spec's converted copies */
    if (bound[i].is_tuple)
      free_tuple_elems(&bound[i]);
  t->copy_ms = now_ms() - t0;
  trace_event("launch of '%s': copies in %s", f->name, ok ? "done" : "failed");
  ok = ok && rt_cuda_launch(cu, spec, st, grid, block, dyn_shared, p->repeat, p->use_graph, !b.host,
                            &t->run_ms, diags);
  t0 = now_ms();
  ok = ok && copy_out(cu, f, st, args, nargs, &b, diags);
  t->copy_ms += now_ms() - t0;
  trace_event("launch of '%s': kernel and copies out %s", f->name, ok ? "done" : "failed");
  free_buffers(cu, resets, &b, nargs);
  if (ok)
    describe_resources(cu, &spec->m, &t->resources);
  t->has_resources = ok;
  if (ok && used && cu->resets == resets)
    *used = spec;
  return ok;
}

/* ------------------------------------------------------------ copies --- */

bool rt_cuda_copy(RtCuda *cu, void *dst, bool dst_dev, const void *src, bool src_dev,
                  size_t bytes, RtCuStream stream, bool async, Diags *diags) {
  if (!rt_cuda_make_current(cu, diags))
    return false;
  RtCuStream st = stream ? stream : cu->stream;
  RtCuResult r = RT_CU_SUCCESS;
  const char *op = "cuMemcpy";
  if (bytes && dst_dev && src_dev)
    r = cu->api.MemcpyDtoDAsync((RtCuDeviceptr)(uintptr_t)dst, (RtCuDeviceptr)(uintptr_t)src,
                                bytes, st), op = "cuMemcpyDtoDAsync";
  else if (bytes && dst_dev)
    r = cu->api.MemcpyHtoDAsync((RtCuDeviceptr)(uintptr_t)dst, src, bytes, st),
    op = "cuMemcpyHtoDAsync";
  else if (bytes && src_dev)
    r = cu->api.MemcpyDtoHAsync(dst, (RtCuDeviceptr)(uintptr_t)src, bytes, st),
    op = "cuMemcpyDtoHAsync";
  else if (bytes)
    memcpy(dst, src, bytes);
  if (r != RT_CU_SUCCESS)
    return rt_cuda_check(cu, r, op, NULL, diags);
  return async || rt_cuda_sync_stream(cu, stream, diags);
}

/* --------------------------------------------------------- fast path --- */

/* One argument's record: bits 24-31 the kjit_arg kind + 1, 16-23 the
 * dtype, 8-15 ndim, 0-7 RT_ARGKEY_C | RT_ARGKEY_ALIGN16 | RT_ARGKEY_FITS32 |
 * RT_ARGKEY_READONLY.  0: not fast
 * (a host array, a bad handle). */
static uint32_t arg_record(const kjit_context *ctx, const RtCuda *cu, const kjit_arg *a) {
  if (a->kind != KJIT_ARG_ARRAY) {
    RtDtype dt = a->kind == KJIT_ARG_INT64    ? RT_I64
                 : a->kind == KJIT_ARG_FLOAT64 ? RT_F64
                 : a->kind == KJIT_ARG_SCALAR && (unsigned)a->dtype < RT_NDTYPES
                     ? (RtDtype)a->dtype
                     : RT_NDTYPES;
    if (a->kind == KJIT_ARG_POINTER) /* the pointee's dtype */
      dt = (unsigned)a->dtype < RT_NDTYPES ? (RtDtype)a->dtype : RT_NDTYPES;
    return dt == RT_NDTYPES ? 0 : ((uint32_t)a->kind + 1) << 24 | (uint32_t)dt << 16;
  }
  const kjit_array *h = a->value.array;
  if (!h || h->magic != RT_ARRAY_LIVE || !h->device || h->ctx != ctx || h->epoch != cu->resets ||
      h->a.ndim < 1)
    return 0;
  uint32_t flags = ((uintptr_t)h->a.data % 16 == 0 ? RT_ARGKEY_ALIGN16 : 0) |
                   (rt_array_is_c_contiguous(&h->a) ? RT_ARGKEY_C : 0) |
                   (rt_array_fits32(&h->a) ? RT_ARGKEY_FITS32 : 0) |
                   (h->a.readonly ? RT_ARGKEY_READONLY : 0); /* as rt_spec_key */
  return 1u << 24 | (uint32_t)h->a.dtype << 16 | (uint32_t)h->a.ndim << 8 | flags;
}

void rt_cuda_remember_fast(kjit_kernel *k, RtCudaSpec *spec, const kjit_arg *args, int nargs,
                           void *stream) {
  kjit_context *ctx = k->prog->ctx;
  RtCuda *cu = ctx->cuda;
  if (!cu || nargs > RT_CUDA_MAX_ARGS || spec->m.cooperative) /* checked per launch */
    return;
  if (!k->fast && !(k->fast = arena_alloc(&k->prog->arena, sizeof *k->fast)))
    return;
  RtCudaFast *f = k->fast;
  f->spec = NULL;                               /* unusable until complete */
  for (int i = 0; i < nargs; i++)
    if (!(f->rec[i] = arg_record(ctx, cu, &args[i])))
      return;
  f->nargs = nargs;
  f->stream = stream;                           /* checked by the launch that ran */
  f->streams_destroyed = ctx->api.streams_destroyed;
  f->epoch = cu->resets;
  f->spec = spec;
}

/* The geometry checks of kjit_launch and the device's limits, without
 * messages (a failure takes the full path, which reports). */
static bool fast_geometry(const RtCuda *cu, const RtCudaModule *m, const kjit_launch_config *c) {
  const RtCudaDeviceInfo *d = &cu->info;
  for (int i = 0; i < 3; i++)
    if (c->grid[i] == 0 || c->block[i] == 0 || c->grid[i] > (uint32_t)d->max_grid[i] ||
        c->block[i] > (uint32_t)d->max_block[i])
      return false;
  uint64_t n = (uint64_t)c->block[0] * c->block[1] * c->block[2];
  return n <= RT_HOST_MAX_THREADS && n <= (uint64_t)d->max_threads_per_block &&
         (m->max_threads <= 0 || n <= (uint64_t)m->max_threads) &&
         c->shared_bytes <= RT_HOST_MAX_SHARED &&
         c->shared_bytes + (size_t)m->static_shared <= RT_CUDA_STATIC_SHARED_LIMIT;
}

bool rt_cuda_fast_launch(kjit_kernel *k, const kjit_launch_config *cfg, const kjit_arg *args,
                         int nargs) {
  const RtCudaFast *f = k->fast;
  kjit_context *ctx = k->prog->ctx;
  RtCuda *cu = ctx->cuda;
  if (!f->spec || !cfg || !cu || f->epoch != cu->resets || nargs != f->nargs ||
      (nargs && !args) || cfg->stream != f->stream ||
      (cfg->stream && f->streams_destroyed != ctx->api.streams_destroyed) || cfg->repeat > 1 || cfg->use_graph ||
      ctx->api.target != KJIT_TARGET_CUDA || cu->dead)
    return false;
  RtCudaSpec *s = f->spec;
  if (!fast_geometry(cu, &s->m, cfg) ||
      s->key.grid32 != (rt_launch_grid32(cfg->grid, cfg->block) && !s->raw_pointers))
    return false;                               /* the other variant: the full path */
  for (int i = 0; i < nargs; i++) {
    const kjit_arg *a = &args[i];
    if (arg_record(ctx, cu, a) != f->rec[i])
      return false;
    unsigned char *dst = s->argv[i];
    if (a->kind == KJIT_ARG_ARRAY) {
      const RtArray *x = &a->value.array->a;
      uint64_t p = (uint64_t)(uintptr_t)x->data;
      memcpy(dst, &p, 8);
      if (s->raw_pointers)                      /* CUDA C: the pointer alone */
        continue;
      memcpy(dst + 8, x->shape, 8 * (size_t)x->ndim);
      memcpy(dst + 8 + 8 * (size_t)x->ndim, x->strides, 8 * (size_t)x->ndim);
      continue;
    }
    if (a->kind == KJIT_ARG_POINTER) {         /* the address alone */
      uint64_t p = (uint64_t)(uintptr_t)a->value.ptr;
      memcpy(dst, &p, 8);
      continue;
    }
    RtScalar v = {.dtype = (RtDtype)((f->rec[i] >> 16) & 0xff)};
    memcpy(v.v.bytes, a->value.bits, rt_dtype_size(v.dtype));
    if (v.dtype != (RtDtype)s->arg_dtype[i])
      rt_scalar_convert(&v, (RtDtype)s->arg_dtype[i], &v);
    memcpy(dst, v.v.bytes, rt_dtype_size(v.dtype));
    if (v.dtype == RT_BOOL)
      dst[0] = v.v.b ? 1 : 0;
  }
  RtCuContext cur = NULL;
  if ((cu->api.CtxGetCurrent(&cur) != RT_CU_SUCCESS || cur != cu->ctx) &&
      cu->api.CtxSetCurrent(cu->ctx) != RT_CU_SUCCESS)
    return false;
  RtCuResult r = cu->api.LaunchKernel(s->m.fn, cfg->grid[0], cfg->grid[1], cfg->grid[2],
                                      cfg->block[0], cfg->block[1], cfg->block[2],
                                      (unsigned)cfg->shared_bytes,
                                      cfg->stream ? (RtCuStream)cfg->stream : cu->stream, s->argv,
                                      NULL);
  if (r != RT_CU_SUCCESS)
    return false;
  if (s != cu->last_spec) {
    memcpy(cu->last_kernel, s->kernel, sizeof cu->last_kernel);
    cu->last_spec = s;
  }
  if (!cfg->stream)
    cu->pending = true;
  rt_clear_error(ctx);
  ctx->api.compile_ms = ctx->api.copy_ms = ctx->api.run_ms = 0;
  return true;
}

/* No arch given: the present GPU's (the context's device, an open one's
 * first), else sm_80.  Probing loads the driver once per context, never a
 * context. */
const char *rt_default_arch(kjit_context *ctx) {
  if (ctx->cuda) {
    rt_cuda_codegen_arch(ctx->cuda->info.cc_major, ctx->cuda->info.cc_minor, ctx->default_arch,
                         sizeof ctx->default_arch);
  } else if (!ctx->default_arch[0] &&
             !rt_cuda_default_arch(rt_context_ordinal(ctx), ctx->default_arch,
                                   sizeof ctx->default_arch)) {
    snprintf(ctx->default_arch, sizeof ctx->default_arch, "%s", RT_DEFAULT_ARCH);
  }
  return ctx->default_arch;
}

/* ------------------------------------------------ cooperative limit --- */

static bool max_cooperative(const RtPlan *p, int64_t *blocks, Diags *diags) {
  IrFunc *f = p->fn;
  const RtValue *args = p->args;
  int nargs = p->nargs;
  if (!check_arity(f, nargs, diags))
    return false;
  RtCuda *cu = rt_cuda_device(p->prog->ctx, diags);
  if (!cu)
    return false;
  RtCuDeviceptr ptr[RT_CUDA_MAX_ARGS];
  for (int i = 0; i < nargs; i++)               /* as rt_cuda_run keys them */
    ptr[i] = args[i].is_array && rt_plan_on_device(p, i) ? (RtCuDeviceptr)(uintptr_t)args[i].array.data : 0;
  RtValue bound[RT_CUDA_MAX_ARGS];
  double compile_ms = 0;
  /* A cooperative grid is resident at once: at most the SMs' threads
   * (132 * 2048 on an H100), far below 2^31, so the launches this limit is
   * for take the grid32 variant: ask about that one. */
  RtCudaSpec *spec = get_spec(cu, p, ptr, true, true, bound, diags, &compile_ms);
  for (int i = 0; spec && i < nargs; i++)       /* no launch: the converted tuples go */
    if (bound[i].is_tuple)
      free_tuple_elems(&bound[i]);
  uint64_t threads = (uint64_t)p->block[0] * p->block[1] * p->block[2];
  return spec && rt_cuda_max_cooperative_blocks(cu, &spec->m, f->name, threads, p->shared_bytes, blocks,
                                                diags);
}

/* ------------------------------------------------------------ target --- */

/* A plan on the GPU; a launch of the public API with only device arrays
 * and no repeat leaves its specialization on the kernel handle, so the
 * next such launch takes the fast path. */
static bool run_plan(const RtPlan *p, Diags *diags, RtLaunchTiming *t) {
  RtCudaSpec *spec = NULL;
  if (!rt_cuda_run(p, diags, t, &spec))
    return false;
  if (spec && p->kernel && p->repeat == 1)
    rt_cuda_remember_fast(p->kernel, spec, p->raw_args, p->nargs, p->stream);
  return true;
}

static bool sync_context(kjit_context *ctx, Diags *diags) {
  return !ctx->cuda || rt_cuda_sync(ctx->cuda, diags);
}

/* kjit_kernel_prepare: the specialization a launch of p would use,
 * compiled and loaded (keyed by the same device pointers, so alignment
 * matches), and its dynamic shared memory attribute set: a launch of it
 * under graph capture then does nothing but cuLaunchKernel. */
static bool prepare_plan(const RtPlan *p, Diags *diags) {
  if (!check_arity(p->fn, p->nargs, diags))
    return false;
  RtCuda *cu = rt_cuda_device(p->prog->ctx, diags);
  if (!cu)
    return false;
  RtCuDeviceptr ptr[RT_CUDA_MAX_ARGS];
  for (int i = 0; i < p->nargs; i++)
    ptr[i] = p->args[i].is_array && rt_plan_on_device(p, i)
                 ? (RtCuDeviceptr)(uintptr_t)p->args[i].array.data : 0;
  RtValue bound[RT_CUDA_MAX_ARGS];
  double compile_ms = 0;
  RtCudaSpec *spec = get_spec(cu, p, ptr, p->grid32, true, bound, diags, &compile_ms);
  for (int i = 0; spec && i < p->nargs; i++)
    if (bound[i].is_tuple)
      free_tuple_elems(&bound[i]);
  return spec && rt_cuda_make_current(cu, diags) &&
         rt_cuda_check_launch(cu, &spec->m, p->fn->name, p->grid, p->block, p->shared_bytes,
                              diags) &&
         rt_cuda_set_dynamic_shared(cu, spec, p->shared_bytes, diags);
}

const RtTarget rt_cuda_target = {"cuda", run_plan, max_cooperative, sync_context, prepare_plan};
