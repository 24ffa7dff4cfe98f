/* cuda_launch.c - the GPU launch path: the specialization table, argument
 * packing into preallocated slots, the launch checks, timed launches (CUDA
 * events, optionally one CUDA graph), device memory, fault recovery.
 *
 * Fast path (LESSONS.md "Launch"): a launch builds a fixed-width key (one
 * 4-byte record per argument: array or scalar, dtype, ndim, C-contiguity,
 * 16-byte alignment of the data, whether it fits 32-bit indexing) and, set
 * by the launch, whether its geometry fits 32-bit grid indices
 * (RtSpecKey.grid32), finds the loaded specialization in the
 * specialization table (runtime/spec_table.h), writes the arguments into the spec's slots and
 * calls cuLaunchKernel with the spec's argv: no allocation, no hashing of
 * source.  Keys compare by their meaningful prefix only, so stale bytes past
 * nargs never matter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "cuda/cuda.h"

/* --------------------------------------------------------------- keys --- */

static size_t key_bytes(const RtSpecKey *k) {
  return offsetof(RtSpecKey, args) + (size_t)k->nargs * sizeof(RtArgKey);
}

void rt_spec_key(RtSpecKey *k, const void *prog, const void *owner, const RtValue *args,
                 const RtCuDeviceptr *dptrs, int nargs) {
  memset(k, 0, offsetof(RtSpecKey, args)); /* keys are hashed and compared as bytes */
  k->owner = owner;
  k->prog = prog;
  k->nargs = nargs > RT_CUDA_MAX_ARGS ? RT_CUDA_MAX_ARGS : nargs;
  for (int i = 0; i < k->nargs; i++) {
    const RtValue *v = &args[i];
    RtArgKey *a = &k->args[i];
    memset(a, 0, sizeof *a);
    a->is_array = v->is_array;
    a->dtype = (uint8_t)(v->is_array ? v->array.dtype : v->is_ptr ? v->ptr_dtype : v->scalar.dtype);
    a->ndim = (uint8_t)(v->is_array ? v->array.ndim : 0);
    a->flags = 0;
    if (v->is_array && rt_array_is_c_contiguous(&v->array))
      a->flags |= RT_ARGKEY_C;
    if (v->is_array && (!dptrs || dptrs[i] % 16 == 0)) /* NULL: fresh buffers */
      a->flags |= RT_ARGKEY_ALIGN16;
    if (rt_value_fits32(v))
      a->flags |= RT_ARGKEY_FITS32;
    if (v->is_array && v->array.readonly)
      a->flags |= RT_ARGKEY_READONLY;
    if (v->is_ptr)
      a->flags |= RT_ARGKEY_PTR;
  }
}

/* -------------------------------------------------------------- table --- */

RtCudaSpec *rt_spec_find(const RtSpecTable *t, const RtSpecKey *k) {
  return rt_spec_table_find(t, k, key_bytes(k));
}

bool rt_spec_insert(RtSpecTable *t, RtCudaSpec *spec) {
  return rt_spec_table_insert(t, &spec->key, key_bytes(&spec->key), spec);
}

static void spec_free(RtCudaSpec *s, RtCuda *cu) {
  rt_cuda_module_unload(cu, &s->m);
  free(s->slots);
  free(s);
}

/* rt_spec_table_remove's drop: unloads and frees a spec of prog (every
 * spec when prog is NULL). */
typedef struct Forget {
  RtCuda *cu;
  const void *prog;
} Forget;

static bool forget(void *entry, void *data) {
  RtCudaSpec *s = entry;
  const Forget *f = data;
  if (f->prog && s->key.prog != f->prog)
    return false;
  spec_free(s, f->cu);
  return true;
}

void rt_spec_clear(RtSpecTable *t, RtCuda *cu) {
  Forget f = {cu, NULL};
  rt_spec_table_remove(t, forget, &f);
}

void rt_spec_forget_program(RtSpecTable *t, RtCuda *cu, const void *prog) {
  Forget f = {cu, prog};
  rt_spec_table_remove(t, forget, &f);
}

bool rt_spec_prepare_slots(RtCudaSpec *spec) {
  spec->slots = calloc(1, spec->m.params_size ? spec->m.params_size : 1);
  if (!spec->slots)
    return false;
  for (int i = 0; i < spec->m.nparams; i++)
    spec->argv[i] = spec->slots + spec->m.params[i].offset;
  return true;
}

/* ------------------------------------------------------------ packing --- */

/* Size and alignment of a value as the kernel's LLVM struct lays it out:
 * arrays {ptr, shape[N], strides[N]}, complex {re, im}, tuples as C structs
 * (an empty tuple inside a tuple has no bytes). */
static uint32_t value_align(const RtValue *v) {
  if (v->is_array)
    return 8;
  if (v->is_tuple) {
    uint32_t a = 1;
    for (int i = 0; i < v->nelems; i++) {
      uint32_t e = value_align(&v->elems[i]);
      a = e > a ? e : a;
    }
    return a;
  }
  size_t n = rt_dtype_size(v->scalar.dtype);
  return (uint32_t)(rt_dtype_is_complex(v->scalar.dtype) ? n / 2 : n);
}

static uint32_t round_up(uint32_t n, uint32_t a) { return (n + a - 1) / a * a; }

static uint32_t inner_size(const RtValue *v) {
  if (v->is_array)
    return 8u + 16u * (uint32_t)v->array.ndim;
  if (!v->is_tuple)
    return (uint32_t)rt_dtype_size(v->scalar.dtype);
  uint32_t off = 0;
  for (int i = 0; i < v->nelems; i++)
    off = round_up(off, value_align(&v->elems[i])) + inner_size(&v->elems[i]);
  return round_up(off, value_align(v));
}

static uint32_t value_size(const RtValue *v) {
  if (v->is_tuple && inner_size(v) == 0)
    return 1; /* an empty tuple parameter: one ignored byte (codegen) */
  return inner_size(v);
}

static void pack_one(unsigned char *dst, const RtValue *v, RtCuDeviceptr dptr);

/* A tuple's elements at their offsets; array elements take the next device
 * copy from leaves. */
static void pack_tuple(unsigned char *dst, const RtValue *v, const RtCuDeviceptr *leaves, int *next) {
  uint32_t off = 0;
  for (int i = 0; i < v->nelems; i++) {
    const RtValue *e = &v->elems[i];
    off = round_up(off, value_align(e));
    if (e->is_tuple)
      pack_tuple(dst + off, e, leaves, next);
    else
      pack_one(dst + off, e, e->is_array ? leaves[(*next)++] : 0);
    off += inner_size(e);
  }
}

static void pack_one(unsigned char *dst, const RtValue *v, RtCuDeviceptr dptr) {
  if (!v->is_array) {
    memcpy(dst, v->scalar.v.bytes, rt_dtype_size(v->scalar.dtype));
    if (v->scalar.dtype == RT_BOOL)
      dst[0] = v->scalar.v.b ? 1 : 0;
    return;
  }
  int n = v->array.ndim;
  uint64_t ptr = dptr;
  memcpy(dst, &ptr, 8);
  memcpy(dst + 8, v->array.shape, 8 * (size_t)n);
  memcpy(dst + 8 + 8 * (size_t)n, v->array.strides, 8 * (size_t)n);
}

bool rt_cuda_pack_args(RtCudaSpec *spec, const RtValue *args, const RtCuDeviceptr *dptrs,
                       int nargs, Diags *diags) {
  if (nargs != spec->m.nparams) {
    diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, NULL,
               "kernel '%s' was compiled with %d parameters but launched with %d arguments",
               spec->kernel, spec->m.nparams, nargs);
    return false;
  }
  int next = 0; /* the next tuple array leaf */
  for (int i = 0; i < nargs; i++) {
    uint32_t want = spec->m.params[i].size, have = value_size(&args[i]);
    if (spec->raw_pointers && args[i].is_array) /* CUDA C: T *p */
      have = 8;
    if (want != have) {
      diag_error(diags, E_INTERNAL, (SrcLoc){0}, NULL,
                 "argument %d of kernel '%s' packs to %u bytes but its PTX parameter has %u "
                 "(a bug in kjit)", i + 1, spec->kernel, have, want);
      return false;
    }
    if (args[i].is_tuple) {
      memset(spec->argv[i], 0, want);
      pack_tuple(spec->argv[i], &args[i], spec->leaves, &next);
    } else if (spec->raw_pointers && args[i].is_array) {
      uint64_t p = dptrs ? dptrs[i] : 0;
      memcpy(spec->argv[i], &p, 8);
    } else {
      pack_one(spec->argv[i], &args[i], dptrs ? dptrs[i] : 0);
    }
  }
  return true;
}

void rt_cuda_set_tuple_leaves(RtCudaSpec *spec, const RtCuDeviceptr *leaves, int n) {
  spec->leaves = leaves;
  spec->nleaves = n;
}

/* ------------------------------------------------------------- checks --- */

static bool check_dims(const char *what, const char *kernel, const uint32_t d[3],
                       const int max[3], Diags *diags) {
  static const char xyz[] = "xyz";
  for (int i = 0; i < 3; i++) {
    if (d[i] == 0) {
      diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, "every dimension must be at least 1",
                 "%s (%u, %u, %u) of kernel '%s' has zero %s", what, d[0], d[1], d[2], kernel,
                 what[0] == 'g' ? "blocks" : "threads");
      return false;
    }
    if (max[i] > 0 && d[i] > (uint32_t)max[i]) {
      diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, NULL,
                 "%s.%c = %u of kernel '%s' exceeds the device's limit of %d", what, xyz[i],
                 d[i], kernel, max[i]);
      return false;
    }
  }
  return true;
}

static bool check_threads(const RtCuda *cu, const RtCudaModule *m, const char *kernel,
                          const uint32_t block[3], Diags *diags) {
  uint64_t n = (uint64_t)block[0] * block[1] * block[2];
  int dev = cu->info.max_threads_per_block, fn = m ? m->max_threads : 0;
  if (dev > 0 && n > (uint64_t)dev) {
    diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, NULL,
               "block of %llu threads for kernel '%s' exceeds the device's limit of %d",
               (unsigned long long)n, kernel, dev);
    return false;
  }
  if (fn > 0 && n > (uint64_t)fn) {
    diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0},
               "use smaller blocks, or limit registers (max_registers=...)",
               "block of %llu threads for kernel '%s' exceeds its limit of %d (register use)",
               (unsigned long long)n, kernel, fn);
    return false;
  }
  return true;
}

static bool check_shared(const RtCuda *cu, const RtCudaModule *m, const char *kernel,
                         size_t dyn_shared, Diags *diags) {
  size_t stat = m ? (size_t)m->static_shared : 0, limit = (size_t)cu->info.max_shared_optin;
  if (limit && stat + dyn_shared > limit) {
    diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0}, NULL,
               "kernel '%s' needs %zu bytes of shared memory per block (%zu static + %zu "
               "dynamic); the device allows %zu", kernel, stat + dyn_shared, stat, dyn_shared,
               limit);
    return false;
  }
  return true;
}

bool rt_cuda_check_launch(const RtCuda *cu, const RtCudaModule *m, const char *kernel,
                          const uint32_t grid[3], const uint32_t block[3], size_t dyn_shared,
                          Diags *diags) {
  return check_dims("grid", kernel, grid, cu->info.max_grid, diags) &&
         check_dims("block", kernel, block, cu->info.max_block, diags) &&
         check_threads(cu, m, kernel, block, diags) &&
         check_shared(cu, m, kernel, dyn_shared, diags);
}

/* ------------------------------------------------------------- memory --- */

bool rt_cuda_alloc(RtCuda *cu, size_t bytes, RtCuDeviceptr *p, const char *what, Diags *diags) {
  *p = 0;
  if (!rt_cuda_make_current(cu, diags))
    return false;
  RtCuResult r = cu->api.MemAlloc(p, bytes ? bytes : 1);
  if (r == RT_CU_SUCCESS)
    return true;
  *p = 0;
  if (r == RT_CU_ERROR_OUT_OF_MEMORY) {
    diag_error(diags, RT_E_CUDA_NOMEM, (SrcLoc){0}, NULL,
               "out of device memory allocating %zu bytes for %s", bytes, what);
    return false;
  }
  return rt_cuda_check(cu, r, "cuMemAlloc", NULL, diags);
}

void rt_cuda_free(RtCuda *cu, RtCuDeviceptr p) {
  if (p)
    cu->api.MemFree(p);
}

/* ------------------------------------------------------------ recovery --- */

/* cuDevicePrimaryCtxReset destroys every module, allocation, stream and
 * event of the context but does not release our reference, and the
 * thread's current context still names the dead one: release our
 * reference, retain the primary context afresh, make it current (after
 * unbinding, in case the driver hands back the same handle), recreate the
 * stream.  cu->resets counts the epochs: device arrays and cached
 * specializations of an older epoch are invalid. */
bool rt_cuda_recover(RtCuda *cu, Diags *diags) {
  rt_spec_clear(&cu->specs, NULL);              /* the reset unloads every module */
  cu->last_spec = NULL;
  cu->stream = NULL;
  cu->pending = false;
  cu->resets++;
  /* Unbind and drop our reference before the reset: a reset context
   * released afterwards leaves the device's sticky error in place. */
  cu->api.CtxSetCurrent(NULL);
  RtCuResult r;
  const char *op;
  if (cu->kind == RT_CTX_OWN) {                 /* kjit's own: destroyed and made anew */
    if (cu->ctx)
      cu->api.CtxDestroy(cu->ctx);
    cu->ctx = NULL;
    op = "cuCtxCreate";
    if ((r = cu->api.CtxCreate(&cu->ctx, 0, cu->dev)) != RT_CU_SUCCESS)
      cu->ctx = NULL;
  } else {
    if (cu->ctx)
      cu->api.DevicePrimaryCtxRelease(cu->dev);
    cu->ctx = NULL;
    r = cu->api.DevicePrimaryCtxReset(cu->dev);
    op = "cuDevicePrimaryCtxReset";
    if (r == RT_CU_SUCCESS && (r = cu->api.DevicePrimaryCtxRetain(&cu->ctx, cu->dev)) != RT_CU_SUCCESS)
      op = "cuDevicePrimaryCtxRetain", cu->ctx = NULL;
  }
  if (r == RT_CU_SUCCESS && (r = cu->api.CtxSetCurrent(cu->ctx)) != RT_CU_SUCCESS)
    op = "cuCtxSetCurrent";
  if (r == RT_CU_SUCCESS &&
      (r = cu->api.StreamCreate(&cu->stream, RT_CU_STREAM_NON_BLOCKING)) != RT_CU_SUCCESS)
    op = "cuStreamCreate";
  if (r == RT_CU_SUCCESS)
    return true;
  /* Some drivers keep the fault for the whole process (docs/cuda.md,
   * "Faults"): say so plainly rather than echo the fault's own text. */
  const char *name = NULL;
  if (cu->api.GetErrorName(r, &name) != RT_CU_SUCCESS || !name)
    name = "?";
  diag_error(diags, RT_E_CUDA_DRIVER, (SrcLoc){0},
             "the driver keeps this fault for the whole process: restart the process to use the "
             "GPU again (a new process gets a working device)",
             "the CUDA context could not be recreated after the fault (%s: %s)", op, name);
  return false;
}

/* ------------------------------------------------------------ launches --- */

bool rt_cuda_set_dynamic_shared(RtCuda *cu, RtCudaSpec *s, size_t dyn, Diags *diags) {
  if (dyn + (size_t)s->m.static_shared <= RT_CUDA_STATIC_SHARED_LIMIT ||
      (int)dyn <= s->m.dyn_shared_set)
    return true;
  if (!rt_cuda_check(cu, cu->api.FuncSetAttribute(s->m.fn, RT_CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                  (int)dyn),
                     "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", s->kernel, diags))
    return false;
  s->m.dyn_shared_set = (int)dyn;
  return true;
}

static RtCuResult launch_once(RtCuda *cu, RtCudaSpec *s, RtCuStream st, const uint32_t g[3],
                              const uint32_t b[3], size_t dyn) {
  if (s->m.cooperative)
    return cu->api.LaunchCooperativeKernel(s->m.fn, g[0], g[1], g[2], b[0], b[1], b[2], (unsigned)dyn,
                                           st, s->argv);
  return cu->api.LaunchKernel(s->m.fn, g[0], g[1], g[2], b[0], b[1], b[2], (unsigned)dyn,
                              st, s->argv, NULL);
}

/* After a fault: the context is reset and reloaded where the kjit context
 * asked for it (KJIT_FAULT_RESET) and the context is kjit's to reset (the
 * primary one, or its own); otherwise it is left exactly as it is and
 * marked dead, so every later use fails with the reason. */
static void after_fault(RtCuda *cu, const char *kernel, const char *name, Diags *diags) {
  if (cu->reset_on_fault && cu->kind != RT_CTX_FOREIGN) {
    rt_cuda_recover(cu, diags);
    return;
  }
  cu->dead = true;
  cu->pending = false;
  snprintf(cu->dead_why, sizeof cu->dead_why, "kernel '%s' faulted (%s)", kernel, name);
}

/* A failure after the launch was queued: a fault is reported with the
 * kernel's name and the context is reset so that later launches work. */
static bool report_fault(RtCuda *cu, const char *kernel, RtCuResult r, const char *op,
                         Diags *diags) {
  if (!rt_cuda_is_fault(r))
    return rt_cuda_check(cu, r, op, kernel[0] ? kernel : NULL, diags);
  char name[64];
  const char *text = NULL;
  if (cu->api.GetErrorString(r, &text) != RT_CU_SUCCESS)
    text = NULL;
  diag_error(diags, RT_E_CUDA_FAULT, (SrcLoc){0},
             "an out-of-range index is the usual cause: with debug=True (--debug) every index "
             "is checked and the kernel prints the failing one before it traps",
             "kernel '%s' faulted: %s (%s)", kernel[0] ? kernel : "?",
             rt_cu_error_name(&cu->api, r, name, sizeof name), text ? text : "no description");
  after_fault(cu, kernel[0] ? kernel : "?", name, diags);
  return false;
}

static bool report_failure(RtCuda *cu, RtCudaSpec *s, RtCuResult r, const char *op, Diags *diags) {
  return report_fault(cu, s->kernel, r, op, diags);
}

bool rt_cuda_sync(RtCuda *cu, Diags *diags) {
  return rt_cuda_sync_stream(cu, NULL, diags);
}

bool rt_cuda_sync_stream(RtCuda *cu, RtCuStream st, Diags *diags) {
  if (!rt_cuda_make_current(cu, diags))
    return false;
  RtCuResult r = cu->api.StreamSynchronize(st ? st : cu->stream);
  trace_event("stream synchronized");
  if (!st || st == cu->stream)
    cu->pending = false;
  return r == RT_CU_SUCCESS || report_fault(cu, cu->last_kernel, r, "cuStreamSynchronize", diags);
}

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

static void destroy_events(RtCuda *cu, RtCuEvent *ev, int n) {
  for (int i = 0; i < n; i++)
    if (ev[i])
      cu->api.EventDestroy(ev[i]);
  free(ev);
}

static RtCuEvent *create_events(RtCuda *cu, int n, Diags *diags) {
  RtCuEvent *ev = calloc((size_t)n, sizeof *ev);
  if (!ev) {
    diag_error(diags, RT_E_CUDA_NOMEM, (SrcLoc){0}, NULL, "out of memory for %d events", n);
    return NULL;
  }
  for (int i = 0; i < n; i++)
    if (!rt_cuda_check(cu, cu->api.EventCreate(&ev[i], RT_CU_EVENT_DEFAULT), "cuEventCreate", NULL, diags)) {
      destroy_events(cu, ev, n);
      return NULL;
    }
  return ev;
}

/* Median of the n intervals between n+1 recorded events. */
static double median_ms(RtCuda *cu, RtCuEvent *ev, int n) {
  float *t = malloc((size_t)n * sizeof *t);
  if (!t)
    return 0;
  for (int i = 0; i < n; i++)
    if (cu->api.EventElapsedTime(&t[i], ev[i], ev[i + 1]) != RT_CU_SUCCESS)
      t[i] = 0;
  qsort(t, (size_t)n, sizeof *t, cmp_float);
  double m = n % 2 ? t[n / 2] : 0.5 * ((double)t[n / 2 - 1] + t[n / 2]);
  free(t);
  return m;
}

/* repeat launches, an event before each and after the last. */
static bool run_plain(RtCuda *cu, RtCudaSpec *s, RtCuStream st, const uint32_t g[3],
                      const uint32_t b[3], size_t dyn, int repeat, double *ms, Diags *diags) {
  RtCuEvent *ev = create_events(cu, repeat + 1, diags);
  if (!ev)
    return false;
  RtCuResult r = RT_CU_SUCCESS;
  for (int i = 0; i < repeat && r == RT_CU_SUCCESS; i++) {
    cu->api.EventRecord(ev[i], st);
    r = launch_once(cu, s, st, g, b, dyn);
  }
  if (r != RT_CU_SUCCESS) {
    destroy_events(cu, ev, repeat + 1);
    return report_failure(cu, s, r, "cuLaunchKernel", diags);
  }
  cu->api.EventRecord(ev[repeat], st);
  r = cu->api.EventSynchronize(ev[repeat]);
  if (r == RT_CU_SUCCESS)
    *ms = median_ms(cu, ev, repeat);
  unsigned resets = cu->resets;
  bool ok = r == RT_CU_SUCCESS || report_failure(cu, s, r, "running", diags);
  if (resets == cu->resets)                     /* else the reset freed them */
    destroy_events(cu, ev, repeat + 1);
  else
    free(ev);
  return ok;
}

static bool capture(RtCuda *cu, RtCudaSpec *s, RtCuStream st, const uint32_t g[3],
                    const uint32_t b[3], size_t dyn, int repeat, RtCuGraph *graph, Diags *diags) {
  if (!rt_cuda_check(cu, cu->api.StreamBeginCapture(st, RT_CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                     "cuStreamBeginCapture", s->kernel, diags))
    return false;
  RtCuResult r = RT_CU_SUCCESS;
  for (int i = 0; i < repeat && r == RT_CU_SUCCESS; i++)
    r = launch_once(cu, s, st, g, b, dyn);
  RtCuResult e = cu->api.StreamEndCapture(st, graph);
  return rt_cuda_check(cu, r, "cuLaunchKernel (graph capture)", s->kernel, diags) &&
         rt_cuda_check(cu, e, "cuStreamEndCapture", s->kernel, diags);
}

/* Captures the repeat launches into one graph and replays it once. */
static bool run_graph(RtCuda *cu, RtCudaSpec *s, RtCuStream st, const uint32_t g[3],
                      const uint32_t b[3], size_t dyn, int repeat, double *ms, Diags *diags) {
  if (!cu->api.StreamBeginCapture || !cu->api.GraphInstantiate || !cu->api.GraphLaunch) {
    diag_error(diags, RT_E_CUDA_DRIVER, (SrcLoc){0}, "drop --graph",
               "CUDA graphs need a newer driver (cuGraphInstantiateWithFlags, CUDA 11.4)");
    return false;
  }
  RtCuGraph graph = NULL;
  RtCuGraphExec exec = NULL;
  RtCuEvent *ev = NULL;
  bool ok = capture(cu, s, st, g, b, dyn, repeat, &graph, diags) &&
            rt_cuda_check(cu, cu->api.GraphInstantiate(&exec, graph, 0), "cuGraphInstantiate",
                          s->kernel, diags) &&
            (ev = create_events(cu, 2, diags)) != NULL;
  RtCuResult r = RT_CU_SUCCESS;
  if (ok) {
    cu->api.EventRecord(ev[0], st);
    r = cu->api.GraphLaunch(exec, st);
    if (r == RT_CU_SUCCESS)
      r = cu->api.EventRecord(ev[1], st);
    if (r == RT_CU_SUCCESS)
      r = cu->api.EventSynchronize(ev[1]);
    if (r == RT_CU_SUCCESS)
      *ms = median_ms(cu, ev, 1) / repeat;
  }
  unsigned resets = cu->resets;
  if (ok && r != RT_CU_SUCCESS)
    ok = report_failure(cu, s, r, "cuGraphLaunch", diags);
  if (resets == cu->resets) {
    if (ev) destroy_events(cu, ev, 2);
    if (exec) cu->api.GraphExecDestroy(exec);
    if (graph) cu->api.GraphDestroy(graph);
  } else {
    free(ev);
  }
  return ok;
}

bool rt_cuda_max_cooperative_blocks(RtCuda *cu, const RtCudaModule *m, const char *kernel,
                                    uint64_t threads, size_t dyn_shared, int64_t *blocks,
                                    Diags *diags) {
  int per_sm = 0;
  if (!cu->api.LaunchCooperativeKernel || !cu->api.OccupancyMaxActiveBlocksPerMultiprocessor) {
    diag_error(diags, RT_E_CUDA_DRIVER, (SrcLoc){0}, "update the NVIDIA driver",
               "kernel '%s' synchronizes the grid (cuda.cg.this_grid()), which needs "
               "cuLaunchCooperativeKernel; the driver lacks it", kernel);
    return false;
  }
  if (!rt_cuda_check(cu, cu->api.OccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, m->fn, (int)threads,
                                                                           dyn_shared),
                     "cuOccupancyMaxActiveBlocksPerMultiprocessor", kernel, diags))
    return false;
  *blocks = (int64_t)per_sm * (cu->info.sm_count > 0 ? cu->info.sm_count : 1);
  return true;
}

/* A cooperative launch must fit on the device at once (CUDA refuses it
 * otherwise with CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE): said up front,
 * with the limit. */
static bool check_cooperative(RtCuda *cu, const RtCudaSpec *s, const uint32_t grid[3],
                              const uint32_t block[3], size_t dyn, Diags *diags) {
  int64_t max = 0;
  uint64_t n = (uint64_t)grid[0] * grid[1] * grid[2];
  if (!rt_cuda_max_cooperative_blocks(cu, &s->m, s->kernel, (uint64_t)block[0] * block[1] * block[2], dyn,
                                      &max, diags))
    return false;
  if (n <= (uint64_t)max)
    return true;
  diag_error(diags, RT_E_CUDA_LAUNCH, (SrcLoc){0},
             "launch at most that many blocks (kjit_kernel_max_cooperative_grid), or smaller blocks",
             "kernel '%s' synchronizes the grid, so all its %llu blocks must be resident at once; "
             "the device holds at most %lld blocks of %u threads of it",
             s->kernel, (unsigned long long)n, (long long)max, block[0] * block[1] * block[2]);
  return false;
}

bool rt_cuda_launch(RtCuda *cu, RtCudaSpec *spec, RtCuStream stream, const uint32_t grid[3],
                    const uint32_t block[3], size_t dyn_shared, int repeat, bool graph,
                    bool async, double *kernel_ms, Diags *diags) {
  RtCuStream st = stream ? stream : cu->stream;
  *kernel_ms = 0;
  if (repeat < 1)
    repeat = 1;
  if (!rt_cuda_set_dynamic_shared(cu, spec, dyn_shared, diags))
    return false;
  if (spec->m.cooperative && !check_cooperative(cu, spec, grid, block, dyn_shared, diags))
    return false;
  memcpy(cu->last_kernel, spec->kernel, sizeof cu->last_kernel);
  cu->last_spec = spec;
  if (async && repeat == 1 && !graph) {         /* queued; kjit_synchronize waits */
    RtCuResult r = launch_once(cu, spec, st, grid, block, dyn_shared);
    if (r != RT_CU_SUCCESS)
      return report_failure(cu, spec, r, "cuLaunchKernel", diags);
    if (st == cu->stream)
      cu->pending = true;
    return true;
  }
  return graph ? run_graph(cu, spec, st, grid, block, dyn_shared, repeat, kernel_ms, diags)
               : run_plain(cu, spec, st, grid, block, dyn_shared, repeat, kernel_ms, diags);
}
