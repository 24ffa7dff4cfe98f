/* compile.c - the compile driver: (function, signature) units -> KIR /
 * LLVM / PTX, the only way kernels are compiled (api/emit.c picks the
 * units for kjit_program_emit; the CUDA target calls rt_compile_ptx).
 *
 * Each stage adds diagnostics and the first failing stage stops the rest.  A compile lives
 * in the call's Arena: typed IR, callee specializations and diagnostic text
 * are dropped together when the call returns, and only the emitted text
 * (malloc'd) survives.  The program itself is only read, except that new
 * array/tuple types are interned in its TypeTable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"
#include "common/trace.h"
#include "runtime/compile.h"

#define NVPTX_TRIPLE "nvptx64-nvidia-cuda"

/* GPU architectures LLVM 19's NVPTX backend and libdevice support (older
 * ones LLVM still lists are below what Numba and current CUDA accept). */
static const char *const known_archs[] = {
    "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
    "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"};
#define NARCHS ((int)(sizeof known_archs / sizeof known_archs[0]))

static Arena *job_arena(RtJob *j) { return &j->call.arena; }
static Diags *job_diags(RtJob *j) { return &j->call.diags; }
static const char *get_file_name(const RtJob *j) { return j->prog->src.path; }

/* ----------------------------------------------------------- options --- */

/* For "sm_NN" (or "compute_NN"): the newest known architecture not above
 * NN, without the arch-specific 'a' variants (sm_91 -> sm_90); otherwise
 * the closest spelling. */
static const char *suggest_arch(const char *arch) {
  int n = 0;
  if (sscanf(arch, "%*[a-z]_%d", &n) != 1 || n <= 0)
    return suggest_closest(arch, known_archs, NARCHS);
  const char *best = NULL;
  for (int i = 0; i < NARCHS; i++)
    if (atoi(known_archs[i] + 3) <= n && !strchr(known_archs[i] + 3, 'a'))
      best = known_archs[i];
  return best;
}

static bool check_arch(RtJob *j) {
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

static bool check_range(RtJob *j, const char *what, int v, int lo, int hi) {
  if (v >= lo && v <= hi)
    return true;
  diag_error(job_diags(j), RT_E_ARGUMENT, (SrcLoc){0}, NULL,
             "%s must be between %d and %d (-1 = as the decorator says), not %d",
             what, lo, hi, v);
  return false;
}

bool rt_job_check_options(RtJob *j, const kjit_compile_options *o, const char *default_arch) {
  kjit_compile_options_init(&j->opts);
  if (o)
    j->opts = *o;
  if (!j->opts.arch)
    j->opts.arch = default_arch ? default_arch : RT_DEFAULT_ARCH;
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
  const char *map = j->opts.file_prefix_map;
  if (map && (!strchr(map, '=') || map[0] == '=')) {
    diag_error(job_diags(j), RT_E_ARGUMENT, (SrcLoc){0},
               "write OLD=NEW, e.g. --file-prefix-map /home/me/src=/src (NEW may be empty)",
               "file prefix map '%s' is not OLD=NEW", map);
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
static FuncOptions merge_options(const RtJob *j, const IrFunc *f) {
  FuncOptions o = f->opts;
  if (j->opts.opt_level >= 0) o.opt = j->opts.opt_level;
  if (j->opts.fastmath >= 0) o.fastmath = j->opts.fastmath;
  if (j->opts.lineinfo >= 0) o.lineinfo = j->opts.lineinfo;
  if (j->opts.max_registers >= 0) o.max_registers = j->opts.max_registers;
  if (j->opts.debug >= 0) o.debug = o.boundscheck = j->opts.debug;
  return o;
}

/* ---------------------------------------------------- picking kernels --- */

void rt_job_add_unit(RtJob *j, IrFunc *f, Signature sig) {
  RtUnit u = {f, sig, NULL};
  vec_push(job_arena(j), &j->units, u);
}

bool rt_job_add_eager_units(RtJob *j, IrFunc *f) {
  for (int i = 0; i < f->eager.len; i++)
    rt_job_add_unit(j, f, f->eager.data[i]);
  return f->eager.len > 0;
}

/* ----------------------------------------------------- specialization --- */

static const char *format_type(RtJob *j, const Type *t) {
  char buf[128];
  return arena_strdup(job_arena(j), ty_name(t, buf, sizeof buf));
}

static const char *list_params(RtJob *j, const IrFunc *f) {
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
static bool check_param_space(RtJob *j, RtUnit *u) {
  const IrFunc *f = u->generic;
  uint32_t off = 0;
  if (j->target == RT_JOB_CPU) /* the CPU target checks its own (host/host_launch.c) */
    return true;
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

static bool check_signature(RtJob *j, RtUnit *u) {
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

static bool specialize(RtJob *j, RtUnit *u) {
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
 * compile_unit keeps the entry's for the module-wide ones. */
static bool apply_options(RtJob *j, RtUnit *u) {
  for (int i = 0; i < u->compile->funcs.len; i++) {
    IrFunc *f = u->compile->funcs.data[i];
    f->opts = merge_options(j, f->generic ? f->generic : f);
  }
  return true;
}

static bool verify(RtJob *j, RtUnit *u) {
  bool ok = true;
  for (int i = 0; i < u->compile->funcs.len; i++)
    ok &= ir_verify(u->compile->funcs.data[i], job_diags(j));
  return ok;
}

/* Which int64 values provably fit int32 (ir/narrow.c), for every function:
 * an analysis whose result codegen reads (IrFunc.narrow_*); the IR is not
 * changed. */
static bool narrow(RtJob *j, RtUnit *u) {
  const IrCompile *c = u->compile;
  for (int i = 0; i < c->funcs.len; i++) {
    IrFunc *f = c->funcs.data[i];
    f->narrow_locals = arena_alloc(job_arena(j), sizeof *f->narrow_locals * (size_t)(f->locals.len + 1));
    f->narrow_insts = arena_alloc(job_arena(j), (size_t)f->insts.len + 1);
    ir_narrow_locals(c, f, f->narrow_locals);
    ir_narrow_insts(c, f, f->narrow_insts);
  }
  return true;
}

/* The passes for one (function, signature), in order; `specialize` runs
 * the typing passes (typing/infer.c) on every function it reaches. */
static const struct {
  const char *name;
  bool (*run)(RtJob *j, RtUnit *u);
} unit_passes[] = {
    {"check-signature", check_signature},     /* kernels return void; the arity */
    {"check-param-space", check_param_space}, /* CUDA's 4 KiB of parameters */
    {"specialize", specialize},               /* ir_specialize: typed clones */
    {"apply-options", apply_options},         /* decorator options, the call's overrides */
    {"verify", verify},                       /* ir_verify on every function */
    {"narrow", narrow},                       /* int64 values that fit int32 */
};

static bool compile_unit(RtJob *j, RtUnit *u, FuncOptions *merged) {
  for (size_t i = 0; i < sizeof unit_passes / sizeof unit_passes[0]; i++)
    if (!unit_passes[i].run(j, u))
      return false;
  *merged = u->compile->funcs.data[0]->opts;
  return true;
}

/* Every unit is compiled even after one fails, so one run reports all. */
bool rt_job_compile_units(RtJob *j) {
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
static CgOptions cg_options(const RtJob *j) {
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
  o.prefix_map = j->opts.file_prefix_map;
  return o;
}

CgOptions rt_job_cg_options(const RtJob *j) { return cg_options(j); }

static bool emit_kir(RtJob *j, char **out, size_t *len) {
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
static const char *unit_name(const RtJob *j) {
  const IrFunc *f = j->units.len ? j->units.data[0].generic : NULL;
  return f ? f->name : "?";
}

/* Which variant trace lines name: the 32-bit-offset one (IrCompile.fits32)
 * or none. */
static const char *variant(const RtJob *j) {
  const IrCompile *c = j->units.len ? j->units.data[0].compile : NULL;
  return c && ir_compile_fits32(c) ? " (fits32 variant)" : "";
}

static bool emit_llvm(RtJob *j, kjit_emit what, char **out, size_t *len) {
  CgSession *s = rt_cg_session(j->prog->ctx);
  if (!s) {
    diag_error(job_diags(j), E_CG_LLVM, (SrcLoc){0}, NULL,
               "cannot initialise the LLVM NVPTX code generator");
    return false;
  }
  IrCompile **cs = arena_alloc(job_arena(j), sizeof *cs * (size_t)j->units.len);
  for (int i = 0; i < j->units.len; i++)
    cs[i] = j->units.data[i].compile;
  CgTarget target = {CG_NVPTX, NVPTX_TRIPLE, j->opts.arch, "", j->ptx_isa_max, false};
  CgOptions o = cg_options(j);
  CgEmit e = what == KJIT_EMIT_LLVM ? CG_EMIT_LLVM : CG_EMIT_PTX;
  /* Disk cache (cache/cache.h): PTX whose key is found skips codegen;
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

bool rt_job_emit(RtJob *j, kjit_emit what, char **out, size_t *len) {
  if (what == KJIT_EMIT_KIR)
    return emit_kir(j, out, len);
  return emit_llvm(j, what, out, len);
}

/* --------------------------------------------------------- launches --- */

/* Copies diagnostics (their text) into another list; source locations
 * point into the program, which outlives the call. */
static void copy_diags(const Diags *from, Diags *to) {
  for (int i = 0; i < from->list.len; i++) {
    const Diag *g = &from->list.data[i];
    diag_add(to, g->level, g->code, g->loc, g->hint, "%s", g->msg);
  }
}

bool rt_compile_launch(kjit_program *prog, IrFunc *f, const Signature *sig, const RtLaunchCompile *how,
                       Diags *diags) {
  RtJob j = {.prog = prog, .target = how->target, .ptx_isa_max = how->ptx_isa_max};
  j.call.ctx = prog->ctx;
  arena_init(&j.call.arena);
  diags_init(&j.call.diags, &j.call.arena);
  kjit_compile_options_init(&j.opts);
  j.opts.arch = how->arch;
  j.opts.debug = prog->ctx->opts.debug ? 1 : -1;
  j.opts.lineinfo = prog->ctx->opts.lineinfo ? 1 : -1;
  rt_job_add_unit(&j, f, *sig);
  bool ok = (how->target == RT_JOB_CPU || check_arch(&j)) && rt_job_compile_units(&j) &&
            how->emit(&j, how->data);
  copy_diags(&j.call.diags, diags);
  arena_destroy(&j.call.arena);
  return ok;
}

/* ------------------------------------------------------ CUDA target --- */

/* The PTX of a launch's compile (rt_compile_launch's emit step). */
typedef struct PtxOut {
  char **ptx;
  size_t *len;
  bool *lineinfo;
} PtxOut;

static bool emit_ptx(RtJob *j, void *data) {
  PtxOut *o = data;
  bool ok = rt_job_emit(j, KJIT_EMIT_PTX, o->ptx, o->len);
  *o->lineinfo = ok && cg_options(j).lineinfo;
  return ok;
}

bool rt_compile_ptx(kjit_program *prog, IrFunc *f, const Signature *sig, const char *arch,
                    int ptx_isa_max, char **ptx, size_t *len, bool *lineinfo, Diags *diags) {
  PtxOut out = {ptx, len, lineinfo};
  *lineinfo = false;
  RtLaunchCompile how = {RT_JOB_CUDA, arch, ptx_isa_max, emit_ptx, &out};
  return rt_compile_launch(prog, f, sig, &how, diags);
}
