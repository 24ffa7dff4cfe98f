/* aot.c - kjit_program_aot: compiles the chosen kernels (each for its
 * signatures) for every architecture and 32-bit variant as cubins and the
 * highest architecture's PTX, and for the CPU as host assembly, then hands
 * them to aot_write.c; kjit_program_aot_device: device functions alone as
 * one PTX module with the C ABI, and the CUDA C header declaring them.  Each compile is one job of the compile driver
 * (runtime/compile.c) with its own arena; the first job's diagnostics go to
 * the caller, so an unknown kernel or a bad --sig reads as it does for
 * `kjit ptx`.  Output depends on the program, the options and kjit's
 * version only: units keep the caller's order, architectures are sorted. */
#include <stdlib.h>
#include <string.h>

#include "aot/aot.h"
#include "cuda/link.h"

/* ------------------------------------------------------------ jobs --- */

static void job_begin(RtJob *j, kjit_program *prog, RtJobTarget t) {
  memset(j, 0, sizeof *j);
  j->prog = prog;
  j->target = t;
  j->call.ctx = prog->ctx;
  arena_init(&j->call.arena);
  diags_init(&j->call.diags, &j->call.arena);
}

/* Copies the job's diagnostics (their text) into the call's, frees it. */
static bool job_end(RtJob *j, Diags *to, bool ok) {
  for (int i = 0; i < j->call.diags.list.len; i++) {
    const Diag *g = &j->call.diags.list.data[i];
    diag_add(to, g->level, g->code, g->loc, g->hint, "%s", g->msg);
  }
  arena_destroy(&j->call.arena);
  return ok;
}

/* The signature's Source lives in `keep` (the call's arena): diagnostics
 * point at it after job_end frees the job's arena. */
static bool parse_sig(RtJob *j, Arena *keep, const char *text, Signature *sig) {
  Source *s = arena_alloc(keep, sizeof *s);
  s->path = "--sig";
  s->text = arena_strdup(keep, text);
  s->len = strlen(text);
  return ir_parse_signature(&j->prog->ir, s, sig, rt_job_diags(j)) && !rt_job_diags(j)->nerrors;
}

static IrFunc *find_kernel(kjit_program *p, const char *name) {
  for (int i = 0; i < p->kernels.len; i++)
    if (strcmp(p->kernels.data[i]->name, name) == 0)
      return p->kernels.data[i];
  return NULL;
}

/* What selection knows of the job's next unit (kept by the first job). */
static void note_unit(Aot *a, const char *ufunc, const Signature *scalar, int reduce) {
  if (a->units.len)
    return;
  AotUnit x = {.ufunc = ufunc, .reduce = reduce};
  if (ufunc) {
    int widest = ty_size(scalar->ret);
    for (int i = 0; i < scalar->nparams; i++)
      widest = ty_size(scalar->params[i]) > widest ? ty_size(scalar->params[i]) : widest;
    x.vec = widest > 0 && widest <= 16 ? 16 / widest : 1;
  }
  vec_push(a->arena, &a->selected, x);
}

/* A @vectorize function: its contiguous elementwise kernel (api/ufunc.c)
 * for the scalar signature, or for each eager one. */
static bool select_ufunc(Aot *a, RtJob *j, IrFunc *uf, const char *signature) {
  Signature sig = {0}, ksig = {0};
  IrFunc *k;
  if (signature) {
    if (!parse_sig(j, a->arena, signature, &sig))
      return false;
    bool scalars = sig.ret && sig.ret->kind >= TY_BOOL && sig.ret->kind <= TY_C128;
    for (int i = 0; i < sig.nparams; i++)
      scalars &= sig.params[i]->kind >= TY_BOOL && sig.params[i]->kind <= TY_C128;
    if (!scalars || !rt_ufunc_kernel_for(j->prog, uf, -1, &sig, &k, &ksig)) {
      diag_error(rt_job_diags(j), RT_E_ARITY, sig.loc, "give the scalar signature, e.g. "
                 "\"float32(float32, float32)\"", "signature does not fit @vectorize function '%s'", uf->name);
      return false;
    }
    note_unit(a, uf->name, &sig, 0);
    rt_job_add_unit(j, k, ksig);
    return true;
  }
  for (int i = 0; i < uf->eager.len; i++)
    if (rt_ufunc_kernel_for(j->prog, uf, i, &uf->eager.data[i], &k, &ksig)) {
      note_unit(a, uf->name, &uf->eager.data[i], 0);
      rt_job_add_unit(j, k, ksig);
    }
  if (uf->eager.len)
    return true;
  diag_error(rt_job_diags(j), RT_E_NO_SIGNATURE, uf->ast ? uf->ast->loc : (SrcLoc){0},
             "pass the scalar signature, e.g. --sig \"float32(float32, float32)\"",
             "@vectorize function '%s' has no signature", uf->name);
  return false;
}

/* The reduction of f over arrays of type t: its entry in a->reduces, the
 * kernels generated into the program on first use (every job selects it). */
static AotReduce *reduce_entry(Aot *a, RtJob *j, IrFunc *f, const Type *t, int *index) {
  for (int i = 0; i < a->reduces.len; i++)
    if (a->reduces.data[i].fn == f && a->reduces.data[i].array == t) {
      *index = i + 1;
      return &a->reduces.data[i];
    }
  AotReduce r = {.fn = f, .array = t, .cuda_unit = -1, .cpu_unit = -1};
  if (!ir_reduce_kernels(&j->prog->ir, f, t->elem, rt_job_diags(j), &r.k))
    return NULL;
  vec_push(a->arena, &a->reduces, r);
  *index = a->reduces.len;
  return &a->reduces.data[a->reduces.len - 1];
}

/* A @cuda.reduce function: --sig names the array type ("float32[::1]",
 * as for kjit ptx).  The unit is its generated kernel for the job's target
 * (lower/reduce.h) with init typed as the array's dtype: the CUDA kernel
 * (a, part, init, use_init), the CPU one (a, part, init, use_init, chunk);
 * the public launcher (aot_write.c) runs it once or twice. */
static bool select_reduce(Aot *a, RtJob *j, IrFunc *f, const char *signature) {
  Signature sig = {0};
  if (!signature) {
    diag_error(rt_job_diags(j), RT_E_NO_SIGNATURE, f->ast ? f->ast->loc : (SrcLoc){0},
               "e.g. --sig \"float32[::1]\"", "reduction '%s' needs the array type as its signature", f->name);
    return false;
  }
  const char *text = strchr(signature, '(') ? signature : arena_printf(a->arena, "void(%s)", signature);
  if (!parse_sig(j, a->arena, text, &sig))
    return false;
  const Type *t = sig.nparams == 1 ? sig.params[0] : NULL;
  if (!t || t->kind != TY_ARRAY || t->ndim != 1 || t->readonly) {
    diag_error(rt_job_diags(j), RT_E_ARITY, sig.loc, "e.g. --sig \"float32[::1]\"",
               "reduction '%s' reduces one 1-d array; the signature must name its type", f->name);
    return false;
  }
  int index = 0;
  AotReduce *r = reduce_entry(a, j, f, t, &index);
  if (!r)
    return false;
  bool cpu = j->target == RT_JOB_CPU;
  const Type **p = arena_alloc(rt_job_arena(j), sizeof *p * 5);
  p[0] = t, p[1] = ty_array(j->prog->ir.types, t->elem, 1, LAYOUT_C), p[2] = t->elem, p[3] = TY_I64_T;
  p[4] = TY_I64_T;
  note_unit(a, NULL, NULL, index);
  rt_job_add_unit(j, cpu ? r->k.cpu : r->k.cuda,
                  (Signature){.ret = TY_VOID_T, .nparams = cpu ? 5 : 4, .params = p, .loc = sig.loc});
  return true;
}

/* One requested unit into the job; false after reporting why not. */
static bool select_unit(Aot *a, RtJob *j, const kjit_aot_unit *u) {
  if (!u->kernel && j->prog->kernels.len != 1) {
    StrBuf sb;
    sb_init(&sb);
    for (int i = 0; i < j->prog->kernels.len; i++)
      sb_printf(&sb, "%s%s", i ? ", " : "", j->prog->kernels.data[i]->name);
    diag_error(rt_job_diags(j), RT_E_ARGUMENT, (SrcLoc){0},
               arena_printf(rt_job_arena(j), "name it: FILE.py:KERNEL (kernels: %s)", sb.data ? sb.data : "none"),
               "a signature needs a kernel name: %s has %d kernels", j->prog->src.path, j->prog->kernels.len);
    sb_free(&sb);
    return false;
  }
  IrFunc *f = u->kernel ? find_kernel(j->prog, u->kernel) : j->prog->kernels.data[0];
  IrFunc *g = u->kernel && !f ? ir_find_func(&j->prog->ir, u->kernel) : NULL;
  if (!f && !g && u->kernel) { /* FUNCTION.KERNEL, 'run(3).KERNEL', 'make_k(2)': as kjit run and ptx */
    f = rt_factory_kernel(j->prog, u->kernel, rt_job_diags(j));
    if (!f && rt_job_diags(j)->nerrors)
      return false;
  }
  if (g && g->is_ufunc)
    return select_ufunc(a, j, g, u->signature);
  if (g && g->is_reduce)
    return select_reduce(a, j, g, u->signature);
  if (!f) {
    rt_report_unknown_kernel(j->prog, u->kernel ? u->kernel : "", &j->call);
    return false;
  }
  if (u->signature) {
    Signature sig = {0};
    if (!parse_sig(j, a->arena, u->signature, &sig))
      return false;
    note_unit(a, NULL, NULL, 0);
    rt_job_add_unit(j, f, sig);
    return true;
  }
  for (int i = 0; i < f->eager.len; i++)
    note_unit(a, NULL, NULL, 0);
  if (rt_job_add_eager_units(j, f))
    return true;
  diag_error(rt_job_diags(j), RT_E_NO_SIGNATURE, f->ast ? f->ast->loc : (SrcLoc){0},
             "a lazy kernel (@cuda.jit without a signature) is typed when it is called; give the "
             "argument types, e.g. \"void(float32[:])\"",
             "kernel '%s' has no eager signature; give its argument types", f->name);
  return false;
}

static bool select_units(Aot *a, RtJob *j, const kjit_aot_options *o) {
  bool ok = true;
  for (int i = 0; i < o->nunits; i++)
    ok &= select_unit(a, j, &o->units[i]);
  if (o->nunits)
    return ok;
  for (int i = 0; i < j->prog->kernels.len; i++) {
    for (int k = 0; k < j->prog->kernels.data[i]->eager.len; k++)
      note_unit(a, NULL, NULL, 0);
    rt_job_add_eager_units(j, j->prog->kernels.data[i]);
  }
  if (!j->units.len)
    diag_error(rt_job_diags(j), RT_E_NO_SIGNATURE, (SrcLoc){0},
               "name kernels and their signatures: FILE.py:KERNEL --sig \"void(...)\"",
               "no kernel in %s has an eager signature", j->prog->src.path);
  return j->units.len > 0;
}

/* Checks the options, selects the units and runs every pass. */
static bool job_compile(Aot *a, RtJob *j, const kjit_aot_options *o, const kjit_compile_options *co) {
  return rt_job_check_options(j, co, RT_DEFAULT_ARCH) && select_units(a, j, o) && rt_job_compile_units(j);
}

/* ----------------------------------------------------------- units --- */

static bool is_c_ident(const char *s) {
  if (!s || !*s || (*s >= '0' && *s <= '9'))
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
      return false;
  return true;
}

/* A kernel's name as a C identifier: itself, or for a kernel named by
 * where it is defined (FUNCTION.KERNEL, 'run(None, 3).KERNEL',
 * 'make_k(2)') each run of other ASCII characters as one '_', none at the
 * end: run_KERNEL, run_None_3_KERNEL, make_k_2.  Bytes past ASCII stay
 * (is_c_ident refuses them). */
static const char *c_kernel_name(Arena *ar, const char *name) {
  StrBuf sb;
  sb_init(&sb);
  for (const char *c = name; *c; c++) {
    unsigned char ch = (unsigned char)*c;
    if (ch == '_' || ch >= 0x80 || (ch >= '0' && ch <= '9') || ((ch | 32) >= 'a' && (ch | 32) <= 'z'))
      sb_putc(&sb, *c);
    else if (sb.len && sb.data[sb.len - 1] != '_')
      sb_putc(&sb, '_');
  }
  while (sb.len && sb.data[sb.len - 1] == '_' && name[strlen(name) - 1] != '_')
    sb.data[--sb.len] = '\0';
  const char *out = arena_strdup(ar, sb.data ? sb.data : "");
  sb_free(&sb);
  return out;
}

/* A Python name as a C parameter name: C and C++ keywords and the
 * launcher's own locals (aot_*) get a trailing '_'. */
static const char *c_param_name(Arena *ar, const char *name) {
  static const char *const reserved[] = {
      "auto", "bool", "case", "char", "const", "default", "do", "double", "enum", "extern", "float",
      "goto", "int", "long", "register", "restrict", "short", "signed", "sizeof", "static", "struct",
      "switch", "typedef", "union", "unsigned", "void", "volatile", "catch", "class", "delete",
      "explicit", "friend", "inline", "mutable", "namespace", "new", "operator", "private",
      "protected", "public", "template", "this", "throw", "try", "typename", "using", "virtual",
      "asm", "signed", "alignas", "alignof", "char16_t", "char32_t", "constexpr", "decltype",
      "noexcept", "nullptr", "static_assert", "thread_local", "export", "concept", "requires", NULL};
  bool clash = strncmp(name, "aot_", 4) == 0;
  for (int i = 0; reserved[i] && !clash; i++)
    clash = strcmp(reserved[i], name) == 0;
  return clash ? arena_printf(ar, "%s_", name) : arena_strdup(ar, name);
}

/* The types a launcher passes: scalars but float16 and complex, arrays of
 * any scalar element (their data as the element's C storage). */
static bool param_ok(const Type *t) {
  if (t->kind == TY_PTR) /* a raw pointer: T * (float16: its uint16_t storage) */
    return t->elem->kind >= TY_BOOL && t->elem->kind <= TY_F64;
  if (t->kind == TY_ARRAY)
    return t->elem->kind >= TY_BOOL && t->elem->kind <= TY_C128 && !t->readonly;
  return t->kind >= TY_BOOL && t->kind <= TY_F64 && t->kind != TY_F16;
}

/* A reduction's unit k of the target the job is for. */
static void note_reduce_unit(Aot *a, int reduce, int k, bool cpu) {
  if (!reduce)
    return;
  AotReduce *r = &a->reduces.data[reduce - 1];
  *(cpu ? &r->cpu_unit : &r->cuda_unit) = k;
}

static bool add_unit(Aot *a, const RtUnit *u, int index, bool cpu) {
  const IrFunc *f = u->generic, *s = u->compile->funcs.data[0];
  const AotUnit *sel = index < a->selected.len ? &a->selected.data[index] : NULL;
  int reduce = sel ? sel->reduce : 0;
  for (int i = 0; i < a->units.len; i++)
    if (strcmp(a->units.data[i].symbol, s->symbol) == 0) {
      note_reduce_unit(a, reduce, i, cpu);
      return true; /* the same signature twice: one launcher */
    }
  note_reduce_unit(a, reduce, a->units.len, cpu);
  const char *kname = sel && sel->ufunc ? sel->ufunc : reduce ? a->reduces.data[reduce - 1].fn->name : f->name;
  AotUnit x = {.kernel = arena_strdup(a->arena, kname),
               .symbol = arena_strdup(a->arena, s->symbol), .nparams = u->sig.nparams,
               .ufunc = sel ? sel->ufunc : NULL, .vec = sel ? sel->vec : 0, .has_cuda = !cpu,
               .reduce = reduce};
  x.names = arena_alloc(a->arena, sizeof *x.names * (size_t)(x.nparams + 1));
  x.types = arena_alloc(a->arena, sizeof *x.types * (size_t)(x.nparams + 1));
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "%s(", x.kernel);
  x.cname = c_kernel_name(a->arena, x.kernel);
  bool ok = is_c_ident(x.cname) && !strpbrk(x.kernel, "\"\\") && !strstr(x.kernel, "*/");
  if (!ok)
    diag_error(a->diags, E_AOT_UNSUPPORTED, f->ast ? f->ast->loc : (SrcLoc){0},
               "rename it with ASCII letters (a kernel named by a call: no '\"', '\\' or '*/' in its arguments)",
               "kernel '%s': its name cannot become a C identifier", f->name);
  for (int i = 0; i < x.nparams; i++) {
    char buf[128];
    const char *pname = f->locals.data[i].name;
    x.types[i] = u->sig.params[i];
    x.names[i] = reduce && i == 0 ? "array" : c_param_name(a->arena, pname); /* as its launcher names it */
    sb_printf(&sb, "%s%s: %s", i ? ", " : "", pname, ty_name(x.types[i], buf, sizeof buf));
    if (!is_c_ident(pname) || !param_ok(x.types[i])) {
      diag_error(a->diags, E_AOT_UNSUPPORTED, f->locals.data[i].loc,
                 "launchers take arrays (not read-only ones), raw pointers to numbers and bool, integer, "
                 "float32 and float64 scalars",
                 "kernel '%s': parameter '%s' of type %s cannot be passed by a generated launcher", f->name,
                 pname, buf);
      ok = false;
    }
  }
  sb_putc(&sb, ')');
  x.signature = arena_strdup(a->arena, sb.data);
  sb_free(&sb);
  vec_push(a->arena, &a->units, x);
  return ok;
}

/* Launcher names: NAME_kernel, or NAME_kernel__<codes> (the mangled
 * symbol's argument codes) when a kernel has several signatures in the
 * library. */
static bool name_launchers(Aot *a) {
  bool ok = true;
  for (int i = 0; i < a->units.len; i++) {
    int same = 0;
    for (int k = 0; k < a->units.len; k++)
      same += strcmp(a->units.data[k].kernel, a->units.data[i].kernel) == 0;
    const AotUnit *u = &a->units.data[i];
    const char *codes = strrchr(u->symbol, '_'); /* the symbol's "__a1Cf32_..." (docs/internals.md) */
    for (const char *c = u->symbol; (c = strstr(c, "__")); c++)
      codes = c;
    a->units.data[i].launcher = same > 1 ? arena_printf(a->arena, "%s%s", u->cname, codes) : u->cname;
  }
  for (int i = 0; i < a->units.len; i++) /* two kernels named so that their C names meet */
    for (int k = 0; k < i && ok; k++)
      if (strcmp(a->units.data[k].launcher, a->units.data[i].launcher) == 0 &&
          strcmp(a->units.data[k].kernel, a->units.data[i].kernel) != 0) {
        diag_error(a->diags, E_AOT_UNSUPPORTED, (SrcLoc){0}, "make two libraries (--name), one for each",
                   "kernels '%s' and '%s' would both be launched by %s_%s", a->units.data[k].kernel,
                   a->units.data[i].kernel, a->name, a->units.data[i].launcher);
        ok = false;
      }
  for (int i = 0; i < a->reduces.len; i++) {
    AotReduce *r = &a->reduces.data[i];
    int same = 0;
    for (int k = 0; k < a->reduces.len; k++)
      same += a->reduces.data[k].fn == r->fn;
    char dt[32];
    ty_name(r->array->elem, dt, sizeof dt);
    r->launcher = same < 2 ? r->fn->name
                           : arena_printf(a->arena, "%s__%s%s", r->fn->name, dt, r->array->layout == LAYOUT_C ? "_c" : "");
  }
  return ok;
}

/* ------------------------------------------------------------ CUDA --- */

static int arch_number(const char *arch) { return atoi(arch + 3); }

static int cmp_arch(const void *x, const void *y) {
  const char *a = *(const char *const *)x, *b = *(const char *const *)y;
  int d = arch_number(a) - arch_number(b);
  return d ? d : strcmp(a, b);
}

/* One architecture, one variant: the PTX, the cubin and (for the PTX
 * architecture) the PTX as an image. */
static bool compile_cuda(Aot *a, const kjit_aot_options *o, const char *arch, int variant, bool with_ptx) {
  RtJob j;
  job_begin(&j, a->prog, RT_JOB_CUDA);
  kjit_compile_options co;
  kjit_compile_options_init(&co);
  co.arch = arch;
  co.fits32 = variant & 1;
  co.grid32 = variant >> 1 & 1;
  char *ptx = NULL, *cubin = NULL;
  size_t n = 0, cn = 0;
  bool ok = job_compile(a, &j, o, &co);
  bool first = !a->units.len; /* the first job names the launchers */
  for (int i = 0; ok && first && i < j.units.len; i++)
    ok = add_unit(a, &j.units.data[i], i, false) && ok;
  ok = ok && rt_job_emit(&j, KJIT_EMIT_PTX, &ptx, &n);
  if (ok && strstr(ptx, "%envreg")) {
    diag_error(rt_job_diags(&j), E_AOT_UNSUPPORTED, (SrcLoc){0}, "launch it through libkjit (kjit_launch)",
               "a kernel of the library synchronizes its grid (cuda.cg.this_grid().sync()); generated "
               "launchers do not make cooperative launches");
    ok = false;
  }
  IrFunc **ks = arena_alloc(rt_job_arena(&j), sizeof *ks * (size_t)(j.units.len + 1));
  for (int i = 0; i < j.units.len; i++)
    ks[i] = j.units.data[i].generic;
  ok = ok && rt_link_cubin(a->prog, ks, j.units.len, arch, ptx, n, &cubin, &cn, NULL,
                          rt_job_diags(&j));
  bool spec = arch[strlen(arch) - 1] == 'a';
  if (ok) {
    AotImage im = {arch_number(arch), spec, variant, false, cubin, cn};
    vec_push(a->arena, &a->images, im);
  }
  if (ok && with_ptx && !rt_link_count(a->prog, ks, j.units.len)) {
    AotImage im = {arch_number(arch), false, variant, true, ptx, n + 1};
    vec_push(a->arena, &a->images, im);
    ptx = NULL;
  }
  free(ptx);
  if (!ok)
    free(cubin);
  return job_end(&j, a->diags, ok);
}

static bool build_cuda(Aot *a, const kjit_aot_options *o) {
  int n = o->narchs > 0 ? o->narchs : 1;
  const char **archs = arena_alloc(a->arena, sizeof *archs * (size_t)n);
  for (int i = 0; i < n; i++)
    archs[i] = o->narchs > 0 ? o->archs[i] : RT_DEFAULT_ARCH;
  for (int i = 0; i < n; i++)
    if (!archs[i] || strncmp(archs[i], "sm_", 3) != 0) {
      diag_error(a->diags, RT_E_ARCH, (SrcLoc){0}, "e.g. --arch sm_80,sm_90", "unknown GPU architecture '%s'",
                 archs[i] ? archs[i] : "(null)");
      return false;
    }
  qsort(archs, (size_t)n, sizeof *archs, cmp_arch);
  int ptx_at = -1; /* the highest architecture that is not arch-specific */
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < n; i++) {
    if (i && strcmp(archs[i], archs[i - 1]) == 0)
      continue;
    sb_printf(&sb, "%s%s", sb.len ? ", " : "", archs[i]);
    if (archs[i][strlen(archs[i]) - 1] != 'a')
      ptx_at = i;
  }
  a->arch_list = arena_strdup(a->arena, sb.data);
  sb_free(&sb);
  bool ok = true;
  for (int i = 0; i < n && ok; i++)
    for (int v = 0; v < 4 && ok && !(i && strcmp(archs[i], archs[i - 1]) == 0); v++)
      ok = compile_cuda(a, o, archs[i], v, i == ptx_at);
  return ok;
}

/* ------------------------------------------------------------- CPU --- */

/* The preprocessor test of the machine the host triple names. */
static const char *host_arch_test(const char *triple) {
  if (strncmp(triple, "x86_64", 6) == 0)
    return "defined(__x86_64__) && defined(__ELF__)";
  if (strncmp(triple, "aarch64", 7) == 0)
    return "defined(__aarch64__) && defined(__ELF__)";
  return NULL;
}

/* What the generated CPU run time offers: per-block entries, kernels split
 * at syncthreads, debug checks; not one fiber per thread (warp
 * intrinsics, syncwarp, the grid barrier) nor libdevice's __nv_ calls. */
static bool check_host_entries(Aot *a, const RtJob *j, const CgHostEntry *e, const char *text) {
  bool ok = true;
  for (int i = 0; i < j->units.len; i++)
    if (e[i].flags & HOST_USES_BARRIERS) {
      diag_error(a->diags, E_AOT_UNSUPPORTED, (SrcLoc){0},
                 "build the library with --target cuda, or launch the kernel through libkjit",
                 "kernel '%s' needs one fiber per thread on the CPU (warp intrinsics, syncwarp, a grid "
                 "barrier or barriers kjit cannot split); the generated CPU run time has none",
                 j->units.data[i].generic->name);
      ok = false;
    }
  const char *nv = strstr(text, "__nv_");
  if (nv) {
    size_t n = strcspn(nv, " \t\n,@)");
    diag_error(a->diags, E_AOT_UNSUPPORTED, (SrcLoc){0}, "build the library with --target cuda",
               "a kernel calls libdevice's %.*s, which the generated CPU run time does not define", (int)n, nv);
    ok = false;
  }
  return ok;
}

static bool build_cpu(Aot *a, const kjit_aot_options *o) {
  RtJob j;
  job_begin(&j, a->prog, RT_JOB_CPU);
  kjit_compile_options co;
  kjit_compile_options_init(&co);
  bool ok = job_compile(a, &j, o, &co);
  bool first = !a->units.len; /* else the CUDA jobs named the units; a
                                  reduction's CPU kernel is a unit of its own */
  for (int i = 0; ok && i < j.units.len; i++)
    if (first || (i < a->selected.len && a->selected.data[i].reduce))
      ok = add_unit(a, &j.units.data[i], i, true) && ok;
  CgTarget host;
  cg_host_target(&host);
  CgTarget t = {.kind = CG_HOST, .triple = host.triple, .cpu = "generic", .features = "", .pic = true};
  a->host_arch = host_arch_test(host.triple);
  if (ok && !a->host_arch) {
    diag_error(rt_job_diags(&j), E_AOT_UNSUPPORTED, (SrcLoc){0}, "build the library with --target cuda",
               "kjit aot makes CPU code for x86-64 and AArch64 ELF machines; this one is %s", host.triple);
    ok = false;
  }
  CgOptions co2 = ok ? rt_job_cg_options(&j) : (CgOptions){0};
  co2.opt_level = co2.opt_level > 0 ? co2.opt_level : 3;
  CgHostEntry *e = arena_alloc(a->arena, sizeof *e * (size_t)(j.units.len + 1));
  IrCompile **cs = arena_alloc(rt_job_arena(&j), sizeof *cs * (size_t)(j.units.len + 1));
  for (int i = 0; i < j.units.len; i++)
    cs[i] = j.units.data[i].compile;
  size_t n = 0;
  ok = ok && cg_host_emit_asm(rt_cg_session(a->prog->ctx), cs, j.units.len, &t, &co2, a->name, e, &a->host_asm,
                              &n, rt_job_diags(&j));
  ok = ok && check_host_entries(a, &j, e, a->host_asm);
  for (int k = 0; ok && k < a->units.len; k++) /* by symbol: a->units has no repeats */
    for (int i = 0; i < j.units.len; i++)
      if (strcmp(j.units.data[i].compile->funcs.data[0]->symbol, a->units.data[k].symbol) == 0) {
        a->units.data[k].host_flags = e[i].flags;
        a->units.data[k].host_entry = arena_strdup(a->arena, e[i].name);
        a->units.data[k].host_static_shared = e[i].static_shared;
      }
  a->host_arch = a->host_arch ? arena_strdup(a->arena, a->host_arch) : NULL;
  cg_host_target_free(&host);
  return job_end(&j, a->diags, ok);
}

/* ------------------------------------------------------------ entry --- */

static bool check_options(Aot *a, const kjit_aot_options *o) {
  bool ok = is_c_ident(o->name) && strlen(o->name) <= 64;
  if (!ok)
    diag_error(a->diags, E_AOT_OPTION, (SrcLoc){0}, "e.g. --name vector_ops",
               "the library's name '%s' must be a C identifier of at most 64 characters",
               o->name ? o->name : "(none)");
  if (o->targets & ~(KJIT_AOT_CUDA | KJIT_AOT_CPU)) {
    diag_error(a->diags, E_AOT_OPTION, (SrcLoc){0}, NULL, "unknown aot targets 0x%x", (unsigned)o->targets);
    ok = false;
  }
  for (int i = 0; i < 4; i++)
    if (o->reserved[i]) {
      diag_error(a->diags, E_AOT_OPTION, (SrcLoc){0}, "start from kjit_aot_options_init",
                 "kjit_aot_options.reserved must be zero");
      return false;
    }
  if (o->nunits < 0 || (o->nunits && !o->units) || o->narchs < 0 || (o->narchs && !o->archs)) {
    diag_error(a->diags, E_AOT_OPTION, (SrcLoc){0}, NULL, "units or archs: a count without a list");
    return false;
  }
  return ok;
}

static void free_images(Aot *a) {
  for (int i = 0; i < a->images.len; i++)
    free(a->images.data[i].data);
  free(a->host_asm);
}

void kjit_aot_options_init(kjit_aot_options *opts) {
  if (opts)
    memset(opts, 0, sizeof *opts);
}

kjit_status kjit_program_aot(kjit_program *prog, const kjit_aot_options *o, char **header, size_t *hlen,
                             char **source, size_t *slen) {
  if (!prog || !o || !header || !hlen || !source || !slen)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, prog->ctx);
  Aot a = {.prog = prog, .name = o->name, .source_name = o->source_name, .arena = &call.arena,
           .diags = &call.diags};
  a.cuda = !o->targets || (o->targets & KJIT_AOT_CUDA);
  a.cpu = !o->targets || (o->targets & KJIT_AOT_CPU);
  if (prog->cuc) {
    diag_error(a.diags, E_AOT_OPTION, (SrcLoc){0}, "kjit aot takes Python kernel files",
               "%s is a CUDA C program", prog->src.path);
    return rt_finish(&call, KJIT_ERROR_INVALID_ARGUMENT);
  }
  /* The code names the file too (debug=True messages, line info): as
   * source_name while compiling, so the output does not depend on where
   * the file lies.  Diagnostics are rendered after, with the real path. */
  const char *path = prog->src.path;
  if (o->source_name)
    prog->src.path = o->source_name;
  bool ok = check_options(&a, o) && (!a.cuda || build_cuda(&a, o)) && (!a.cpu || build_cpu(&a, o));
  prog->src.path = path;
  if (ok && (ok = name_launchers(&a))) {
    *header = aot_write_header(&a, hlen);
    *source = aot_write_source(&a, slen);
  }
  free_images(&a);
  kjit_status st = rt_status_of(&call.diags);
  return rt_finish(&call, ok ? KJIT_OK : st != KJIT_OK ? st : KJIT_ERROR_INTERNAL);
}

/* ------------------------------------------------- device functions --- */

/* A device function named by u, for its --sig or each eager signature. */
static bool select_device(RtJob *j, Arena *keep, const kjit_aot_unit *u) {
  IrFunc *f = u->kernel ? ir_find_func(&j->prog->ir, u->kernel) : NULL;
  if (!u->kernel || !f) {
    rt_report_unknown_function(j->prog, u->kernel ? u->kernel : "", &j->call);
    return false;
  }
  if (!f->is_device || f->is_kernel || f->is_reduce || f->is_ufunc) {
    diag_error(rt_job_diags(j), E_AOT_OPTION, f->ast ? f->ast->loc : (SrcLoc){0},
               "--emit ptx takes @cuda.jit(device=True) functions; kernels, @vectorize and @cuda.reduce "
               "functions get launchers without it",
               "'%s' is not a device function", f->name);
    return false;
  }
  if (u->signature) {
    Signature sig = {0};
    if (!parse_sig(j, keep, u->signature, &sig))
      return false;
    rt_job_add_unit(j, f, sig);
    return true;
  }
  if (rt_job_add_eager_units(j, f))
    return true;
  diag_error(rt_job_diags(j), RT_E_NO_SIGNATURE, f->ast ? f->ast->loc : (SrcLoc){0},
             "give its argument and return types, e.g. --sig \"float32(float32, float32)\"",
             "device function '%s' has no signature to compile it alone for", f->name);
  return false;
}

/* Each unit as the header declares it; C has no overloads, so a function
 * compiled for two signatures is refused. */
static bool device_units(Aot *a, const RtJob *j) {
  bool ok = true;
  for (int i = 0; i < j->units.len; i++) {
    const RtUnit *u = &j->units.data[i];
    const IrFunc *f = u->generic, *t = u->compile->funcs.data[0];
    bool seen = false;
    for (int k = 0; k < a->units.len && !seen; k++)
      seen = strcmp(a->units.data[k].kernel, f->name) == 0;
    if (seen && ok) {
      diag_error(a->diags, E_AOT_OPTION, f->ast ? f->ast->loc : (SrcLoc){0},
                 "emit one signature per function (its PTX name is the Python name), or one file per signature",
                 "device function '%s' is named with two signatures; C has no overloads", f->name);
      ok = false;
    }
    if (seen || !is_c_ident(f->name))
      continue;
    AotUnit x = {.kernel = f->name, .cname = f->name, .symbol = f->name, .nparams = u->sig.nparams, .ret = t->ret_type};
    x.names = arena_alloc(a->arena, sizeof *x.names * (size_t)(x.nparams + 1));
    x.types = arena_alloc(a->arena, sizeof *x.types * (size_t)(x.nparams + 1));
    for (int p = 0; p < x.nparams; p++) {
      x.names[p] = c_param_name(a->arena, f->locals.data[p].name);
      x.types[p] = u->sig.params[p];
    }
    vec_push(a->arena, &a->units, x);
  }
  return ok;
}

kjit_status kjit_program_aot_device(kjit_program *prog, const kjit_aot_options *o, char **header, size_t *hlen,
                                    char **ptx, size_t *plen) {
  if (!prog || !o || !header || !hlen || !ptx || !plen)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, prog->ctx);
  Aot a = {.prog = prog, .name = o->name, .source_name = o->source_name, .arena = &call.arena,
           .diags = &call.diags};
  bool ok = !prog->cuc && check_options(&a, o);
  if (prog->cuc)
    diag_error(a.diags, E_AOT_OPTION, (SrcLoc){0}, "kjit aot takes Python kernel files",
               "%s is a CUDA C program", prog->src.path);
  if (ok && (o->narchs > 1 || o->nunits < 1 || (o->targets & ~KJIT_AOT_CUDA))) {
    diag_error(a.diags, E_AOT_OPTION, (SrcLoc){0},
               "e.g. kjit aot FILE.py:FUNC --sig \"float32(float32)\" --emit ptx --arch sm_80 -o DIR; the PTX "
               "of the lowest architecture runs on every newer one",
               o->nunits < 1 ? "--emit ptx needs the device functions named"
                             : "--emit ptx makes one PTX module for one architecture, for the CUDA target");
    ok = false;
  }
  const char *path = prog->src.path;
  if (ok && o->source_name)
    prog->src.path = o->source_name;
  RtJob j;
  job_begin(&j, prog, RT_JOB_CUDA);
  kjit_compile_options co;
  kjit_compile_options_init(&co);
  co.arch = o->narchs ? o->archs[0] : NULL;
  char *text = NULL;
  size_t n = 0;
  ok = ok && rt_job_check_options(&j, &co, RT_DEFAULT_ARCH);
  for (int i = 0; ok && i < o->nunits; i++)
    ok = select_device(&j, a.arena, &o->units[i]) && ok;
  ok = ok && rt_job_compile_units(&j) && device_units(&a, &j) && rt_job_emit(&j, KJIT_EMIT_PTX, &text, &n);
  const char *arch = arena_strdup(a.arena, j.opts.arch ? j.opts.arch : RT_DEFAULT_ARCH);
  job_end(&j, a.diags, ok);
  prog->src.path = path;
  if (ok) {
    *header = aot_write_device_header(&a, arch, hlen);
    *ptx = text;
    *plen = n;
  } else {
    free(text);
  }
  kjit_status st = rt_status_of(&call.diags);
  return rt_finish(&call, ok ? KJIT_OK : st != KJIT_OK ? st : KJIT_ERROR_INTERNAL);
}
