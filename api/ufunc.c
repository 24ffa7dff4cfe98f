/* ufunc.c - the public API of @vectorize functions: kjit_program_ufunc,
 * kjit_ufunc_call.
 *
 * A call picks the scalar signature (or types the function lazily),
 * broadcasts the shapes as NumPy does, allocates the result, picks a kernel
 * layout (ir/ufunc.h: contiguous with vector accesses, else general over
 * broadcast views whose broadcast dimensions have stride 0), and launches
 * the generated kernel through the target's runner, which specializes and
 * caches it like any lazy kernel.  Generated kernels live in the program's
 * arena, one per layout, named __vectorized_<name>_..., found by the
 * runners through rt_ufunc_kernel_find; they are not listed as kernels. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower/ufunc.h"
#include "cuda/cuda.h"
#include "api/api_internal.h"
#include "host/launch.h"
#include "runtime/plan.h"
#include "runtime/runtime.h"

#define RT_UFUNC_MAGIC 0x6b6a5546u     /* "kjUF" */
#define BLOCK 256                      /* threads per block of every ufunc kernel */
#define WAVES 2                        /* cuda, general kernel: WAVES full waves at most */
#define THREADS_PER_SM 2048            /* resident threads per SM, sm_50 .. sm_90 */
#define MAX_GRID 0x7fffffff            /* blocks per grid in x */

typedef struct UfuncVariant {
  struct UfuncVariant *next;
  UfuncShape shape;
  int sig;                             /* index into eager, -1 lazy */
  IrFunc *kernel;
} UfuncVariant;

struct kjit_ufunc {
  uint32_t magic;                      /* RT_UFUNC_MAGIC */
  kjit_program *prog;                  /* owner; the handle lives in its arena */
  IrFunc *fn;                          /* the scalar function (is_ufunc) */
  kjit_ufunc *next;                    /* in prog->ufuncs */
  UfuncVariant *variants;              /* kernels made so far */
};

static bool is_ufunc(const kjit_ufunc *u) { return u && u->magic == RT_UFUNC_MAGIC; }

IrFunc *rt_ufunc_kernel_find(kjit_program *prog, const char *name) {
  for (kjit_ufunc *u = prog->ufuncs; u; u = u->next)
    for (UfuncVariant *v = u->variants; v; v = v->next)
      if (strcmp(v->kernel->name, name) == 0)
        return v->kernel;
  return NULL;
}

/* ------------------------------------------------------------ handles --- */

static void report_unknown(kjit_program *prog, const char *name, RtCall *call) {
  IrFunc *f = ir_find_func(&prog->ir, name);
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < prog->ir.funcs.len; i++)
    if (prog->ir.funcs.data[i]->is_ufunc)
      sb_printf(&sb, "%s%s", sb.len ? ", " : "@vectorize functions: ", prog->ir.funcs.data[i]->name);
  const char *hint = sb.len ? sb.data : "decorate a scalar function with @vectorize";
  if (f)
    diag_error(&call->diags, RT_E_NO_KERNEL, f->ast ? f->ast->loc : (SrcLoc){0}, hint,
               "'%s' is a %s, not a @vectorize function", name,
               f->is_kernel ? "kernel" : "device function");
  else
    diag_error(&call->diags, RT_E_NO_KERNEL, (SrcLoc){0}, hint,
               "no @vectorize function named '%s' in %s", name, prog->src.path);
  sb_free(&sb);
}

kjit_status kjit_program_ufunc(kjit_program *prog, const char *name, kjit_ufunc **out) {
  if (!rt_program_live(prog) || !name || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, prog->ctx);
  for (kjit_ufunc *u = prog->ufuncs; u; u = u->next)
    if (strcmp(u->fn->name, name) == 0)
      return *out = u, rt_finish(&call, KJIT_OK);
  IrFunc *f = ir_find_func(&prog->ir, name);
  if (!f || !f->is_ufunc) {
    report_unknown(prog, name, &call);
    return rt_finish(&call, KJIT_ERROR_NOT_FOUND);
  }
  kjit_ufunc *u = arena_alloc(&prog->arena, sizeof *u);
  *u = (kjit_ufunc){RT_UFUNC_MAGIC, prog, f, prog->ufuncs, NULL};
  prog->ufuncs = u;
  *out = u;
  return rt_finish(&call, KJIT_OK);
}

kjit_status kjit_ufunc_param_count(const kjit_ufunc *u, int *count) {
  if (!is_ufunc(u) || !count)
    return KJIT_ERROR_INVALID_ARGUMENT;
  *count = u->fn->nparams;
  return KJIT_OK;
}

kjit_status kjit_ufunc_param_name(const kjit_ufunc *u, int i, const char **name) {
  if (!is_ufunc(u) || !name)
    return KJIT_ERROR_INVALID_ARGUMENT;
  if (i < 0 || i >= u->fn->nparams)
    return KJIT_ERROR_NOT_FOUND;
  *name = u->fn->locals.data[i].name;
  return KJIT_OK;
}

/* --------------------------------------------------------------- call --- */

/* One call being prepared. */
typedef struct UCall {
  kjit_ufunc *u;
  RtCall call;
  int nin;
  RtValue in[UFUNC_MAX_ARGS];
  bool python[UFUNC_MAX_ARGS];         /* a Python int/float (KJIT_ARG_INT64/FLOAT64) */
  bool device[UFUNC_MAX_ARGS + 1];     /* inputs, then out */
  bool any_device;
  int sig;                             /* eager signature picked, -1 lazy */
  RtDtype out_dtype;
  int ndim;
  int64_t shape[RT_MAX_NDIM];
  void *stream;                        /* the caller's (NULL: the context's) */
  kjit_array *out;
  bool made_out;                       /* out was allocated by the call */
} UCall;

static const char *fname(const UCall *c) { return c->u->fn->name; }
static const char *pname(const UCall *c, int i) { return c->u->fn->locals.data[i].name; }

static bool fail(UCall *c, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "ufunc 'add': <message>" */
static bool fail(UCall *c, const char *hint, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(&c->call.diags, RT_E_ARGUMENT, (SrcLoc){0}, hint, "ufunc '%s': %s", fname(c), msg);
  return false;
}

static bool check_array(UCall *c, const kjit_array *a, const char *what) {
  if (!a)
    return fail(c, NULL, "%s: the array is NULL", what);
  if (a->magic == RT_ARRAY_DEAD)
    return fail(c, NULL, "%s: array was destroyed", what);
  if (!rt_array_is_live(a) || a->ctx != c->call.ctx)
    return fail(c, NULL, "%s: not a kjit_array of this context", what);
  if (a->device && (!c->call.ctx->cuda || a->epoch != c->call.ctx->cuda->resets))
    return fail(c, "destroy it and allocate a new one",
                "%s: array was allocated before a device fault and is no longer valid", what);
  if (a->a.ndim < 1)
    return fail(c, "pass a scalar, or an array of shape (1,)", "%s: 0-dimensional arrays are not supported", what);
  if (a->a.ndim > UFUNC_MAX_NDIM)
    return fail(c, "reshape it to fewer dimensions first", "%s: @vectorize takes arrays of 1 to %d dimensions, not %d",
                what, UFUNC_MAX_NDIM, a->a.ndim);
  return true;
}

static bool take_input(UCall *c, int i, const kjit_arg *a) {
  char what[96];
  snprintf(what, sizeof what, "argument %d ('%s')", i + 1, pname(c, i));
  RtValue *v = &c->in[i];
  memset(v, 0, sizeof *v);
  switch (a->kind) {
  case KJIT_ARG_ARRAY:
    if (!check_array(c, a->value.array, what))
      return false;
    v->is_array = true;
    v->array = a->value.array->a;
    v->array.owns = false;
    c->any_device |= c->device[i] = a->value.array->device;
    return true;
  case KJIT_ARG_INT64:
    c->python[i] = true;
    v->scalar.dtype = RT_I64, v->scalar.v.i64 = a->value.i64;
    return true;
  case KJIT_ARG_FLOAT64:
    c->python[i] = true;
    v->scalar.dtype = RT_F64, v->scalar.v.f64 = a->value.f64;
    return true;
  case KJIT_ARG_SCALAR:
    if ((int)a->dtype < 0 || (int)a->dtype >= RT_NDTYPES)
      return fail(c, NULL, "%s: invalid scalar dtype %d", what, (int)a->dtype);
    v->scalar.dtype = rt_dtype_of(a->dtype);
    memcpy(v->scalar.v.bytes, a->value.bits, rt_dtype_size(v->scalar.dtype));
    return true;
  case KJIT_ARG_TUPLE:
    return fail(c, "pass an array or a scalar", "%s: a tuple cannot be a ufunc input", what);
  case KJIT_ARG_POINTER:
    return fail(c, "pass an array (kjit_array_wrap_device wraps a device pointer)",
                "%s: a raw pointer cannot be a ufunc input", what);
  }
  return fail(c, NULL, "%s: invalid kjit_arg kind %d", what, (int)a->kind);
}

static RtDtype input_dtype(const UCall *c, int i) {
  return c->in[i].is_array ? c->in[i].array.dtype : c->in[i].scalar.dtype;
}

/* ------------------------------------------------- type resolution --- */

/* NumPy's "safe" casting between dtypes (np.can_cast(a, b, "safe")). */
static int kind_rank(RtDtype d) {   /* 0 bool, 1 unsigned, 2 signed, 3 float, 4 complex */
  if (d == RT_BOOL) return 0;
  if (rt_dtype_is_int(d)) return rt_dtype_is_signed(d) ? 2 : 1;
  return rt_dtype_is_float(d) ? 3 : 4;
}

static bool can_cast_safe(RtDtype from, RtDtype to) {
  int kf = kind_rank(from), kt = kind_rank(to);
  size_t sf = rt_dtype_size(from), st = rt_dtype_size(to);
  if (from == to || kf == 0)
    return true;
  if (kt < kf)                         /* to bool, float to int, signed to unsigned */
    return false;
  if (kf == kt)
    return st >= sf;
  if (kt == 2)                         /* unsigned to a wider signed: uint8 -> int16 */
    return st > sf;
  if (kt == 3)                         /* ints of 1 byte -> float16, 2 -> float32, else float64 */
    return sf == 1 || (sf == 2 ? st >= 4 : st >= 8);
  if (kf == 3)                         /* float -> complex of twice its size */
    return st >= 2 * sf;
  return sf <= 2 || st >= 16;          /* int -> complex: as to its float part */
}

/* Does input i go to parameter type t?  exact: the dtype itself; else a
 * safe cast, a Python int going to any number and a float to any float
 * (NumPy's weak Python scalars). */
static bool input_fits(const UCall *c, int i, const Type *t, bool exact) {
  RtDtype to;
  if (!rt_type_dtype(t, &to))
    return false;
  RtDtype from = input_dtype(c, i);
  if (exact)
    return from == to;
  if (c->python[i])
    return from == RT_I64 ? kind_rank(to) > 0 : kind_rank(to) >= 3;
  return can_cast_safe(from, to);
}

static int find_signature(const UCall *c, bool exact) {
  const IrFunc *f = c->u->fn;
  for (int s = 0; s < f->eager.len; s++) {
    bool ok = true;
    for (int i = 0; ok && i < c->nin; i++)
      ok = input_fits(c, i, f->eager.data[s].params[i], exact);
    if (ok)
      return s;
  }
  return -1;
}

static void list_types(const UCall *c, StrBuf *sb) {
  for (int i = 0; i < c->nin; i++)
    sb_printf(sb, "%s%s", i ? ", " : "", rt_dtype_name(input_dtype(c, i)));
}

static bool no_signature(UCall *c) {
  StrBuf got, have;
  sb_init(&got);
  sb_init(&have);
  list_types(c, &got);
  const IrFunc *f = c->u->fn;
  for (int s = 0; s < f->eager.len; s++) {
    char buf[64];
    const Signature *sig = &f->eager.data[s];
    sb_printf(&have, "%s%s(", s ? ", " : "signatures: ", ty_name(sig->ret, buf, sizeof buf));
    for (int i = 0; i < sig->nparams; i++)
      sb_printf(&have, "%s%s", i ? ", " : "", ty_name(sig->params[i], buf, sizeof buf));
    sb_putc(&have, ')');
  }
  const char *hint = arena_printf(&c->call.arena, "%s; inputs convert only where no "
                                  "precision is lost", have.data ? have.data : "");
  diag_error(&c->call.diags, RT_E_LAUNCH_ARGS, (SrcLoc){0}, hint,
             "ufunc '%s': no signature matches the argument types (%s)", fname(c),
             got.data ? got.data : "");
  sb_free(&got);
  sb_free(&have);
  return false;
}

/* Lazy ufunc: the result type of the function typed for the inputs. */
static bool lazy_result(UCall *c) {
  const Type *ts[UFUNC_MAX_ARGS];
  for (int i = 0; i < c->nin; i++)
    ts[i] = rt_dtype_type(input_dtype(c, i));
  IrCompile ic = {.prog = &c->u->prog->ir, .arena = &c->call.arena, .diags = &c->call.diags};
  IrFunc *t = ir_specialize(&ic, c->u->fn, ts, c->nin, c->u->fn->ast ? c->u->fn->ast->loc : (SrcLoc){0});
  if (!t || c->call.diags.nerrors)
    return false;
  char buf[64];
  if (!rt_type_dtype(t->ret_type, &c->out_dtype))
    return fail(c, "a @vectorize function returns one number per element",
                "the function returns %s, not a number", ty_name(t->ret_type, buf, sizeof buf));
  return true;
}

static bool resolve_types(UCall *c) {
  const IrFunc *f = c->u->fn;
  c->sig = -1;
  if (f->eager.len == 0)
    return lazy_result(c);
  c->sig = find_signature(c, true);
  if (c->sig < 0)
    c->sig = find_signature(c, false);
  if (c->sig < 0)
    return no_signature(c);
  return rt_type_dtype(f->eager.data[c->sig].ret, &c->out_dtype) ||
         fail(c, NULL, "the signature's return type is not a number");
}

/* -------------------------------------------------------- broadcasting --- */

static void shape_text(const int64_t *shape, int ndim, char *buf, size_t n) {
  size_t w = (size_t)snprintf(buf, n, "(");
  for (int d = 0; d < ndim && w < n; d++)
    w += (size_t)snprintf(buf + w, n - w, "%s%lld", d ? ", " : "", (long long)shape[d]);
  if (w < n)
    snprintf(buf + w, n - w, ndim == 1 ? ",)" : ")");
}

/* NumPy's rule: shapes aligned at the right; each dimension equal, or 1. */
static bool broadcast(UCall *c) {
  c->ndim = 0;
  for (int i = 0; i < c->nin; i++)
    if (c->in[i].is_array && c->in[i].array.ndim > c->ndim)
      c->ndim = c->in[i].array.ndim;
  for (int d = 0; d < c->ndim; d++)
    c->shape[d] = 1;
  for (int i = 0; i < c->nin; i++) {
    const RtArray *a = &c->in[i].array;
    for (int k = 0; c->in[i].is_array && k < a->ndim; k++) {
      int64_t *s = &c->shape[c->ndim - a->ndim + k];
      if (*s == 1)
        *s = a->shape[k];
      else if (a->shape[k] != 1 && a->shape[k] != *s)
        goto mismatch;
    }
  }
  if (c->ndim > 0)
    return true;
  return fail(c, "pass at least one array", "every argument is a scalar");
mismatch: {
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < c->nin; i++)
    if (c->in[i].is_array) {
      char buf[96];
      shape_text(c->in[i].array.shape, c->in[i].array.ndim, buf, sizeof buf);
      sb_printf(&sb, "%s%s", sb.len ? " " : "", buf);
    }
  fail(c, "each dimension must be equal, or 1 in one of them (NumPy broadcasting)",
       "operands could not be broadcast together with shapes %s", sb.data);
  sb_free(&sb);
  return false;
}
}

/* ---------------------------------------------------------------- out --- */

static bool check_out(UCall *c, kjit_array *out) {
  if (!check_array(c, out, "out"))
    return false;
  if (out->a.readonly)
    return fail(c, "pass a writable array, or NULL for a new one",
                "out is a read-only array (kjit_array_set_readonly, or a read-only DLPack tensor)");
  bool same = out->a.ndim == c->ndim;
  for (int d = 0; same && d < c->ndim; d++)
    same = out->a.shape[d] == c->shape[d];
  if (!same) {
    char want[96], got[96];
    shape_text(c->shape, c->ndim, want, sizeof want);
    shape_text(out->a.shape, out->a.ndim, got, sizeof got);
    return fail(c, arena_printf(&c->call.arena, "the inputs broadcast to %s", want),
                "out has shape %s; the result has shape %s", got, want);
  }
  c->device[c->nin] = out->device;
  c->any_device |= out->device;
  c->out = out;
  return true;
}

/* The result: on the device when any input is there, else in host memory. */
static bool make_out(UCall *c) {
  kjit_context *ctx = c->call.ctx;
  kjit_status st = c->any_device
      ? kjit_array_create_device(ctx, (kjit_dtype)c->out_dtype, c->ndim, c->shape, &c->out)
      : kjit_array_create(ctx, (kjit_dtype)c->out_dtype, c->ndim, c->shape, &c->out);
  if (st != KJIT_OK)
    return fail(c, NULL, "cannot allocate the result: %s", kjit_last_error(ctx));
  c->made_out = true;
  c->device[c->nin] = c->any_device;
  return true;
}

/* ------------------------------------------------------------ layouts --- */

static bool is_aligned(const RtArray *a) { return ((uintptr_t)a->data & 15u) == 0; }

/* The contiguous kernel: every array C-contiguous with the result's shape.
 * Groups of up to 16 bytes of the widest element when every array is
 * 16-byte aligned. */
static bool pick_contiguous(const UCall *c, UfuncShape *s) {
  const RtArray *out = &c->out->a;
  size_t widest = rt_dtype_size(out->dtype);
  bool aligned = is_aligned(out);
  if (!rt_array_is_c_contiguous(out))
    return false;
  for (int i = 0; i < c->nin; i++) {
    const RtArray *a = &c->in[i].array;
    if (!c->in[i].is_array)
      continue;
    if (a->ndim != c->ndim || memcmp(a->shape, c->shape, sizeof(int64_t) * (size_t)c->ndim) ||
        !rt_array_is_c_contiguous(a))
      return false;
    aligned &= is_aligned(a);
    if (rt_dtype_size(a->dtype) > widest)
      widest = rt_dtype_size(a->dtype);
  }
  s->contiguous = true;
  s->ndim = 1;
  s->vec = aligned && widest <= 16 ? (int)(16 / widest) : 1;
  s->align = s->vec > 1 ? 16 : 1;
  return true;
}

static void pick_shape(const UCall *c, UfuncShape *s) {
  memset(s, 0, sizeof *s);
  for (int i = 0; i < c->nin; i++)
    if (!c->in[i].is_array)
      s->scalars |= 1u << i;
  s->sig = c->sig >= 0 ? &c->u->fn->eager.data[c->sig] : NULL;
  if (!pick_contiguous(c, s))
    s->ndim = c->ndim;
}

/* The array as the kernel sees it: flat for the contiguous kernel, else a
 * view of the result's shape (stride 0 along broadcast dimensions). */
static RtValue kernel_view(const UCall *c, const UfuncShape *s, const RtArray *a) {
  RtValue v = {.is_array = true, .array = *a};
  RtArray *r = &v.array;
  r->owns = false;
  if (s->contiguous) {
    r->ndim = 1;
    r->shape[0] = rt_array_size(a);
    r->strides[0] = (int64_t)rt_dtype_size(a->dtype);
    for (int d = 1; d < RT_MAX_NDIM; d++)
      r->shape[d] = r->strides[d] = 0;
    return v;
  }
  r->ndim = c->ndim;
  for (int d = 0; d < c->ndim; d++) {
    int k = d - (c->ndim - a->ndim);
    r->shape[d] = c->shape[d];
    r->strides[d] = k < 0 || (a->shape[k] == 1 && c->shape[d] != 1) ? 0 : a->strides[k];
  }
  return v;
}

/* ------------------------------------------------------------ kernels --- */

static bool same_shape(const UfuncShape *a, const UfuncShape *b) {
  return a->contiguous == b->contiguous && a->ndim == b->ndim && a->vec == b->vec &&
         a->align == b->align && a->scalars == b->scalars && a->sig == b->sig;
}

static IrFunc *get_kernel(kjit_ufunc *u, const UfuncShape *s, int sig) {
  for (UfuncVariant *v = u->variants; v; v = v->next)
    if (same_shape(&v->shape, s))
      return v->kernel;
  kjit_program *p = u->prog;
  char name[256];
  int nth = 0;                         /* names unique per ufunc: its variant count */
  for (UfuncVariant *v = u->variants; v; v = v->next)
    nth++;
  snprintf(name, sizeof name, "__vectorized_%s_%s%d_%d", u->fn->name, s->contiguous ? "c" : "g",
           s->contiguous ? s->vec : s->ndim, nth);
  UfuncVariant *v = arena_alloc(&p->arena, sizeof *v);
  *v = (UfuncVariant){u->variants, *s, sig, NULL};
  v->kernel = ir_ufunc_kernel(&p->ir, u->fn, s, arena_strdup(&p->arena, name));
  u->variants = v;
  return v->kernel;
}

/* Blocks of BLOCK threads, one work item (a group of the contiguous
 * kernel, an element of the general one) per thread.  On the GPU the
 * contiguous kernel gets the full grid, every thread loading its group
 * at once: against a grid-stride loop capped at two waves this measured
 * 0.187 against 0.198 ms for 2^26 float32 a + b on an H200
 * (docs/benchmarks.md; not profiled further).  The kernel keeps its loop for work past
 * MAX_GRID blocks.  The general kernel, heavier per element (index
 * unravelling), stays capped at WAVES full waves.  On the CPU: one block
 * per BLOCK work items. */
static uint32_t grid_size(const UCall *c, const UfuncShape *s, int64_t work) {
  int64_t blocks = (work + BLOCK - 1) / BLOCK, cap = MAX_GRID;
  const RtCuda *cu = c->call.ctx->cuda;
  if (c->call.ctx->api.target == KJIT_TARGET_CUDA && !s->contiguous && cu && cu->info.sm_count > 0)
    cap = (int64_t)cu->info.sm_count * (THREADS_PER_SM / BLOCK) * WAVES;
  return (uint32_t)(blocks < 1 ? 1 : blocks > cap ? cap : blocks);
}

static bool launch(UCall *c) {
  UfuncShape s;
  pick_shape(c, &s);
  IrFunc *k = get_kernel(c->u, &s, c->sig);
  RtValue vals[UFUNC_MAX_ARGS + 1];
  for (int i = 0; i < c->nin; i++)
    vals[i] = c->in[i].is_array ? kernel_view(c, &s, &c->in[i].array) : c->in[i];
  vals[c->nin] = kernel_view(c, &s, &c->out->a);
  int64_t n = rt_array_size(&c->out->a);
  if (n == 0)
    return true;
  uint32_t grid[3] = {grid_size(c, &s, s.contiguous ? (n + s.vec - 1) / s.vec : n), 1, 1};
  uint32_t block[3] = {BLOCK, 1, 1};
  RtApiState *api = &c->call.ctx->api;
  bool cuda = api->target == KJIT_TARGET_CUDA;
  uint8_t origin[UFUNC_MAX_ARGS + 1];
  RtPlan p;
  rt_plan_init(&p, c->u->prog, k, vals, c->nin + 1, grid, block, 0);
  for (int i = 0; i <= c->nin; i++) {
    origin[i] = cuda && vals[i].is_array && c->device[i] ? RT_MEM_DEVICE : RT_MEM_HOST;
    p.any_device |= origin[i] == RT_MEM_DEVICE;
  }
  p.origin = origin;
  p.stream = c->stream;
  RtLaunchTiming t;
  bool ok = (cuda ? &rt_cuda_target : &rt_host_target)->run(&p, &c->call.diags, &t);
  api->compile_ms = t.compile_ms, api->copy_ms = t.copy_ms, api->run_ms = t.run_ms;
  return ok;
}

static kjit_status prepare(UCall *c, const kjit_arg *args, int nargs, kjit_array *out) {
  if (nargs != c->nin || (nargs > 0 && !args)) {
    fail(c, NULL, "takes %d argument%s (%d given)", c->nin, c->nin == 1 ? "" : "s", nargs);
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  if (c->nin > UFUNC_MAX_ARGS) {
    fail(c, NULL, "has %d parameters; at most %d are supported", c->nin, UFUNC_MAX_ARGS);
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  for (int i = 0; i < nargs; i++)
    if (!take_input(c, i, &args[i]))
      return KJIT_ERROR_INVALID_ARGUMENT;
  if (!broadcast(c) || (out && !check_out(c, out)))
    return KJIT_ERROR_INVALID_ARGUMENT;
  kjit_status st = rt_resolve_target(&c->call);
  if (st != KJIT_OK)
    return st;
  if (c->any_device && c->call.ctx->api.target != KJIT_TARGET_CUDA) {
    fail(c, NULL, "device arrays need the cuda target");
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  if (!resolve_types(c))
    return c->call.diags.nerrors ? rt_status_of(&c->call.diags) : KJIT_ERROR_TYPE;
  return out || make_out(c) ? KJIT_OK : KJIT_ERROR_OUT_OF_MEMORY;
}

kjit_status kjit_ufunc_call(kjit_ufunc *u, const kjit_arg *args, int nargs, kjit_array *out,
                            kjit_array **result) {
  return kjit_ufunc_call_on_stream(u, args, nargs, out, NULL, result);
}

kjit_status kjit_ufunc_call_on_stream(kjit_ufunc *u, const kjit_arg *args, int nargs,
                                      kjit_array *out, void *stream, kjit_array **result) {
  if (!is_ufunc(u) || !result)
    return KJIT_ERROR_INVALID_ARGUMENT;
  UCall *c = calloc(1, sizeof *c);
  if (!c)
    return KJIT_ERROR_OUT_OF_MEMORY;
  c->u = u;
  c->stream = stream;
  c->nin = u->fn->nparams;
  rt_begin(&c->call, u->prog->ctx);
  const char *gone = rt_api_stream_problem(u->prog->ctx, stream);
  kjit_status st = KJIT_OK;
  if (gone) {
    fail(c, "create a new one (kjit_stream_create)", "stream: %s", gone);
    st = KJIT_ERROR_INVALID_ARGUMENT;
  }
  if (st == KJIT_OK)
    st = prepare(c, args, nargs, out);
  if (st == KJIT_OK && !launch(c))
    st = c->call.diags.nerrors ? rt_status_of(&c->call.diags) : KJIT_ERROR_INTERNAL;
  if (st == KJIT_OK)
    *result = c->out;
  else if (c->made_out)
    kjit_array_destroy(c->out);
  st = rt_finish(&c->call, st);
  free(c);
  return st;
}

/* ------------------------------------------------------- kjit ptx --- */

/* The contiguous kernel of ufunc uf for scalar signature `scalar` and the
 * kernel signature to compile it with (every argument an aligned 1-d C
 * array), as a launch with such arrays uses: what `kjit ptx FILE:NAME`
 * shows for a @vectorize function. */
bool rt_ufunc_kernel_for(kjit_program *prog, IrFunc *uf, int index, const Signature *scalar,
                         IrFunc **kernel, Signature *ksig) {
  kjit_ufunc *u;
  if (scalar->nparams != uf->nparams || !scalar->ret ||
      kjit_program_ufunc(prog, uf->name, &u) != KJIT_OK)
    return false;
  int widest = ty_size(scalar->ret);
  for (int i = 0; i < scalar->nparams; i++)
    if (ty_size(scalar->params[i]) > widest)
      widest = ty_size(scalar->params[i]);
  UfuncShape sh = {.contiguous = true, .ndim = 1, .vec = widest > 0 && widest <= 16 ? 16 / widest : 1};
  sh.align = sh.vec > 1 ? 16 : 1;
  Signature *keep = arena_alloc(&prog->arena, sizeof *keep);
  *keep = *scalar;
  sh.sig = index >= 0 ? &uf->eager.data[index] : keep;
  *kernel = get_kernel(u, &sh, index);
  *ksig = (Signature){0};             /* no launch facts: the 64-bit variant */
  ksig->ret = TY_VOID_T;
  ksig->nparams = scalar->nparams + 1;
  ksig->params = arena_alloc(&prog->arena, sizeof(Type *) * (size_t)ksig->nparams);
  for (int i = 0; i <= scalar->nparams; i++)
    ksig->params[i] = ty_array(prog->ir.types, i < scalar->nparams ? scalar->params[i] : scalar->ret,
                               1, LAYOUT_C);
  ksig->loc = scalar->loc;
  return true;
}
