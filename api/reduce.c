/* reduce.c - kjit_reduction: whole-array reductions with a @cuda.reduce
 * function (include/kjit.h), on either target.
 *
 * The kernels come from ir/reduce.c, generated once per (function, dtype)
 * into the program; this file picks the launch geometry and drives them
 * through the public launch API, so specialization, caching, argument
 * checks and error messages are the ones every kernel gets.  At most two
 * launches: pass 1 leaves one partial per block, pass 2 (one block) folds
 * the partials and init into one value that is read back to the host. */
#include <string.h>

#include "common/suggest.h"
#include "ir/ir.h"
#include "lower/reduce.h"
#include "api/api_internal.h"
#include "host/launch.h"

#define RT_REDUCTION_MAGIC 0x6b6a5264u /* "kjRd" */

/* Launch geometry.  CUDA: 256-thread blocks, at most 1024 of them (about
 * eight per SM on an H100/H200, enough loads in flight to saturate
 * memory), and a 1024-thread block for pass 2 or for arrays small enough
 * that one block reads them faster than two launches would.  CPU: chunks
 * of at least 16384 elements, at most 256 of them. */
enum {
  CUDA_BLOCK = 256,
  CUDA_MAX_BLOCKS = 1024,
  CUDA_ONE_BLOCK = 1024,
  CUDA_ONE_BLOCK_MAX_N = 8192,
  CPU_MIN_CHUNK = 16384,
  CPU_MAX_CHUNKS = 256,
};

typedef struct ReduceDtype {
  bool made;             /* kernels generated for this dtype */
  IrReduceKernels k;
  kjit_kernel cuda, cpu; /* launch handles onto k's kernels */
  kjit_array *part, *out; /* CUDA scratch: CUDA_MAX_BLOCKS partials and the
                            result, made on first use (a cuMemAlloc per call
                            would cost more than a small reduction) and
                            released with the program */
} ReduceDtype;

struct kjit_reduction {
  uint32_t magic;        /* RT_REDUCTION_MAGIC */
  kjit_program *prog;    /* owner; the handle lives in its arena */
  IrFunc *fn;            /* the @cuda.reduce function */
  kjit_reduction *next;  /* in prog->reductions */
  ReduceDtype by_dtype[RT_NDTYPES];
};

static bool is_reduction(const kjit_reduction *r) { return r && r->magic == RT_REDUCTION_MAGIC; }

IrFunc *rt_find_generated(const kjit_program *prog, const char *name) {
  for (const kjit_reduction *r = prog->reductions; r; r = r->next)
    for (int d = 0; d < RT_NDTYPES; d++) {
      const ReduceDtype *e = &r->by_dtype[d];
      if (e->made && strcmp(e->k.cuda->name, name) == 0)
        return e->k.cuda;
      if (e->made && strcmp(e->k.cpu->name, name) == 0)
        return e->k.cpu;
    }
  return NULL;
}

void rt_reduce_program_free(kjit_program *prog) {
  for (kjit_reduction *r = prog->reductions; r; r = r->next)
    for (int d = 0; d < RT_NDTYPES; d++) {
      kjit_array_destroy(r->by_dtype[d].part);
      kjit_array_destroy(r->by_dtype[d].out);
      r->by_dtype[d].part = r->by_dtype[d].out = NULL;
    }
}

/* ------------------------------------------------------------ finding --- */

static void report_not_reduction(kjit_program *prog, const char *name, RtCall *call) {
  const IrProgram *ir = &prog->ir;
  const char **names = arena_alloc(&call->arena, sizeof *names * (size_t)(ir->funcs.len + 1));
  int n = 0;
  for (int i = 0; i < ir->funcs.len; i++)
    if (ir->funcs.data[i]->is_reduce)
      names[n++] = ir->funcs.data[i]->name;
  IrFunc *f = ir_find_func(&prog->ir, name);
  const char *near = suggest_closest(name, names, n);
  if (f)
    diag_error(&call->diags, RT_E_NO_KERNEL, f->ast ? f->ast->loc : (SrcLoc){0},
               f->is_kernel ? "launch it with kjit_launch" : "call it with kjit_call",
               "'%s' is a %s, not a @cuda.reduce function", name,
               f->is_kernel ? "kernel" : "device function");
  else
    diag_error(&call->diags, RT_E_NO_KERNEL, (SrcLoc){0},
               near ? arena_printf(&call->arena, "did you mean '%s'?", near) : NULL,
               "no @cuda.reduce function named '%s' in %s", name, prog->src.path);
}

kjit_status kjit_program_reduction(kjit_program *prog, const char *name, kjit_reduction **out) {
  if (!rt_program_live(prog) || !name || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, prog->ctx);
  for (kjit_reduction *r = prog->reductions; r; r = r->next)
    if (strcmp(r->fn->name, name) == 0) {
      *out = r;
      return rt_finish(&call, KJIT_OK);
    }
  IrFunc *f = ir_find_func(&prog->ir, name);
  if (!f || !f->is_reduce) {
    report_not_reduction(prog, name, &call);
    return rt_finish(&call, KJIT_ERROR_NOT_FOUND);
  }
  kjit_reduction *r = arena_alloc(&prog->arena, sizeof *r);
  memset(r, 0, sizeof *r);
  r->magic = RT_REDUCTION_MAGIC;
  r->prog = prog;
  r->fn = f;
  r->next = prog->reductions;
  prog->reductions = r;
  *out = r;
  return rt_finish(&call, KJIT_OK);
}

/* ------------------------------------------------------------ checking -- */

static bool fail(RtCall *call, const char *hint, const char *msg, const char *name) {
  diag_error(&call->diags, RT_E_ARGUMENT, (SrcLoc){0}, hint, msg, name);
  return false;
}

/* The array (live, of r's context, 1-d) and init (a scalar). */
static bool check_args(kjit_reduction *r, kjit_array *a, const kjit_arg *init, RtCall *call) {
  const char *name = r->fn->name;
  if (!rt_array_is_live(a) || a->ctx != r->prog->ctx)
    return fail(call, NULL, "reduction '%s': the array is NULL, destroyed or of another context",
                name);
  if (a->a.ndim != 1) {
    diag_error(&call->diags, RT_E_LAUNCH_ARGS, (SrcLoc){0},
               "reductions take 1-d arrays, as in Numba; reduce a flattened view of the data",
               "reduction '%s' takes a 1-d array, not one of %d dimensions", name, a->a.ndim);
    return false;
  }
  if (init && init->kind == KJIT_ARG_ARRAY)
    return fail(call, "pass a number (kjit_arg_i64, kjit_arg_f64 or kjit_arg_scalar)",
                "reduction '%s': init must be a scalar, not an array", name);
  return true;
}

/* The kernels for dtype dt, generated on first use. */
static ReduceDtype *kernels_for(kjit_reduction *r, RtDtype dt, RtCall *call) {
  ReduceDtype *e = &r->by_dtype[dt];
  if (e->made)
    return e;
  kjit_program *p = r->prog;
  if (!ir_reduce_kernels(&p->ir, r->fn, rt_dtype_type(dt), &call->diags, &e->k))
    return NULL;
  e->cuda = (kjit_kernel){RT_KERNEL_MAGIC, p, e->k.cuda, NULL};
  e->cpu = (kjit_kernel){RT_KERNEL_MAGIC, p, e->k.cpu, NULL};
  e->made = true;
  return e;
}

/* ------------------------------------------------------------ running --- */

static kjit_status launch_on(kjit_kernel *k, uint32_t grid, uint32_t block, const kjit_arg *args,
                             int nargs, void *stream) {
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = grid;
  cfg.block[0] = block;
  cfg.stream = stream;
  return kjit_launch(k, &cfg, args, nargs);
}

static kjit_status launch(kjit_kernel *k, uint32_t grid, uint32_t block, const kjit_arg *args,
                          int nargs) {
  return launch_on(k, grid, block, args, nargs, NULL);
}

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* CPU: chunks folded in parallel into `part`, then in order into res. */
static kjit_status reduce_cpu(ReduceDtype *e, kjit_array *a, kjit_arg init, kjit_array *res) {
  int64_t n = a->a.shape[0];
  int64_t chunk = cdiv(n, CPU_MAX_CHUNKS);
  chunk = chunk < CPU_MIN_CHUNK ? CPU_MIN_CHUNK : chunk;
  if (n <= chunk) {
    kjit_arg args[] = {kjit_arg_array(a), kjit_arg_array(res), init, kjit_arg_i64(1),
                       kjit_arg_i64(n)};
    return launch(&e->cpu, 1, 1, args, 5);
  }
  int64_t nparts = cdiv(n, chunk);
  kjit_array *part;
  kjit_status st = kjit_array_create(a->ctx, (kjit_dtype)a->a.dtype, 1, &nparts, &part);
  if (st != KJIT_OK)
    return st;
  kjit_arg pass1[] = {kjit_arg_array(a), kjit_arg_array(part), init, kjit_arg_i64(0),
                      kjit_arg_i64(chunk)};
  kjit_arg pass2[] = {kjit_arg_array(part), kjit_arg_array(res), init, kjit_arg_i64(1),
                      kjit_arg_i64(nparts)};
  st = launch(&e->cpu, (uint32_t)nparts, 1, pass1, 5);
  if (st == KJIT_OK)
    st = launch(&e->cpu, 1, 1, pass2, 5);
  kjit_array_destroy(part);
  return st;
}

/* Device scratch of e for nb partials (0: none): the arrays are kept
 * while the sizes fit, remade when a device reset made them stale. */
static kjit_status scratch(ReduceDtype *e, kjit_context *ctx, kjit_dtype dt, int64_t nb) {
  int64_t one = 1;
  kjit_status st = KJIT_OK;
  if (e->out && kjit_array_is_device(e->out) != 1) {
    kjit_array_destroy(e->out);
    e->out = NULL;
  }
  if (e->part && (kjit_array_is_device(e->part) != 1 || (nb && kjit_array_size(e->part) != nb))) {
    kjit_array_destroy(e->part);
    e->part = NULL;
  }
  if (!e->out)
    st = kjit_array_create_device(ctx, dt, 1, &one, &e->out);
  if (st == KJIT_OK && nb && !e->part)
    st = kjit_array_create_device(ctx, dt, 1, &nb, &e->part);
  return st;
}

/* CUDA, on a device array: one block for small arrays, else a grid of
 * blocks (each with at least one element: at most cdiv(n, CUDA_BLOCK)) then
 * one block over the partials.  The launches are queued; the copy to res
 * waits for them. */
static kjit_status reduce_cuda_dev(ReduceDtype *e, kjit_array *a, kjit_arg init, kjit_array *res,
                                   void *stream) {
  int64_t n = a->a.shape[0], nb = 0;
  if (n > CUDA_ONE_BLOCK_MAX_N)
    nb = cdiv(n, CUDA_BLOCK) > CUDA_MAX_BLOCKS ? CUDA_MAX_BLOCKS : cdiv(n, CUDA_BLOCK);
  kjit_status st = scratch(e, a->ctx, (kjit_dtype)a->a.dtype, nb);
  kjit_array *in = a;
  if (st == KJIT_OK && nb) {
    kjit_arg pass1[] = {kjit_arg_array(a), kjit_arg_array(e->part), init, kjit_arg_i64(0)};
    st = launch_on(&e->cuda, (uint32_t)nb, CUDA_BLOCK, pass1, 4, stream);
    in = e->part;
  }
  kjit_arg last[] = {kjit_arg_array(in), kjit_arg_array(e->out), init, kjit_arg_i64(1)};
  if (st == KJIT_OK)
    st = launch_on(&e->cuda, 1, CUDA_ONE_BLOCK, last, 4, stream);
  if (st == KJIT_OK && !stream)
    return kjit_array_copy(res, e->out);
  if (st == KJIT_OK)                            /* that stream alone is waited for */
    st = kjit_array_copy_async(res, e->out, stream);
  if (st == KJIT_OK)
    st = kjit_stream_synchronize(a->ctx, stream);
  return st;
}

static bool c_contiguous(const kjit_array *a) {
  return a->a.shape[0] <= 1 || a->a.strides[0] == (int64_t)rt_dtype_size(a->a.dtype);
}

/* CUDA: a contiguous host array is copied to the device once (a strided
 * one is handed to the launches as it is, which copy it themselves). */
static kjit_status reduce_cuda(ReduceDtype *e, kjit_array *a, kjit_arg init, kjit_array *res,
                               void *stream) {
  if (a->device || !c_contiguous(a))
    return reduce_cuda_dev(e, a, init, res, stream);
  kjit_array *d;
  kjit_status st = kjit_array_to_device(a->ctx, a, &d);
  if (st != KJIT_OK)
    return st;
  st = reduce_cuda_dev(e, d, init, res, stream);
  kjit_array_destroy(d);
  return st;
}

/* The one element of a host array as a tagged value. */
static void take_value(const kjit_array *res, kjit_value *out) {
  const void *p = res->a.data;
  memset(out, 0, sizeof *out);
  out->dtype = (kjit_dtype)res->a.dtype;
  switch (res->a.dtype) {
  case RT_I8: out->value.i64 = *(const int8_t *)p; break;
  case RT_I16: out->value.i64 = *(const int16_t *)p; break;
  case RT_I32: out->value.i64 = *(const int32_t *)p; break;
  case RT_I64: out->value.i64 = *(const int64_t *)p; break;
  case RT_U8: out->value.u64 = *(const uint8_t *)p; break;
  case RT_U16: out->value.u64 = *(const uint16_t *)p; break;
  case RT_U32: out->value.u64 = *(const uint32_t *)p; break;
  case RT_U64: out->value.u64 = *(const uint64_t *)p; break;
  case RT_F32: out->value.f32 = *(const float *)p; break;
  case RT_F64: out->value.f64 = *(const double *)p; break;
  default: out->value.b = *(const unsigned char *)p != 0; break;
  }
}

/* Checks and kernel generation under one RtCall; then the launches, each a
 * public call that leaves its own error on the context. */
kjit_status kjit_reduce(kjit_reduction *r, kjit_array *array, const kjit_arg *init,
                        kjit_value *result) {
  return kjit_reduce_on_stream(r, array, init, NULL, result);
}

kjit_status kjit_reduce_on_stream(kjit_reduction *r, kjit_array *array, const kjit_arg *init,
                                  void *stream, kjit_value *result) {
  if (!is_reduction(r) || !result)
    return KJIT_ERROR_INVALID_ARGUMENT;
  kjit_context *ctx = r->prog->ctx;
  RtCall call;
  rt_begin(&call, ctx);
  ReduceDtype *e = check_args(r, array, init, &call) ? kernels_for(r, array->a.dtype, &call) : NULL;
  kjit_status st = rt_finish(&call, e ? KJIT_OK : rt_status_of(&call.diags));
  kjit_target target;
  if (st == KJIT_OK)
    st = kjit_context_target(ctx, &target);
  if (st != KJIT_OK)
    return st;
  kjit_arg init_arg = init ? *init : kjit_arg_i64(0);
  int64_t one = 1;
  kjit_array *res;
  if ((st = kjit_array_create(ctx, (kjit_dtype)array->a.dtype, 1, &one, &res)) != KJIT_OK)
    return st;
  st = target == KJIT_TARGET_CUDA ? reduce_cuda(e, array, init_arg, res, stream)
                                  : reduce_cpu(e, array, init_arg, res);
  if (st == KJIT_OK)
    take_value(res, result);
  kjit_array_destroy(res);
  return st;
}
