/* emit.c - the public compile calls, kjit_program_emit and
 * kjit_program_check: what to compile (the kernel by name, a @vectorize
 * function's kernel, a @cuda.reduce function's kernels; the signature from
 * --sig or the decorator), handed to the compile driver
 * (runtime/compile.c), then, for a cubin, linked by the CUDA target.  Also
 * the "no kernel named ..." reports every way of naming a kernel shares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "common/suggest.h"
#include "cuda/cuc.h"
#include "cuda/cuda.h"
#include "cuda/link.h"
#include "cuda/resources.h"
#include "lower/reduce.h"
#include "runtime/compile.h"


/* "a, b, c" of the program's kernels (arena text). */
static const char *list_kernels(RtJob *j) {
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < j->prog->kernels.len; i++)
    sb_printf(&sb, "%s%s", i ? ", " : "", j->prog->kernels.data[i]->name);
  char *s = arena_strdup(rt_job_arena(j), sb.data ? sb.data : "");
  sb_free(&sb);
  return s;
}

static IrFunc *find_kernel(RtJob *j, const char *name) {
  for (int i = 0; i < j->prog->kernels.len; i++)
    if (strcmp(j->prog->kernels.data[i]->name, name) == 0)
      return j->prog->kernels.data[i];
  return rt_factory_kernel(j->prog, name, rt_job_diags(j)); /* "make_k(2)" */
}

static void report_unknown_kernel(RtJob *j, const char *name) {
  Diags *d = rt_job_diags(j);
  const char *list = list_kernels(j);
  IrFunc *f = ir_find_func(&j->prog->ir, name);
  if (f && f->is_device) {
    diag_error(d, RT_E_NO_KERNEL, f->ast ? f->ast->loc : (SrcLoc){0},
               *list ? arena_printf(rt_job_arena(j), "kernels in %s: %s", j->prog->src.path, list)
                     : "a kernel is decorated @cuda.jit without device=True",
               "'%s' is a device function, not a kernel", name);
    return;
  }
  const char **names = arena_alloc(rt_job_arena(j), sizeof *names * (size_t)(j->prog->kernels.len + 1));
  for (int i = 0; i < j->prog->kernels.len; i++)
    names[i] = j->prog->kernels.data[i]->name;
  const char *near = suggest_closest(name, names, j->prog->kernels.len);
  const char *hint, *factories = ir_factory_list(&j->prog->ir);
  const char *nested = ir_nested_kernel_list(&j->prog->ir);
  if (nested) /* kernels defined inside host functions: say how to name one */
    hint = arena_printf(rt_job_arena(j), "a kernel defined inside a host function is named "
                        "FUNCTION.KERNEL, e.g. %s:%.*s (%s)%s%s", j->prog->src.path,
                        (int)strcspn(nested, ","), nested, nested, *list ? "; kernels: " : "", list);
  else if (factories) /* kernels made by a function: say how to name one */
    hint = arena_printf(rt_job_arena(j), "a kernel made by a function (%s) is named by the "
                        "variable it is assigned to, or by the call, e.g. %s:'%.*s(...)'%s%s",
                        factories, j->prog->src.path, (int)strcspn(factories, ","), factories,
                        *list ? "; kernels: " : "", list);
  else if (!*list)
    hint = arena_printf(rt_job_arena(j), "%s has no kernels (functions decorated "
                        "@cuda.jit without device=True)", j->prog->src.path);
  else if (near)
    hint = arena_printf(rt_job_arena(j), "did you mean '%s'? (kernels in %s: %s)",
                        near, j->prog->src.path, list);
  else
    hint = arena_printf(rt_job_arena(j), "kernels in %s: %s", j->prog->src.path, list);
  diag_error(d, RT_E_NO_KERNEL, (SrcLoc){0}, hint, "no kernel named '%s' in %s",
             name, j->prog->src.path);
}

/* kernel == NULL: every kernel with eager signatures. */
static bool select_all_kernels(RtJob *j) {
  for (int i = 0; i < j->prog->kernels.len; i++)
    rt_job_add_eager_units(j, j->prog->kernels.data[i]);
  if (j->units.len)
    return true;
  const char *hint = j->prog->kernels.len
      ? arena_printf(rt_job_arena(j), "name a kernel (e.g. '%s') and give its argument types, "
                     "\"void(...)\"", j->prog->kernels.data[0]->name)
      : "kernels are functions decorated @cuda.jit without device=True";
  diag_error(rt_job_diags(j), RT_E_NO_SIGNATURE, (SrcLoc){0}, hint,
             j->prog->kernels.len ? "no kernel in %s has an eager signature"
                                  : "no kernels in %s", j->prog->src.path);
  return false;
}

/* Parses a signature given to the call; its diagnostics point into a
 * Source named "--sig" that lives in the call's arena. */
static bool parse_signature(RtJob *j, const char *text, Signature *sig) {
  Source *s = arena_alloc(rt_job_arena(j), sizeof *s);
  s->path = "--sig";
  s->text = arena_strdup(rt_job_arena(j), text);
  s->len = strlen(text);
  return ir_parse_signature(&j->prog->ir, s, sig, rt_job_diags(j)) &&
         !rt_job_diags(j)->nerrors;
}

/* A @vectorize function: its contiguous elementwise kernel for the scalar
 * --sig, or for each of its signatures (api/ufunc.c). */
static bool select_ufunc_units(RtJob *j, IrFunc *uf, const char *signature) {
  Signature sig = {0}, ksig = {0};
  IrFunc *k;
  if (signature) {
    if (!parse_signature(j, signature, &sig))
      return false;
    if (!rt_ufunc_kernel_for(j->prog, uf, -1, &sig, &k, &ksig)) {
      diag_error(rt_job_diags(j), RT_E_ARITY, sig.loc, "give the scalar signature, e.g. "
                 "\"float32(float32, float32)\"", "signature does not fit @vectorize function '%s'",
                 uf->name);
      return false;
    }
    rt_job_add_unit(j, k, ksig);
    return true;
  }
  for (int i = 0; i < uf->eager.len; i++)
    if (rt_ufunc_kernel_for(j->prog, uf, i, &uf->eager.data[i], &k, &ksig))
      rt_job_add_unit(j, k, ksig);
  if (j->units.len)
    return true;
  diag_error(rt_job_diags(j), RT_E_NO_SIGNATURE, uf->ast ? uf->ast->loc : (SrcLoc){0},
             "give the scalar signature, e.g. \"float32(float32, float32)\"",
             "@vectorize function '%s' has no signature", uf->name);
  return false;
}

/* A @cuda.reduce function has no kernel of its own: --sig "float32[:]"
 * names the array type, and the units are its generated CUDA kernel for
 * that array (pass 1) and for the C-contiguous partials (pass 2). */
static bool select_reduction(RtJob *j, IrFunc *f, const char *signature) {
  Signature sig = {0};
  const char *text = !signature ? NULL : strchr(signature, '(') ? signature
                                       : arena_printf(rt_job_arena(j), "void(%s)", signature);
  if (!text) {
    diag_error(rt_job_diags(j), RT_E_NO_SIGNATURE, f->ast ? f->ast->loc : (SrcLoc){0},
               "e.g. \"float32[:]\"", "reduction '%s' needs the array type as its signature", f->name);
    return false;
  }
  if (!parse_signature(j, text, &sig))
    return false;
  const Type *a = sig.nparams == 1 ? sig.params[0] : NULL;
  if (!a || a->kind != TY_ARRAY || a->ndim != 1) {
    diag_error(rt_job_diags(j), RT_E_ARITY, sig.loc, "e.g. \"float32[:]\"",
               "reduction '%s' reduces one 1-d array; the signature must name its type", f->name);
    return false;
  }
  IrReduceKernels k;
  if (!ir_reduce_kernels(&j->prog->ir, f, a->elem, rt_job_diags(j), &k))
    return false;
  TypeTable *tt = j->prog->ir.types;
  const Type *part = ty_array(tt, a->elem, 1, LAYOUT_C);
  for (int pass = 0; pass < (a == part ? 1 : 2); pass++) {
    const Type **p = arena_alloc(rt_job_arena(j), sizeof *p * 4);
    p[0] = pass ? part : a, p[1] = part, p[2] = TY_I64_T, p[3] = TY_I64_T;
    rt_job_add_unit(j, k.cuda, (Signature){.ret = TY_VOID_T, .nparams = 4, .params = p, .loc = sig.loc});
  }
  return true;
}

/* A device function compiled alone (Numba's compile_ptx(..., device=True)):
 * for the signature given, else its eager ones; it gets an external C-ABI
 * entry of its own name (codegen: cg_define_cabi_entry). */
static bool select_device_function(RtJob *j, IrFunc *f, const char *signature) {
  if (signature) {
    Signature sig = {0};
    if (!parse_signature(j, signature, &sig))
      return false;
    rt_job_add_unit(j, f, sig);
    return true;
  }
  if (rt_job_add_eager_units(j, f))
    return true;
  diag_error(rt_job_diags(j), RT_E_NO_SIGNATURE, f->ast ? f->ast->loc : (SrcLoc){0},
             "give its argument and return types, e.g. \"float32(float32, float32)\"",
             "device function '%s' has no signature to compile it alone for", f->name);
  return false;
}

static bool select_units(RtJob *j, const char *kernel, const char *signature) {
  if (!kernel && !signature)
    return select_all_kernels(j);
  IrFunc *f, *r = kernel ? ir_find_func(&j->prog->ir, kernel) : NULL;
  if (r && r->is_reduce)
    return select_reduction(j, r, signature);
  if (r && r->is_ufunc)
    return select_ufunc_units(j, r, signature);
  if (r && r->is_device && !r->is_kernel)
    return select_device_function(j, r, signature);
  if (kernel) {
    if (!(f = find_kernel(j, kernel))) {
      if (!rt_job_diags(j)->nerrors)
        report_unknown_kernel(j, kernel);
      return false;
    }
  } else if (j->prog->kernels.len == 1) {
    f = j->prog->kernels.data[0];
  } else {
    diag_error(rt_job_diags(j), RT_E_ARGUMENT, (SrcLoc){0},
               arena_printf(rt_job_arena(j), "kernels in %s: %s", j->prog->src.path, list_kernels(j)),
               "a signature needs a kernel name: %s has %d kernels", j->prog->src.path,
               j->prog->kernels.len);
    return false;
  }
  if (signature) {
    Signature sig = {0};
    if (!parse_signature(j, signature, &sig))
      return false;
    rt_job_add_unit(j, f, sig);
    return true;
  }
  if (rt_job_add_eager_units(j, f))
    return true;
  diag_error(rt_job_diags(j), RT_E_NO_SIGNATURE, f->ast ? f->ast->loc : (SrcLoc){0},
             "a lazy kernel (@cuda.jit without a signature) is typed when it is "
             "called; give the argument types, e.g. \"void(float32[:])\"",
             "kernel '%s' has no eager signature; give its argument types", f->name);
  return false;
}

/* The PTX, then linked with the kernels' CUDA C files (cuda/link.c). */
static bool emit_cubin(RtJob *j, char **out, size_t *len) {
  char *ptx = NULL;
  size_t n = 0;
  if (!rt_job_emit(j, KJIT_EMIT_PTX, &ptx, &n))
    return false;
  IrFunc **ks = arena_alloc(rt_job_arena(j), sizeof *ks * (size_t)(j->units.len + 1));
  for (int i = 0; i < j->units.len; i++)
    ks[i] = j->units.data[i].generic;
  bool ok = rt_link_cubin(j->prog, ks, j->units.len, j->opts.arch, ptx, n, out, len, NULL,
                          rt_job_diags(j));
  free(ptx);
  return ok;
}

static bool emit(RtJob *j, kjit_emit what, char **out, size_t *len) {
  return what == KJIT_EMIT_CUBIN ? emit_cubin(j, out, len) : rt_job_emit(j, what, out, len);
}

/* The whole compile, top to bottom. */
static kjit_status run_pipeline(RtJob *j, const char *kernel, const char *signature,
                                const kjit_compile_options *opts, kjit_emit what,
                                char **out, size_t *len) {
  if (rt_job_check_options(j, opts, rt_default_arch(j->prog->ctx)) &&
      select_units(j, kernel, signature) &&
      rt_job_compile_units(j) &&
      emit(j, what, out, len))
    return KJIT_OK;
  kjit_status st = rt_status_of(rt_job_diags(j));
  return st != KJIT_OK ? st : KJIT_ERROR_INTERNAL; /* a stage failed silently */
}

kjit_status kjit_program_emit(kjit_program *prog, const char *kernel,
                              const char *signature,
                              const kjit_compile_options *opts, kjit_emit what,
                              char **out, size_t *len) {
  if (!rt_program_live(prog) || !out || !len)
    return KJIT_ERROR_INVALID_ARGUMENT;
  if (prog->cuc)                        /* CUDA C: NVRTC (cuda/cuc_compile.c) */
    return rt_cuc_emit(prog, kernel, signature, opts, what, out, len);
  RtJob j = {.prog = prog};
  rt_begin(&j.call, prog->ctx);
  if (what != KJIT_EMIT_KIR && what != KJIT_EMIT_LLVM && what != KJIT_EMIT_PTX &&
      what != KJIT_EMIT_CUBIN) {
    diag_error(rt_job_diags(&j), RT_E_ARGUMENT, (SrcLoc){0}, NULL,
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

/* The cubin linked with -verbose, then ptxas's report of each entry
 * (cuda/resources.c) completed from the PTX, the cubin and the arch. */
static bool emit_resources(RtJob *j, kjit_resources *out, int max, int *count) {
  char *ptx = NULL, *cubin = NULL, *info = NULL;
  size_t n = 0, cn = 0;
  if (!rt_job_emit(j, KJIT_EMIT_PTX, &ptx, &n))
    return false;
  IrFunc **ks = arena_alloc(rt_job_arena(j), sizeof *ks * (size_t)(j->units.len + 1));
  for (int i = 0; i < j->units.len; i++)
    ks[i] = j->units.data[i].generic;
  bool ok = rt_link_cubin(j->prog, ks, j->units.len, j->opts.arch, ptx, n, &cubin, &cn, &info,
                          rt_job_diags(j));
  int k = ok && info ? rt_resources_parse(info, out, max) : 0;
  if (ok && k == 0) {
    diag_error(rt_job_diags(j), RT_E_CUDA_LINK, (SrcLoc){0},
               "nvJitLink 12.0 or later prints ptxas's report with -verbose",
               "nvJitLink gave no resource report for the kernel%s", j->units.len == 1 ? "" : "s");
    ok = false;
  }
  for (int i = 0; ok && i < k && i < max; i++) {
    kjit_resources *r = &out[i];
    if (!r->arch[0])
      snprintf(r->arch, sizeof r->arch, "%s", j->opts.arch);
    r->max_threads_per_block = rt_max_threads_for_registers(r->registers);
    r->ptx_bytes = (int64_t)n;
    r->cubin_bytes = (int64_t)cn;
    r->sass_bytes = rt_cubin_section_size(cubin, cn, arena_printf(rt_job_arena(j), ".text.%s", r->name));
  }
  *count = k;
  free(ptx);
  free(cubin);
  free(info);
  return ok;
}

kjit_status kjit_program_resources(kjit_program *prog, const char *kernel, const char *signature,
                                   const kjit_compile_options *opts, kjit_resources *out, int max,
                                   int *count) {
  if (!prog || !count || max < 0 || (max > 0 && !out))
    return KJIT_ERROR_INVALID_ARGUMENT;
  *count = 0;
  RtJob j = {.prog = prog};
  rt_begin(&j.call, prog->ctx);
  if (prog->cuc) {
    diag_error(rt_job_diags(&j), RT_E_ARGUMENT, (SrcLoc){0},
               "compile it with `kjit ptx FILE.cu --emit ptx` and read `ptxas -v`",
               "resource usage is reported for Python kernels only, not CUDA C programs");
    return rt_finish(&j.call, KJIT_ERROR_INVALID_ARGUMENT);
  }
  kjit_status st = KJIT_OK;
  if (!(rt_job_check_options(&j, opts, rt_default_arch(prog->ctx)) &&
        select_units(&j, kernel, signature) && rt_job_compile_units(&j) &&
        emit_resources(&j, out, max, count))) {
    st = rt_status_of(rt_job_diags(&j));
    st = st != KJIT_OK ? st : KJIT_ERROR_INTERNAL;
  }
  return rt_finish(&j.call, st);
}

/* kjit check: every eager signature of every decorated function. */
kjit_status kjit_program_check(kjit_program *prog) {
  if (!rt_program_live(prog))
    return KJIT_ERROR_INVALID_ARGUMENT;
  if (prog->cuc)
    return rt_cuc_check(prog);
  RtJob j = {.prog = prog};
  rt_begin(&j.call, prog->ctx);
  kjit_compile_options_init(&j.opts);
  for (int i = 0; i < prog->ir.funcs.len; i++) /* lazy ones too: every body */
    ir_report_body_errors(prog->ir.funcs.data[i], rt_job_diags(&j));
  for (int i = 0; i < prog->ir.funcs.len; i++)
    rt_job_add_eager_units(&j, prog->ir.funcs.data[i]);
  rt_job_compile_units(&j);
  return rt_finish(&j.call, rt_status_of(rt_job_diags(&j)));
}

/* The launch API (api_launch.c) reports an unknown kernel name exactly as
 * emit does: the report is made in a scratch RtJob, then copied (diag_add
 * copies the text) into the caller's diagnostics. */
void rt_report_unknown_kernel(kjit_program *prog, const char *name, RtCall *call) {
  RtJob j = {.prog = prog};
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
  const char *near = suggest_closest(name, names, n);
  const char *list = sb.data ? sb.data : "";
  const char *hint = !n ? arena_printf(&call->arena, "%s has no device functions (@cuda.jit(device=True))", prog->src.path)
                     : near ? arena_printf(&call->arena, "did you mean '%s'? (device functions: %s)", near, list)
                            : arena_printf(&call->arena, "device functions: %s", list);
  diag_error(&call->diags, RT_E_NO_KERNEL, (SrcLoc){0}, hint, "no device function named '%s' in %s", name,
             prog->src.path);
  sb_free(&sb);
}
