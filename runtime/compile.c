/* compile.c - the compile pipeline: kernel + signature -> KIR / LLVM / PTX.
 *
 * kjit_program_emit lists the stages in order (run_pipeline); each one adds
 * diagnostics and the first failing stage stops the rest.  A compile lives
 * in the call's Arena: typed IR, callee specializations and diagnostic text
 * are dropped together when the call returns, and only the emitted text
 * (malloc'd) survives.  The program itself is only read, except that new
 * array/tuple types are interned in its TypeTable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "lower/reduce.h"
#include "runtime/cache.h"
#include "runtime/runtime.h"
#include "runtime/cuc.h"
#include "runtime/cuda.h"
#include "runtime/link.h"

#define NVPTX_TRIPLE "nvptx64-nvidia-cuda"
#define DEFAULT_ARCH "sm_80"

/* GPU architectures LLVM 19's NVPTX backend and libdevice support (older
 * ones LLVM still lists are below what Numba and current CUDA accept). */
static const char *const known_archs[] = {
    "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
    "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"};
#define NARCHS ((int)(sizeof known_archs / sizeof known_archs[0]))

/* One (function, signature) pair to specialize. */
typedef struct Unit {
  IrFunc *generic;
  Signature sig;
  IrCompile *compile;   /* after specialization */
} Unit;

/* The state of one kjit_program_emit / kjit_program_check call. */
typedef struct Job {
  kjit_program *prog;
  RtCall call;          /* diagnostics; its arena is the compile arena */
  kjit_compile_options opts;
  Vec(Unit) units;
  FuncOptions *merged;  /* per unit: decorator options with overrides applied */
  int ptx_isa_max;      /* CgTarget.ptx_version_max (the CUDA target's driver) */
} Job;

static Arena *job_arena(Job *j) { return &j->call.arena; }
static Diags *job_diags(Job *j) { return &j->call.diags; }
static const char *get_file_name(const Job *j) { return j->prog->src.path; }

/* ------------------------------------------------------- did you mean --- */

static int count_edits(const char *a, const char *b) {
  int la = (int)strlen(a), lb = (int)strlen(b);
  if (la > 64 || lb > 64)
    return 1000;
  int row[65];
  for (int j = 0; j <= lb; j++)
    row[j] = j;
  for (int i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = i;
    for (int j = 1; j <= lb; j++) {
      int up = row[j];
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int best = diag + cost;
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* The closest of names[0..n) to `s`, if close enough to be a likely typo. */
static const char *find_closest(const char *s, const char *const *names, int n) {
  const char *best = NULL;
  int bestd = (int)strlen(s) / 3 + 1;
  if (bestd > 3)
    bestd = 3;
  for (int i = 0; i < n; i++) {
    int d = count_edits(s, names[i]);
    if (d <= bestd && (!best || d < bestd || strlen(names[i]) < strlen(best)))
      best = names[i], bestd = d;
  }
  return best;
}

/* "a, b, c" of the program's kernels (arena text). */
static const char *list_kernels(Job *j) {
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < j->prog->kernels.len; i++)
    sb_printf(&sb, "%s%s", i ? ", " : "", j->prog->kernels.data[i]->name);
  char *s = arena_strdup(job_arena(j), sb.data ? sb.data : "");
  sb_free(&sb);
  return s;
}

/* ----------------------------------------------------------- options --- */

/* For "sm_NN" (or "compute_NN"): the newest known architecture not above
 * NN, without the arch-specific 'a' variants (sm_91 -> sm_90); otherwise
 * the closest spelling. */
static const char *suggest_arch(const char *arch) {
  int n = 0;
  if (sscanf(arch, "%*[a-z]_%d", &n) != 1 || n <= 0)
    return find_closest(arch, known_archs, NARCHS);
  const char *best = NULL;
  for (int i = 0; i < NARCHS; i++)
    if (atoi(known_archs[i] + 3) <= n && !strchr(known_archs[i] + 3, 'a'))
      best = known_archs[i];
  return best;
}

static bool check_arch(Job *j) {
  const char *arch = j->opts.arch;
  for (int i = 0; i < NARCHS; i++)
    if (strcmp(arch, known_archs[i]) == 0)
      return true;
  const char *near = suggest_arch(arch);
  StrBuf sb;
  sb_init(&sb);
  if (near)
    sb_printf(&sb, "did you mean '%s'? ", near);
  sb_puts(&sb, "supported:");
  for (int i = 0; i < NARCHS; i++)
    sb_printf(&sb, " %s", known_archs[i]);
  diag_error(job_diags(j), RT_E_ARCH, (SrcLoc){0}, sb.data,
             "unknown GPU architecture '%s'", arch);
  sb_free(&sb);
  return false;
}

static bool check_range(Job *j, const char *what, int v, int lo, int hi) {
  if (v >= lo && v <= hi)
    return true;
  diag_error(job_diags(j), RT_E_ARGUMENT, (SrcLoc){0}, NULL,
             "%s must be between %d and %d (-1 = as the decorator says), not %d",
             what, lo, hi, v);
  return false;
}

/* No arch given: the present GPU's (the context's device, an open one's first),
 * else sm_80.  Probing loads the driver once per context, never a context. */
static const char *default_arch(Job *j) { return rt_default_arch(j->prog->ctx); }

const char *rt_default_arch(kjit_context *ctx) {
  if (ctx->cuda) {
    rt_cuda_codegen_arch(ctx->cuda->info.cc_major, ctx->cuda->info.cc_minor, ctx->default_arch,
                         sizeof ctx->default_arch);
  } else if (!ctx->default_arch[0] &&
             !rt_cuda_default_arch(rt_context_ordinal(ctx), ctx->default_arch,
                                   sizeof ctx->default_arch)) {
    snprintf(ctx->default_arch, sizeof ctx->default_arch, "%s", DEFAULT_ARCH);
  }
  return ctx->default_arch;
}

static bool check_options(Job *j, const kjit_compile_options *o) {
  kjit_compile_options_init(&j->opts);
  if (o)
    j->opts = *o;
  if (!j->opts.arch)
    j->opts.arch = default_arch(j);
  bool ok = check_range(j, "opt level", j->opts.opt_level, -1, 3) &
            check_range(j, "fastmath", j->opts.fastmath, -1, 1) &
            check_range(j, "lineinfo", j->opts.lineinfo, -1, 1) &
            check_range(j, "max registers", j->opts.max_registers, -1, 255) &
            check_range(j, "debug", j->opts.debug, -1, 1);
  bool reserved = j->opts.reserved32 != 0;
  for (size_t i = 0; i < sizeof j->opts.reserved / sizeof *j->opts.reserved; i++)
    reserved |= j->opts.reserved[i] != NULL;
  if (reserved) {
    diag_error(job_diags(j), RT_E_ARGUMENT, (SrcLoc){0}, "start from kjit_compile_options_init()",
               "kjit_compile_options.reserved must be zero");
    return false;
  }
  return ok && check_arch(j);
}

void kjit_compile_options_init(kjit_compile_options *opts) {
  if (!opts)
    return;
  memset(opts, 0, sizeof *opts);
  opts->arch = NULL;                    /* the present GPU's, else sm_80 */
  opts->opt_level = opts->fastmath = opts->lineinfo = opts->max_registers = opts->debug = -1;
  opts->fits32 = opts->grid32 = -1;
}

/* The decorator's options with this call's overrides applied. */
static FuncOptions merge_options(const Job *j, const IrFunc *f) {
  FuncOptions o = f->opts;
  if (j->opts.opt_level >= 0) o.opt = j->opts.opt_level;
  if (j->opts.fastmath >= 0) o.fastmath = j->opts.fastmath;
  if (j->opts.lineinfo >= 0) o.lineinfo = j->opts.lineinfo;
  if (j->opts.max_registers >= 0) o.max_registers = j->opts.max_registers;
  if (j->opts.debug >= 0) o.debug = o.boundscheck = j->opts.debug;
  return o;
}

/* ---------------------------------------------------- picking kernels --- */

static IrFunc *find_kernel(Job *j, const char *name) {
  for (int i = 0; i < j->prog->kernels.len; i++)
    if (strcmp(j->prog->kernels.data[i]->name, name) == 0)
      return j->prog->kernels.data[i];
  return NULL;
}

static void report_unknown_kernel(Job *j, const char *name) {
  Diags *d = job_diags(j);
  const char *list = list_kernels(j);
  IrFunc *f = ir_find_func(&j->prog->ir, name);
  if (f && f->is_device) {
    diag_error(d, RT_E_NO_KERNEL, f->ast ? f->ast->loc : (SrcLoc){0},
               *list ? arena_printf(job_arena(j), "kernels in %s: %s", get_file_name(j), list)
                     : "a kernel is decorated @cuda.jit without device=True",
               "'%s' is a device function, not a kernel", name);
    return;
  }
  const char **names = arena_alloc(job_arena(j), sizeof *names * (size_t)(j->prog->kernels.len + 1));
  for (int i = 0; i < j->prog->kernels.len; i++)
    names[i] = j->prog->kernels.data[i]->name;
  const char *near = find_closest(name, names, j->prog->kernels.len);
  const char *hint;
  if (!*list)
    hint = arena_printf(job_arena(j), "%s has no kernels (functions decorated "
                        "@cuda.jit without device=True)", get_file_name(j));
  else if (near)
    hint = arena_printf(job_arena(j), "did you mean '%s'? (kernels in %s: %s)",
                        near, get_file_name(j), list);
  else
    hint = arena_printf(job_arena(j), "kernels in %s: %s", get_file_name(j), list);
  diag_error(d, RT_E_NO_KERNEL, (SrcLoc){0}, hint, "no kernel named '%s' in %s",
             name, get_file_name(j));
}

static void add_unit(Job *j, IrFunc *f, Signature sig) {
  Unit u = {f, sig, NULL};
  vec_push(job_arena(j), &j->units, u);
}

static bool add_eager_units(Job *j, IrFunc *f) {
  for (int i = 0; i < f->eager.len; i++)
    add_unit(j, f, f->eager.data[i]);
  return f->eager.len > 0;
}

/* kernel == NULL: every kernel with eager signatures. */
static bool select_all_kernels(Job *j) {
  for (int i = 0; i < j->prog->kernels.len; i++)
    add_eager_units(j, j->prog->kernels.data[i]);
  if (j->units.len)
    return true;
  const char *hint = j->prog->kernels.len
      ? arena_printf(job_arena(j), "name a kernel and give its signature: "
                     "%s:%s --sig \"void(...)\"", get_file_name(j),
                     j->prog->kernels.data[0]->name)
      : "kernels are functions decorated @cuda.jit without device=True";
  diag_error(job_diags(j), RT_E_NO_SIGNATURE, (SrcLoc){0}, hint,
             j->prog->kernels.len ? "no kernel in %s has an eager signature"
                                  : "no kernels in %s", get_file_name(j));
  return false;
}

/* Parses a signature given to the call; its diagnostics point into a
 * Source named "--sig" that lives in the call's arena. */
static bool parse_signature(Job *j, const char *text, Signature *sig) {
  Source *s = arena_alloc(job_arena(j), sizeof *s);
  s->path = "--sig";
  s->text = arena_strdup(job_arena(j), text);
  s->len = strlen(text);
  return ir_parse_signature(&j->prog->ir, s, sig, job_diags(j)) &&
         !job_diags(j)->nerrors;
}

/* A @vectorize function: its contiguous elementwise kernel for the scalar
 * --sig, or for each of its signatures (runtime/ufunc.c). */
static bool select_ufunc_units(Job *j, IrFunc *uf, const char *signature) {
  Signature sig, ksig;
  IrFunc *k;
  if (signature) {
    if (!parse_signature(j, signature, &sig))
      return false;
    if (!rt_ufunc_kernel_for(j->prog, uf, -1, &sig, &k, &ksig)) {
      diag_error(job_diags(j), RT_E_ARITY, sig.loc, "give the scalar signature, e.g. "
                 "\"float32(float32, float32)\"", "signature does not fit @vectorize function '%s'",
                 uf->name);
      return false;
    }
    add_unit(j, k, ksig);
    return true;
  }
  for (int i = 0; i < uf->eager.len; i++)
    if (rt_ufunc_kernel_for(j->prog, uf, i, &uf->eager.data[i], &k, &ksig))
      add_unit(j, k, ksig);
  if (j->units.len)
    return true;
  diag_error(job_diags(j), RT_E_NO_SIGNATURE, uf->ast ? uf->ast->loc : (SrcLoc){0},
             "pass the scalar signature, e.g. --sig \"float32(float32, float32)\"",
             "@vectorize function '%s' has no signature", uf->name);
  return false;
}

/* A @cuda.reduce function has no kernel of its own: --sig "float32[:]"
 * names the array type, and the units are its generated CUDA kernel for
 * that array (pass 1) and for the C-contiguous partials (pass 2). */
static bool select_reduction(Job *j, IrFunc *f, const char *signature) {
  Signature sig;
  const char *text = !signature ? NULL : strchr(signature, '(') ? signature
                                       : arena_printf(job_arena(j), "void(%s)", signature);
  if (!text) {
    diag_error(job_diags(j), RT_E_NO_SIGNATURE, f->ast ? f->ast->loc : (SrcLoc){0},
               "e.g. --sig \"float32[:]\"", "reduction '%s' needs the array type; pass --sig", f->name);
    return false;
  }
  if (!parse_signature(j, text, &sig))
    return false;
  const Type *a = sig.nparams == 1 ? sig.params[0] : NULL;
  if (!a || a->kind != TY_ARRAY || a->ndim != 1) {
    diag_error(job_diags(j), RT_E_ARITY, sig.loc, "e.g. --sig \"float32[:]\"",
               "reduction '%s' reduces one 1-d array; --sig must name its type", f->name);
    return false;
  }
  IrReduceKernels k;
  if (!ir_reduce_kernels(&j->prog->ir, f, a->elem, job_diags(j), &k))
    return false;
  TypeTable *tt = j->prog->ir.types;
  const Type *part = ty_array(tt, a->elem, 1, LAYOUT_C);
  for (int pass = 0; pass < (a == part ? 1 : 2); pass++) {
    const Type **p = arena_alloc(job_arena(j), sizeof *p * 4);
    p[0] = pass ? part : a, p[1] = part, p[2] = TY_I64_T, p[3] = TY_I64_T;
    add_unit(j, k.cuda, (Signature){.ret = TY_VOID_T, .nparams = 4, .params = p, .loc = sig.loc});
  }
  return true;
}

static bool select_units(Job *j, const char *kernel, const char *signature) {
  if (!kernel && !signature)
    return select_all_kernels(j);
  IrFunc *f, *r = kernel ? ir_find_func(&j->prog->ir, kernel) : NULL;
  if (r && r->is_reduce)
    return select_reduction(j, r, signature);
  if (r && r->is_ufunc)
    return select_ufunc_units(j, r, signature);
  if (kernel) {
    if (!(f = find_kernel(j, kernel))) {
      report_unknown_kernel(j, kernel);
      return false;
    }
  } else if (j->prog->kernels.len == 1) {
    f = j->prog->kernels.data[0];
  } else {
    diag_error(job_diags(j), RT_E_ARGUMENT, (SrcLoc){0},
               arena_printf(job_arena(j), "kernels in %s: %s", get_file_name(j), list_kernels(j)),
               "a signature needs a kernel name: %s has %d kernels", get_file_name(j),
               j->prog->kernels.len);
    return false;
  }
  if (signature) {
    Signature sig;
    if (!parse_signature(j, signature, &sig))
      return false;
    add_unit(j, f, sig);
    return true;
  }
  if (add_eager_units(j, f))
    return true;
  diag_error(job_diags(j), RT_E_NO_SIGNATURE, f->ast ? f->ast->loc : (SrcLoc){0},
             "a lazy kernel (@cuda.jit without a signature) is typed when it is "
             "called; give the argument types, e.g. --sig \"void(float32[:])\"",
             "kernel '%s' has no eager signature; pass --sig", f->name);
  return false;
}

/* ----------------------------------------------------- specialization --- */

static const char *format_type(Job *j, const Type *t) {
  char buf[128];
  return arena_strdup(job_arena(j), ty_name(t, buf, sizeof buf));
}

static const char *list_params(Job *j, const IrFunc *f) {
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < f->nparams; i++)
    sb_printf(&sb, "%s%s", i ? ", " : "", f->locals.data[i].name);
  char *s = arena_strdup(job_arena(j), sb.data ? sb.data : "");
  sb_free(&sb);
  return s;
}

/* Kernels return void; every function takes as many arguments as the
 * signature lists. */
/* Bytes one kernel parameter takes in CUDA's .param space, as the PTX
 * declares it: an array is {ptr, shape[N], strides[N]} (8 + 16N, align 8),
 * a scalar its storage (bool 1 byte), a tuple its elements in order. */
static uint32_t param_bytes(const Type *t, uint32_t off) {
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->nelems; i++)
      off = param_bytes(t->elems[i], off);
    return off;
  }
  uint32_t size = t->kind == TY_ARRAY ? 8u + 16u * (uint32_t)t->ndim : (uint32_t)ty_size(t);
  uint32_t align = t->kind == TY_ARRAY ? 8u : t->kind == TY_C64 ? 4u : t->kind == TY_C128 ? 8u : size;
  if (align > 1)
    off = (off + align - 1) / align * align;
  return off + size;
}

/* CUDA passes at most RT_CUDA_PARAM_LIMIT (4 KiB) of kernel parameters: a
 * kernel past it gets one error at its def when its PTX is made, rather
 * than a module the driver refuses to load. */
static bool check_param_space(Job *j, Unit *u) {
  const IrFunc *f = u->generic;
  uint32_t off = 0;
  for (int i = 0; f->is_kernel && i < u->sig.nparams; i++)
    off = param_bytes(u->sig.params[i], off);
  if (off <= RT_CUDA_PARAM_LIMIT)
    return true;
  diag_error(job_diags(j), RT_E_PARAM_SPACE, f->ast ? f->ast->loc : u->sig.loc,
             "pass fewer arrays, or gather scalars into one array",
             "kernel '%s' takes %u bytes of parameters (%d parameters); CUDA passes at most %d",
             f->name, off, u->sig.nparams, RT_CUDA_PARAM_LIMIT);
  return false;
}

static bool check_signature(Job *j, Unit *u) {
  const IrFunc *f = u->generic;
  const Signature *s = &u->sig;
  bool ok = true;
  if (f->is_kernel && s->ret && s->ret->kind != TY_VOID) {
    diag_error(job_diags(j), RT_E_NOT_VOID, s->loc,
               "Numba kernels cannot return a value; write the result to an "
               "output array and use \"void(...)\"",
               "kernel '%s' must return void, but its signature returns %s",
               f->name, format_type(j, s->ret));
    ok = false;
  }
  if (s->nparams != f->nparams) {
    diag_error(job_diags(j), RT_E_ARITY, s->loc,
               arena_printf(job_arena(j), "%s(%s) is defined at %s:%d", f->name,
                            list_params(j, f), get_file_name(j), f->ast ? f->ast->loc.line : 0),
               "signature has %d parameter%s but '%s' takes %d", s->nparams,
               s->nparams == 1 ? "" : "s", f->name, f->nparams);
    ok = false;
  }
  return ok;
}

static bool specialize(Job *j, Unit *u) {
  IrCompile *c = arena_alloc(job_arena(j), sizeof *c);
  c->prog = &j->prog->ir;
  c->arena = job_arena(j);
  c->diags = job_diags(j);
  c->override = NULL; /* overrides are applied per function below */
  c->fits32 = u->sig.fits32 || j->opts.fits32 == 1; /* a launch's fact, or --fits32 */
  c->grid32 = u->sig.grid32 || j->opts.grid32 == 1; /* its geometry's, or --grid32 */
  u->compile = c;
  return ir_specialize(c, u->generic, u->sig.params, u->sig.nparams, u->sig.loc) != NULL &&
         c->funcs.len > 0;
}

/* Each specialized function carries its own decorator's options with this
 * call's overrides applied (codegen reads per-function knobs from them);
 * *merged keeps the entry's for the module-wide ones. */
static bool apply_options(Job *j, Unit *u, FuncOptions *merged) {
  for (int i = 0; i < u->compile->funcs.len; i++) {
    IrFunc *f = u->compile->funcs.data[i];
    f->opts = merge_options(j, f->generic ? f->generic : f);
  }
  *merged = u->compile->funcs.data[0]->opts;
  return true;
}

static bool verify(Job *j, Unit *u) {
  bool ok = true;
  for (int i = 0; i < u->compile->funcs.len; i++)
    ok &= ir_verify(u->compile->funcs.data[i], job_diags(j));
  return ok;
}

/* The passes for one (function, signature), in order. */
static bool compile_unit(Job *j, Unit *u, FuncOptions *merged) {
  return check_signature(j, u) &&
         check_param_space(j, u) &&
         specialize(j, u) &&
         apply_options(j, u, merged) &&
         verify(j, u);
}

/* Every unit is compiled even after one fails, so one run reports all. */
static bool compile_units(Job *j) {
  j->merged = arena_alloc(job_arena(j), sizeof *j->merged * (size_t)j->units.len);
  bool ok = true;
  for (int i = 0; i < j->units.len; i++)
    ok &= compile_unit(j, &j->units.data[i], &j->merged[i]);
  return ok && !job_diags(j)->nerrors;
}

/* ------------------------------------------------------------ emitting --- */

/* Module-wide codegen knobs: the call's overrides, else derived from the
 * kernels' decorators so that no kernel gets a relaxation it did not ask
 * for: fastmath only when every kernel of the module asks for it; the
 * highest opt level; line info when any asks.  max_registers stays 0 unless
 * overridden, so codegen takes each function's own (IrFunc.opts). */
static CgOptions cg_options(const Job *j) {
  CgOptions o = {.fastmath = j->units.len > 0};
  for (int i = 0; i < j->units.len; i++) {
    const FuncOptions *m = &j->merged[i];
    if (m->opt > o.opt_level)
      o.opt_level = m->opt;
    o.fastmath &= m->fastmath;
    o.lineinfo |= m->lineinfo;
    o.debug |= m->debug;
  }
  if (j->opts.opt_level >= 0) o.opt_level = j->opts.opt_level;
  if (j->opts.fastmath >= 0) o.fastmath = j->opts.fastmath;
  if (j->opts.lineinfo >= 0) o.lineinfo = j->opts.lineinfo;
  o.max_registers = j->opts.max_registers > 0 ? j->opts.max_registers : 0;
  return o;
}

static bool emit_kir(Job *j, char **out, size_t *len) {
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < j->units.len; i++) {
    if (i)
      sb_putc(&sb, '\n');
    ir_print_compile(j->units.data[i].compile, &sb);
  }
  *len = sb.len;
  *out = sb_take(&sb);
  return true;
}

/* The first unit's kernel, for trace lines. */
static const char *unit_name(const Job *j) {
  const IrFunc *f = j->units.len ? j->units.data[0].generic : NULL;
  return f ? f->name : "?";
}

/* Which variant trace lines name: the 32-bit-offset one (IrCompile.fits32)
 * or none. */
static const char *variant(const Job *j) {
  const IrCompile *c = j->units.len ? j->units.data[0].compile : NULL;
  return c && ir_compile_fits32(c) ? " (fits32 variant)" : "";
}

static bool emit_llvm(Job *j, kjit_emit what, char **out, size_t *len) {
  CgSession *s = rt_cg_session(j->prog->ctx);
  if (!s) {
    diag_error(job_diags(j), 500, (SrcLoc){0}, NULL,
               "cannot initialise the LLVM NVPTX code generator");
    return false;
  }
  IrCompile **cs = arena_alloc(job_arena(j), sizeof *cs * (size_t)j->units.len);
  for (int i = 0; i < j->units.len; i++)
    cs[i] = j->units.data[i].compile;
  CgTarget target = {CG_NVPTX, NVPTX_TRIPLE, j->opts.arch, "", j->ptx_isa_max};
  CgOptions o = cg_options(j);
  CgEmit e = what == KJIT_EMIT_LLVM ? CG_EMIT_LLVM : CG_EMIT_PTX;
  /* Disk cache (runtime/cache.h): PTX whose key is found skips codegen;
   * otherwise this process holds the entry's compile lock (others wait
   * for it) and the PTX codegen produces is stored under that key. */
  RtCachedCompile cc = {0};
  if (e == CG_EMIT_PTX && rt_cache_find_ptx(j->prog->ctx, s, cs, j->units.len, &target,
                                            &o, &cc, out, len, job_diags(j))) {
    trace_event("ptx of '%s' for %s: from the cache%s", unit_name(j), target.cpu, variant(j));
    return true;
  }
  trace_event("%s of '%s' for %s: codegen%s", e == CG_EMIT_PTX ? "ptx" : "llvm", unit_name(j),
              target.cpu, variant(j));
  bool ok = cg_emit(s, cs, j->units.len, &target, &o, e, out, len, job_diags(j));
  trace_event("codegen of '%s' %s", unit_name(j), ok ? "done" : "failed");
  if (e == CG_EMIT_PTX) /* stores on success; releases the entry's compile lock */
    rt_cache_store_ptx(j->prog->ctx, &cc, cs, j->units.len, ok ? *out : NULL, *len, job_diags(j));
  return ok;
}

/* The PTX, then linked with the kernels' CUDA C files (runtime/link.c). */
static bool emit_cubin(Job *j, char **out, size_t *len) {
  char *ptx = NULL;
  size_t n = 0;
  if (!emit_llvm(j, KJIT_EMIT_PTX, &ptx, &n))
    return false;
  IrFunc **ks = arena_alloc(job_arena(j), sizeof *ks * (size_t)(j->units.len + 1));
  for (int i = 0; i < j->units.len; i++)
    ks[i] = j->units.data[i].generic;
  bool ok = rt_link_cubin(j->prog, ks, j->units.len, j->opts.arch, ptx, n, out, len, job_diags(j));
  free(ptx);
  return ok;
}

static bool emit(Job *j, kjit_emit what, char **out, size_t *len) {
  if (what == KJIT_EMIT_KIR)
    return emit_kir(j, out, len);
  if (what == KJIT_EMIT_CUBIN)
    return emit_cubin(j, out, len);
  return emit_llvm(j, what, out, len);
}

/* ----------------------------------------------------------- pipeline --- */

/* The whole compile, top to bottom. */
static kjit_status run_pipeline(Job *j, const char *kernel, const char *signature,
                                const kjit_compile_options *opts, kjit_emit what,
                                char **out, size_t *len) {
  if (check_options(j, opts) &&
      select_units(j, kernel, signature) &&
      compile_units(j) &&
      emit(j, what, out, len))
    return KJIT_OK;
  kjit_status st = rt_status_of(job_diags(j));
  return st != KJIT_OK ? st : KJIT_ERROR_INTERNAL; /* a stage failed silently */
}

kjit_status kjit_program_emit(kjit_program *prog, const char *kernel,
                              const char *signature,
                              const kjit_compile_options *opts, kjit_emit what,
                              char **out, size_t *len) {
  if (!prog || !out || !len)
    return KJIT_ERROR_INVALID_ARGUMENT;
  if (prog->cuc)                        /* CUDA C: NVRTC (runtime/cuc_compile.c) */
    return rt_cuc_emit(prog, kernel, signature, opts, what, out, len);
  Job j = {.prog = prog};
  rt_begin(&j.call, prog->ctx);
  if (what != KJIT_EMIT_KIR && what != KJIT_EMIT_LLVM && what != KJIT_EMIT_PTX &&
      what != KJIT_EMIT_CUBIN) {
    diag_error(job_diags(&j), RT_E_ARGUMENT, (SrcLoc){0}, NULL,
               "unknown kjit_emit value %d", (int)what);
    return rt_finish(&j.call, KJIT_ERROR_INVALID_ARGUMENT);
  }
  char *text = NULL;
  size_t n = 0;
  kjit_status st = run_pipeline(&j, kernel, signature, opts, what, &text, &n);
  st = rt_finish(&j.call, st);
  if (st != KJIT_OK) {
    free(text);
    return st;
  }
  *out = text;
  *len = n;
  return KJIT_OK;
}

/* kjit check: every eager signature of every decorated function. */
kjit_status kjit_program_check(kjit_program *prog) {
  if (!prog)
    return KJIT_ERROR_INVALID_ARGUMENT;
  if (prog->cuc)
    return rt_cuc_check(prog);
  Job j = {.prog = prog};
  rt_begin(&j.call, prog->ctx);
  kjit_compile_options_init(&j.opts);
  for (int i = 0; i < prog->ir.funcs.len; i++) /* lazy ones too: every body */
    ir_report_body_errors(prog->ir.funcs.data[i], job_diags(&j));
  for (int i = 0; i < prog->ir.funcs.len; i++)
    add_eager_units(&j, prog->ir.funcs.data[i]);
  compile_units(&j);
  return rt_finish(&j.call, rt_status_of(job_diags(&j)));
}

/* The launch API (api_launch.c) reports an unknown kernel name exactly as
 * emit does: the report is made in a scratch Job, then copied (diag_add
 * copies the text) into the caller's diagnostics. */
void rt_report_unknown_kernel(kjit_program *prog, const char *name, RtCall *call) {
  Job j = {.prog = prog};
  arena_init(&j.call.arena);
  diags_init(&j.call.diags, &j.call.arena);
  report_unknown_kernel(&j, name);
  for (int i = 0; i < j.call.diags.list.len; i++) {
    const Diag *g = &j.call.diags.list.data[i];
    diag_add(&call->diags, g->level, g->code, g->loc, g->hint, "%s", g->msg);
  }
  arena_destroy(&j.call.arena);
}

void rt_report_unknown_function(kjit_program *prog, const char *name, RtCall *call) {
  const IrProgram *ir = &prog->ir;
  const char **names = arena_alloc(&call->arena, sizeof *names * (size_t)(ir->funcs.len + 1));
  int n = 0;
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < ir->funcs.len; i++)
    if (!ir->funcs.data[i]->is_kernel) {
      sb_printf(&sb, "%s%s", n ? ", " : "", ir->funcs.data[i]->name);
      names[n++] = ir->funcs.data[i]->name;
    }
  const char *near = find_closest(name, names, n);
  const char *list = sb.data ? sb.data : "";
  const char *hint = !n ? arena_printf(&call->arena, "%s has no device functions (@cuda.jit(device=True))", prog->src.path)
                     : near ? arena_printf(&call->arena, "did you mean '%s'? (device functions: %s)", near, list)
                            : arena_printf(&call->arena, "device functions: %s", list);
  diag_error(&call->diags, RT_E_NO_KERNEL, (SrcLoc){0}, hint, "no device function named '%s' in %s", name,
             prog->src.path);
  sb_free(&sb);
}

/* ------------------------------------------------------ CUDA target --- */

/* Copies diagnostics (their text) into another list; source locations
 * point into the program, which outlives the call. */
static void copy_diags(const Diags *from, Diags *to) {
  for (int i = 0; i < from->list.len; i++) {
    const Diag *g = &from->list.data[i];
    diag_add(to, g->level, g->code, g->loc, g->hint, "%s", g->msg);
  }
}

/* The CUDA launch path (cuda_run.c): kernel f for one signature -> PTX for
 * the device's arch, the .version at most ptx_isa_max.  The compile has its
 * own arena (freed here); diagnostics are copied into `diags`. */
bool rt_compile_ptx(kjit_program *prog, IrFunc *f, const Signature *sig, const char *arch,
                    int ptx_isa_max, char **ptx, size_t *len, bool *lineinfo, Diags *diags) {
  Job j = {.prog = prog, .ptx_isa_max = ptx_isa_max};
  j.call.ctx = prog->ctx;
  arena_init(&j.call.arena);
  diags_init(&j.call.diags, &j.call.arena);
  kjit_compile_options_init(&j.opts);
  j.opts.arch = arch;
  j.opts.debug = prog->ctx->opts.debug ? 1 : -1;
  add_unit(&j, f, *sig);
  bool ok = check_arch(&j) && compile_units(&j) && emit(&j, KJIT_EMIT_PTX, ptx, len);
  *lineinfo = ok && cg_options(&j).lineinfo;
  copy_diags(&j.call.diags, diags);
  arena_destroy(&j.call.arena);
  return ok;
}
