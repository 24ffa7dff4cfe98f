/* host_launch.c - kernels run on the host CPU: argument checks, the
 * specialization table, JIT compiles and the launch (see launch.h).
 *
 * prog->host holds one JIT, one thread pool and an open-addressing table of
 * specializations keyed by (kernel, per-argument record): the record is one
 * fixed-width word per argument (array?, dtype, ndim, C-contiguous?), so a
 * launch that hits the table hashes a few words, packs the arguments on the
 * stack and runs: no allocation, no source hashing.  A miss specializes the
 * kernel in a scratch arena, loads its object into the JIT (from the disk
 * cache, or compiled and stored: host/cache_host.c) and keeps only the
 * entry point and the argument layout. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codegen/codegen.h"
#include "cache/cache.h"
#include "runtime/dispatch.h"
#include "host/host_exec.h"
#include "host/host_libdevice_internal.h"
#include "host/launch.h"
#include "runtime/compile.h"
#include "runtime/spec_table.h"
#include "common/settings.h"

/* A specialization's key in the table (runtime/spec_table.h): the kernel,
 * the variant, one word per argument (arg_record); hashed and compared as
 * its first host_key_bytes() bytes, so it is zeroed before it is filled. */
typedef struct HostKey {
  const IrFunc *kernel;               /* the generic kernel */
  int32_t nargs;
  uint32_t grid32;                    /* rt_launch_grid32: the 32-bit-grid variant */
  uint32_t key[RT_HOST_MAX_ARGS];     /* see arg_record */
} HostKey;

static size_t host_key_bytes(const HostKey *k) {
  return offsetof(HostKey, key) + sizeof *k->key * (size_t)k->nargs;
}

typedef struct RtHostSpec {
  HostKey k;
  CgHostKernel entry;                 /* fn, flags, static shared bytes */
  size_t args_size;                   /* bytes of the packed argument struct */
  size_t local_bytes;                 /* local arrays of every function compiled
                                         (added to each fiber's stack) */
  uint8_t ret_kind;                   /* device functions (kjit_call): TypeKind returned */
  /* per parameter, only the first k.nargs used */
  CgArgSlot slots[RT_HOST_MAX_ARGS];
  uint8_t kind[RT_HOST_MAX_ARGS];     /* TypeKind of each parameter */
  const Type *ptype[RT_HOST_MAX_ARGS]; /* each parameter's type (tuples are
                                         packed element by element) */
} RtHostSpec;

typedef struct RtHost {
  pthread_mutex_t lock;               /* table, JIT and pool creation */
  CgJit *jit;                         /* NULL until the first compile */
  RtHostPool *pool;                   /* NULL until the first launch */
  RtSpecTable specs;                  /* RtHostSpec entries, each malloc'd */
  const Type **tuples;                /* tuple argument types seen: a tuple's
                                         key word is its index here */
  int ntuples, tuples_cap;
} RtHost;

static bool is_record_value(const RtValue *v) {
  return v->is_array && v->array.dtype == RT_RECORD;
}

/* One word per argument: bit 24 array, bits 16..23 dtype, 8..15 ndim, bit 0
 * C-contiguous, bit 1 KEY_FITS32, bit 2 KEY_READONLY. */
#define KEY_FITS32 2u  /* rt_value_fits32: the 32-bit-index variant (any record) */
#define KEY_READONLY 4u /* RtArray.readonly: a `readonly array` parameter */

static uint32_t arg_record(const RtValue *v) {
  uint32_t fits = rt_value_fits32(v) ? KEY_FITS32 : 0;
  if (v->is_ptr) /* bit 26: a raw pointer to ptr_dtype */
    return 1u << 26 | (uint32_t)v->ptr_dtype << 16 | fits;
  if (!v->is_array)
    return (uint32_t)v->scalar.dtype << 16 | fits;
  const RtArray *a = &v->array;
  return 1u << 24 | (uint32_t)a->dtype << 16 | (uint32_t)(a->ndim & 0xff) << 8 |
         (uint32_t)rt_array_is_c_contiguous(a) | fits | (a->readonly ? KEY_READONLY : 0);
}

/* A tuple or record argument's key word: bit 25 and the index of its (interned) type
 * in h->tuples, so two keys are equal exactly when the types are; 0 when
 * memory runs out.  Called with h->lock held (it types the value). */
static uint32_t tuple_record(RtHost *h, kjit_program *prog, const RtValue *v) {
  const Type *t = rt_value_type(prog->ir.types, v);
  int i = 0;
  while (i < h->ntuples && h->tuples[i] != t)
    i++;
  if (i == h->ntuples) {
    if (h->ntuples == h->tuples_cap) {
      int cap = h->tuples_cap ? h->tuples_cap * 2 : 8;
      const Type **nw = realloc(h->tuples, sizeof *nw * (size_t)cap);
      if (!nw)
        return 0;
      h->tuples = nw;
      h->tuples_cap = cap;
    }
    h->tuples[h->ntuples++] = t;
  }
  return 1u << 25 | (uint32_t)i << 2 | (rt_value_fits32(v) ? KEY_FITS32 : 0);
}

static bool drop_spec(void *entry, void *data) {
  (void)data;
  free(entry);
  return true;
}

/* prog->host, created by the first launch (a race between two first
 * launches is settled by compare-and-swap). */
static RtHost *get_host(kjit_program *prog) {
  RtHost *h = __atomic_load_n(&prog->host, __ATOMIC_ACQUIRE);
  if (h)
    return h;
  if (!(h = calloc(1, sizeof *h)))
    return NULL;
  pthread_mutex_init(&h->lock, NULL);
  RtHost *expected = NULL;
  if (__atomic_compare_exchange_n(&prog->host, &expected, h, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return h;
  pthread_mutex_destroy(&h->lock);
  free(h);
  return expected;
}

void rt_host_program_free(kjit_program *prog) {
  RtHost *h = prog ? prog->host : NULL;
  if (!h)
    return;
  rt_host_pool_free(h->pool);
  cg_jit_free(h->jit);
  rt_spec_table_remove(&h->specs, drop_spec, NULL);
  rt_spec_table_free(&h->specs);
  free(h->tuples);
  pthread_mutex_destroy(&h->lock);
  free(h);
  prog->host = NULL;
}

/* ------------------------------------------------------------ checks --- */

static const char *type_name(const Type *t, char *buf, int n) {
  return t ? ty_name(t, buf, n) : "an unsupported value";
}

static const char *param_name(const IrFunc *f, int i) { return f->locals.data[i].name; }

/* What messages call f: kernels are launched, device functions called. */
static const char *what(const IrFunc *f) { return f->is_kernel ? "kernel" : "function"; }

/* The plan matched the arguments to the parameters; the CPU's own limit. */
static bool check_count(const IrFunc *f, int nargs, Diags *d) {
  if (nargs <= RT_HOST_MAX_ARGS)
    return true;
  diag_error(d, RT_E_LAUNCH_ARGS, (SrcLoc){0}, NULL, "%s '%s' has %d parameters; the CPU target passes at most %d",
             what(f), f->name, nargs, RT_HOST_MAX_ARGS);
  return false;
}

static bool value_ok(const RtValue *v);

/* Every element of a tuple value can be passed. */
static bool tuple_ok(const RtValue *v) {
  for (int i = 0; i < v->nelems; i++)
    if (!value_ok(&v->elems[i]))
      return false;
  return true;
}

/* A known dtype; arrays of 1 to 4 dimensions with data (or empty). */
static bool value_ok(const RtValue *v) {
  if (v->is_tuple)
    return tuple_ok(v);
  if (!v->is_array)
    return rt_dtype_type(v->scalar.dtype) != NULL;
  bool rec = v->array.dtype == RT_RECORD && v->array.rec;
  return (rt_dtype_type(v->array.dtype) || rec) && v->array.ndim >= (rec ? 0 : 1) &&
         v->array.ndim <= RT_MAX_NDIM && (v->array.data || rt_array_size(&v->array) == 0);
}

/* Without touching the program's type table (that happens under the lock). */
static bool check_values(const IrFunc *f, const RtValue *args, int n, Diags *d) {
  bool ok = true;
  for (int i = 0; i < n; i++) {
    const RtValue *v = &args[i];
    if (v->is_tuple && tuple_ok(v))
      continue;
    if (v->is_tuple) {
      diag_error(d, RT_E_LAUNCH_ARGS, (SrcLoc){0}, NULL, "argument %d ('%s') of %s '%s': a tuple holding "
                 "an unknown dtype or an array that cannot be passed",
                 i + 1, param_name(f, i), what(f), f->name);
      ok = false;
      continue;
    }
    RtDtype dt = v->is_array ? v->array.dtype : v->scalar.dtype;
    bool rec = is_record_value(v) && v->array.rec;
    bool shaped = !v->is_array || (v->array.ndim >= (rec ? 0 : 1) && v->array.ndim <= RT_MAX_NDIM);
    if ((rt_dtype_type(dt) || rec) && shaped && (!v->is_array || v->array.data || rt_array_size(&v->array) == 0))
      continue;
    diag_error(d, RT_E_LAUNCH_ARGS, (SrcLoc){0}, shaped ? NULL : "kernel arrays have 1 to 4 dimensions",
               "argument %d ('%s') of %s '%s': %s", i + 1, param_name(f, i), what(f), f->name,
               !rt_dtype_type(dt) && !rec ? "unknown dtype" : !shaped ? "cannot pass an array of this shape"
                                                           : "array without data");
    ok = false;
  }
  return ok;
}

/* Can an argument of type `got` be passed for a parameter declared `want`? */
static bool accepts(const Type *want, const Type *got) {
  if (want->kind == TY_TUPLE || got->kind == TY_TUPLE) {
    if (want->kind != got->kind || want->nelems != got->nelems)
      return false;
    for (int i = 0; i < want->nelems; i++)
      if (!accepts(want->elems[i], got->elems[i]))
        return false;
    return true;
  }
  if (want->kind == TY_RECORD || got->kind == TY_RECORD)
    return ty_record_layout_eq(want, got);
  if (want->kind == TY_ARRAY)
    return got->kind == TY_ARRAY && ty_record_layout_eq(got->elem, want->elem) &&
           got->ndim == want->ndim && (want->layout == LAYOUT_A || got->layout == LAYOUT_C);
  if (got->kind == TY_ARRAY || !ty_is_number(want))
    return false;
  return ty_is_complex(want) || !ty_is_complex(got);
}

static int first_mismatch(const Signature *s, const Type *const *got, int n) {
  for (int i = 0; i < n && i < s->nparams; i++)
    if (!s->params[i] || !accepts(s->params[i], got[i]))
      return i;
  return s->nparams == n ? -1 : n;
}

/* The parameter types of the specialization: an eager kernel's the
 * plan's signature gives, a lazy one's its values' (already in got). */
static bool pick_types(const IrFunc *f, const Signature *eager, const Type **got, int n, Diags *d) {
  if (eager) {
    memcpy(got, eager->params, sizeof *got * (size_t)n);
    return true;
  }
  if (f->eager.len == 0)
    return true;
  const Signature *s0 = &f->eager.data[0];
  int i = first_mismatch(s0, got, n);
  char a[96], b[96];
  if (i < 0 || i >= n || i >= s0->nparams)
    i = 0;
  diag_error(d, RT_E_LAUNCH_ARGS, s0->loc,
             f->eager.len > 1 ? "none of the kernel's signatures accepts these argument types" : NULL,
             "argument %d ('%s') of %s '%s': expected %s, got %s", i + 1, param_name(f, i), what(f), f->name,
             type_name(s0->params[i], a, sizeof a), type_name(got[i], b, sizeof b));
  return false;
}

static bool check_shared(const IrFunc *f, const CgHostKernel *e, size_t dyn, Diags *d) {
  if (e->static_shared > RT_HOST_MAX_STATIC_SHARED) {
    diag_error(d, RT_E_LAUNCH_LIMIT, (SrcLoc){0}, NULL,
               "kernel '%s' uses %zu bytes of static shared memory; the limit is %u", f->name,
               e->static_shared, RT_HOST_MAX_STATIC_SHARED);
    return false;
  }
  if (dyn > RT_HOST_MAX_SHARED || RT_HOST_DYN_SHARED_OFFSET(e->static_shared) + dyn > RT_HOST_MAX_SHARED) {
    diag_error(d, RT_E_LAUNCH_LIMIT, (SrcLoc){0}, NULL,
               "kernel '%s': %zu bytes of static and %zu of dynamic shared memory exceed the limit of %u",
               f->name, e->static_shared, dyn, RT_HOST_MAX_SHARED);
    return false;
  }
  return true;
}

/* ---------------------------------------------------------- compiling --- */

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static CgOptions host_options(const IrFunc *k) {
  const char *fibers = rt_setting(RT_SET_CPU_FIBERS);
  return (CgOptions){.opt_level = k->opts.opt > 0 ? k->opts.opt : 3,
                     .fastmath = k->opts.fastmath,
                     .cpu_fibers = fibers && strcmp(fibers, "1") == 0};
}

/* Local arrays of every function of the compile, an upper bound of what a
 * thread's stack holds at once (each is limited to IR_MAX_LOCAL_BYTES, and
 * the sum saturates at 64 MiB: deeper call chains are not this size). */
static size_t local_bytes(const IrCompile *c) {
  int64_t total = 0;
  for (int i = 0; i < c->funcs.len; i++) {
    const IrFunc *g = c->funcs.data[i];
    for (int k = 0; k < g->insts.len; k++)
      if (g->insts.data[k].op == OP_LOCAL_ARRAY)
        total += ir_alloc_bytes(&g->insts.data[k]);
    if (total > (int64_t)64 << 20)
      return (size_t)64 << 20;
  }
  return (size_t)total;
}

/* The CPU target's step of the compile driver: the host object of the
 * typed IR (from the disk cache, or compiled and stored under the entry's
 * lock: host/cache_host.c) loaded into the program's JIT. */
typedef struct HostEmit {
  RtHost *h;
  IrFunc *f;
  RtHostSpec *s;
} HostEmit;

static bool emit_host(RtJob *j, void *data) {
  HostEmit *e = data;
  IrCompile *c = j->units.data[0].compile;
  Diags *d = rt_job_diags(j);
  CgOptions o = host_options(e->f);
  e->s->local_bytes = local_bytes(c);
  if (!e->f->is_kernel) { /* kjit_call: the C-ABI wrapper is the entry */
    const Type *rt = c->funcs.data[0]->ret_type;
    e->s->ret_kind = (uint8_t)(rt ? rt->kind : TY_VOID);
  }
  return rt_cache_host_load(j->prog->ctx, e->h->jit, c, !e->f->is_kernel, &o, &e->s->entry, d);
}

/* f for params through the compile driver (runtime/compile.h), JIT-loaded
 * into s->entry. */
static bool compile_spec(RtHost *h, kjit_program *prog, IrFunc *f, const Type **params, int n,
                         RtHostSpec *s, Diags *d) {
  if (!h->jit && !(h->jit = cg_jit_new(rt_host_jit_symbols, d)))
    return false;
  Signature sig = {.nparams = n, .params = params, .loc = f->ast ? f->ast->loc : (SrcLoc){0},
                   .fits32 = true, .grid32 = s->k.grid32 != 0};
  for (int i = 0; i < n; i++) /* the 32-bit variant when every argument fits */
    sig.fits32 &= (s->k.key[i] & KEY_FITS32) != 0;
  HostEmit e = {h, f, s};
  RtLaunchCompile how = {RT_JOB_CPU, NULL, 0, emit_host, &e};
  return rt_compile_launch(prog, f, &sig, &how, d);
}

static bool fill_layout(const IrFunc *f, const Type *const *params, int n, RtHostSpec *s, Diags *d) {
  if (!cg_host_arg_layout(params, n, s->slots, &s->args_size)) {
    diag_error(d, RT_E_LAUNCH_ARGS, (SrcLoc){0}, NULL,
               "%s '%s': a parameter type cannot be passed on the CPU target", what(f), f->name);
    return false;
  }
  if (s->args_size > RT_HOST_MAX_ARGS * 72) {
    diag_error(d, RT_E_LAUNCH_ARGS, (SrcLoc){0}, "pass fewer or smaller tuples",
               "%s '%s': its arguments take %zu bytes; the CPU target passes at most %d", what(f),
               f->name, s->args_size, RT_HOST_MAX_ARGS * 72);
    return false;
  }
  for (int i = 0; i < n; i++) {
    s->kind[i] = (uint8_t)params[i]->kind;
    s->ptype[i] = params[i];
  }
  return true;
}

/* The specialization for these arguments: the table's, or a new one.
 * Called with h->lock held; entries never move, and live as long as the
 * program. */
static bool get_spec(RtHost *h, const RtPlan *p, bool grid32, const RtHostSpec **out, Diags *d,
                     double *compile_ms) {
  kjit_program *prog = p->prog;
  IrFunc *f = p->fn;
  const RtValue *args = p->args;
  int n = p->nargs;
  HostKey key;
  memset(&key, 0, offsetof(HostKey, key));
  key.kernel = f;
  key.nargs = n;
  key.grid32 = grid32;
  for (int i = 0; i < n; i++) {
    bool typed = args[i].is_tuple || is_record_value(&args[i]);
    key.key[i] = typed ? tuple_record(h, prog, &args[i]) : arg_record(&args[i]);
    if (typed && !key.key[i]) {
      diag_error(d, RT_E_LAUNCH_ARGS, (SrcLoc){0}, NULL, "%s '%s': out of memory", what(f), f->name);
      return false;
    }
  }
  if ((*out = rt_spec_table_find(&h->specs, &key, host_key_bytes(&key))))
    return true;
  double t0 = now_ms();
  const Type *params[RT_HOST_MAX_ARGS];
  for (int i = 0; i < n; i++)
    params[i] = rt_value_type(prog->ir.types, &args[i]);
  RtHostSpec *s = calloc(1, sizeof *s);
  if (!s) {
    diag_error(d, RT_E_LAUNCH_ARGS, (SrcLoc){0}, NULL, "%s '%s': out of memory", what(f), f->name);
    return false;
  }
  memcpy(&s->k, &key, host_key_bytes(&key));
  if (!pick_types(f, rt_plan_signature(p), params, n, d) || !fill_layout(f, params, n, s, d) ||
      !compile_spec(h, prog, f, params, n, s, d) ||
      !rt_spec_table_insert(&h->specs, &s->k, host_key_bytes(&s->k), s)) {
    free(s);
    return false;
  }
  *out = s;
  if (compile_ms)
    *compile_ms = now_ms() - t0;
  return true;
}

/* ------------------------------------------------------------ packing --- */

/* A scalar argument converted to the parameter's type, written in place. */
static void pack_scalar(const RtScalar *v, TypeKind k, unsigned char *dst) {
  bool fl = rt_dtype_is_float(v->dtype) || rt_dtype_is_complex(v->dtype);
  double f = fl ? rt_array_get_f64(&(RtArray){.dtype = v->dtype, .data = (void *)&v->v}, 0) : 0;
  int64_t i = fl ? 0 : rt_array_get_i64(&(RtArray){.dtype = v->dtype, .data = (void *)&v->v}, 0);
  double im = v->dtype == RT_C64 ? v->v.c64[1] : v->dtype == RT_C128 ? v->v.c128[1] : 0;
  if (!fl)
    f = v->dtype == RT_U64 ? (double)(uint64_t)i : (double)i;
  else if (k != TY_F16 && k != TY_F32 && k != TY_F64 && k != TY_C64 && k != TY_C128)
    i = (int64_t)f; /* typing allows float -> int only through an eager signature */
  union { bool b; int8_t i8; int16_t i16; int32_t i32; int64_t i64; uint16_t h; float f32[2]; double f64[2]; } u;
  memset(&u, 0, sizeof u);
  size_t n = 8;
  switch (k) {
  case TY_BOOL: u.b = fl ? f != 0 : i != 0; n = 1; break;
  case TY_I8: case TY_U8: u.i8 = (int8_t)i; n = 1; break;
  case TY_I16: case TY_U16: u.i16 = (int16_t)i; n = 2; break;
  case TY_I32: case TY_U32: u.i32 = (int32_t)i; n = 4; break;
  case TY_F16: u.h = rt_f32_to_f16((float)f); n = 2; break;
  case TY_F32: u.f32[0] = (float)f; n = 4; break;
  case TY_F64: u.f64[0] = f; break;
  case TY_C64: u.f32[0] = (float)f; u.f32[1] = (float)im; break;
  case TY_C128: u.f64[0] = f; u.f64[1] = im; n = 16; break;
  default: u.i64 = i; break;
  }
  memcpy(dst, &u, n);
}

static void pack_array(const RtArray *a, unsigned char *dst) {
  memcpy(dst, &a->data, sizeof a->data); /* a record (0-d): its address alone */
  memcpy(dst + 8, a->shape, sizeof *a->shape * (size_t)a->ndim);
  memcpy(dst + 8 + 8 * (size_t)a->ndim, a->strides, sizeof *a->strides * (size_t)a->ndim);
}

/* A tuple laid out as the LLVM struct of its element types (the host
 * argument layout rules, applied to the elements), scalars converted to
 * the parameter's element types. */
static void pack_tuple(const RtValue *v, const Type *t, unsigned char *dst) {
  CgArgSlot slots[16];
  size_t total;
  if (t->nelems > 16 || !cg_host_arg_layout(t->elems, t->nelems, slots, &total))
    return; /* fill_layout accepted the type: not reached */
  for (int i = 0; i < t->nelems && i < v->nelems; i++) {
    if (v->elems[i].is_tuple)
      pack_tuple(&v->elems[i], t->elems[i], dst + slots[i].offset);
    else if (v->elems[i].is_array)
      pack_array(&v->elems[i].array, dst + slots[i].offset);
    else
      pack_scalar(&v->elems[i].scalar, t->elems[i]->kind, dst + slots[i].offset);
  }
}

static void pack_args(const RtHostSpec *s, const RtValue *args, unsigned char *buf) {
  memset(buf, 0, s->args_size);
  for (int i = 0; i < s->k.nargs; i++) {
    unsigned char *dst = buf + s->slots[i].offset;
    if (args[i].is_tuple)
      pack_tuple(&args[i], s->ptype[i], dst);
    else if (args[i].is_array)
      pack_array(&args[i].array, dst);
    else
      pack_scalar(&args[i].scalar, (TypeKind)s->kind[i], dst);
  }
}

/* ------------------------------------------------------------ running --- */

/* A debug=True check that failed, at its source line: an index out of
 * bounds in Numba's IndexError words, or an assert (the caret under the
 * `assert` keyword). */
/* The Source of the file a check names: the kernel file's, or that of the
 * imported module whose function failed (ir/modlink.h). */
static const Source *check_source(kjit_program *prog, const char *file) {
  for (int i = 0; file && i < prog->ir.funcs.len; i++) {
    const Func *fn = prog->ir.funcs.data[i]->ast;
    if (fn && fn->loc.src && fn->loc.src->path && strcmp(fn->loc.src->path, file) == 0)
      return fn->loc.src;
  }
  return &prog->src;
}

static void report_check_error(kjit_program *prog, const IrFunc *f, int rc, const RtHostCheckError *e,
                               Diags *d) {
  SrcLoc loc = {check_source(prog, e->file), e->line, e->col > 0 ? e->col : 1, rc == RT_HOST_E_ASSERT && strncmp(e->message, "AssertionError", 14) == 0 ? 6 : 1};
  if (rc == RT_HOST_E_ASSERT)
    diag_error(d, RT_E_KERNEL_FAULT, loc, NULL,
               "%s (kernel '%s', block (%u,%u,%u), thread (%u,%u,%u))", e->message, f->name,
               e->block[0], e->block[1], e->block[2], e->thread[0], e->thread[1], e->thread[2]);
  else
    diag_error(d, RT_E_KERNEL_FAULT, loc, NULL,
               "index %lld is out of bounds for axis %d with size %lld in array '%s' "
               "(kernel '%s', block (%u,%u,%u), thread (%u,%u,%u))",
               (long long)e->index, e->axis, (long long)e->extent, e->array, f->name, e->block[0],
               e->block[1], e->block[2], e->thread[0], e->thread[1], e->thread[2]);
}

/* The array argument nearest to a fault's address, as a clause of the
 * message: which buffer the wild index most likely started from. */
static void fault_array(const IrFunc *f, const RtValue *args, int n, uint64_t addr, char *out, size_t len) {
  int best = -1;
  uint64_t dist = UINT64_MAX;
  for (int i = 0; i < n; i++) {
    if (!args[i].is_array || args[i].is_tuple)
      continue;
    int64_t off = (int64_t)(addr - (uint64_t)(uintptr_t)args[i].array.data); /* signed: either half */
    uint64_t d = off < 0 ? 0 - (uint64_t)off : (uint64_t)off >= args[i].array.nbytes
                                                   ? (uint64_t)off - args[i].array.nbytes + 1 : 0;
    if (d < dist)
      best = i, dist = d;
  }
  *out = '\0';
  if (best < 0)
    return;
  const RtArray *a = &args[best].array;
  int64_t off = (int64_t)(addr - (uint64_t)(uintptr_t)a->data);
  snprintf(out, len, "; the nearest array is argument '%s' (%zu bytes at %p): the address is %llu bytes %s",
           f->locals.data[best].name, a->nbytes, a->data,
           (unsigned long long)(off < 0 ? dist : dist ? dist - 1 : (uint64_t)off),
           off < 0 ? "before its start" : dist ? "past its end" : "into it");
}

static bool launch(kjit_program *prog, const IrFunc *f, const RtHostSpec *s, const RtValue *args,
                   const uint32_t grid[3], const uint32_t block[3], size_t dyn, Diags *d) {
  _Alignas(16) unsigned char buf[RT_HOST_MAX_ARGS * 72];
  char err[256] = "";
  RtHostCheckError chk;
  pack_args(s, args, buf);
  int rc = rt_host_launch_checked(prog->host->pool, (HostKernelFn)s->entry.fn, s->entry.flags, grid, block,
                                  s->entry.static_shared, dyn, s->local_bytes, buf, err, sizeof err, &chk);
  fflush(stdout);
  if (rc == RT_HOST_OK)
    return true;
  if (rc == RT_HOST_E_INDEX || rc == RT_HOST_E_ASSERT) {
    report_check_error(prog, f, rc, &chk, d);
    return false;
  }
  int code = rc == RT_HOST_E_LIMIT ? RT_E_LAUNCH_LIMIT : rc == RT_HOST_E_FAULT ? RT_E_KERNEL_FAULT : RT_E_LAUNCH_FAILED;
  char near[256] = "";
  if (rc == RT_HOST_E_FAULT && chk.fault_known && chk.fault_addr >= 65536) /* not a NULL base's */
    fault_array(f, args, s->k.nargs, chk.fault_addr, near, sizeof near);
  diag_error(d, code, (SrcLoc){0},
             rc == RT_HOST_E_FAULT ? "an index out of bounds, a dynamic shared array larger than --shared, or a "
                                     "thread's stack overrun; debug=True (the debug option) checks every index"
                                   : NULL,
             "kernel '%s' on the CPU: %s%s", f->name, err, near);
  return false;
}

static bool ensure_pool(RtHost *h, Diags *d) {
  char err[256] = "";
  if (h->pool || (h->pool = rt_host_pool_new(0, err, sizeof err)))
    return true;
  diag_error(d, RT_E_LAUNCH_FAILED, (SrcLoc){0}, NULL, "cannot start the CPU thread pool: %s", err);
  return false;
}

/* Everything that can fail before the launch, under the lock. */
static bool prepare(const RtPlan *p, const RtHostSpec **s, Diags *d, double *compile_ms) {
  RtHost *h = p->prog->host;
  pthread_mutex_lock(&h->lock);
  bool ok = get_spec(h, p, p->grid32, s, d, compile_ms) && check_shared(p->fn, &(*s)->entry, p->shared_bytes, d) &&
            ensure_pool(h, d);
  pthread_mutex_unlock(&h->lock);
  return ok;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

bool rt_host_run(const RtPlan *p, Diags *d, RtLaunchTiming *t) {
  memset(t, 0, sizeof *t);
  const RtHostSpec *s;
  if (!check_count(p->fn, p->nargs, d) || !check_values(p->fn, p->args, p->nargs, d) || !get_host(p->prog) ||
      !prepare(p, &s, d, &t->compile_ms))
    return false;
  double runs[64];
  int kept = 0;
  for (int r = 0; r < p->repeat; r++) {
    double t0 = now_ms();
    if (!launch(p->prog, p->fn, s, p->args, p->grid, p->block, p->shared_bytes, d))
      return false;
    runs[kept < 64 ? kept++ : r % 64] = now_ms() - t0; /* the median of the last 64 */
  }
  qsort(runs, (size_t)kept, sizeof runs[0], cmp_double);
  t->run_ms = kept ? runs[kept / 2] : 0;
  return true;
}

/* A grid-synchronizing launch runs its threads as fibers of one pool: at
 * most RT_HOST_MAX_GRID_THREADS of them. */
static bool max_cooperative(const RtPlan *p, int64_t *blocks, Diags *d) {
  (void)d;
  *blocks = RT_HOST_MAX_GRID_THREADS / ((int64_t)p->block[0] * p->block[1] * p->block[2]);
  return true;
}

/* kjit_kernel_prepare: the specialization compiled and loaded, nothing run. */
static bool prepare_plan(const RtPlan *p, Diags *d) {
  const RtHostSpec *s;
  double compile_ms = 0;
  return check_count(p->fn, p->nargs, d) && check_values(p->fn, p->args, p->nargs, d) &&
         get_host(p->prog) && prepare(p, &s, d, &compile_ms);
}

/* Host launches return when the kernel is done: nothing is ever queued. */
static bool sync_context(kjit_context *ctx, Diags *d) {
  (void)ctx, (void)d;
  return true;
}

const RtTarget rt_host_target = {"cpu", rt_host_run, max_cooperative, sync_context, prepare_plan};

/* ------------------------------------------------- device functions --- */

bool rt_host_prepare_call(const RtPlan *p, RtHostCall *out, unsigned char *buf, Diags *d) {
  const RtHostSpec *s;
  IrFunc *f = p->fn;
  const RtValue *args = p->args;
  int nargs = p->nargs;
  if (f->is_kernel || !check_count(f, nargs, d) || !check_values(f, args, nargs, d) || !get_host(p->prog))
    return false;
  RtHost *h = p->prog->host;
  pthread_mutex_lock(&h->lock);
  bool ok = get_spec(h, p, false, &s, d, NULL); /* one thread: no grid */
  pthread_mutex_unlock(&h->lock);
  if (!ok)
    return false;
  pack_args(s, args, buf);
  out->fn = s->entry.fn;
  out->nargs = nargs;
  out->ret_kind = s->ret_kind;
  for (int i = 0; i < nargs; i++) {
    out->kind[i] = s->kind[i];
    out->offset[i] = s->slots[i].offset;
  }
  return true;
}
