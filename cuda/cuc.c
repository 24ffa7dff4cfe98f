/* cuc.c - CUDA C programs: loading, kernels by name expression, NVRTC
 * compiles kept in the disk cache, emit/check, launch checks and the CUDA
 * specialization.
 *
 * A CUDA C program is a kjit_program whose `cuc` is set: its IR is empty,
 * its kernel list holds one stub IrFunc per non-template kernel name (for
 * kjit_program_kernel_count/_name), and each kernel looked up by name
 * expression gets a CucKernel whose stub carries the expression as its
 * name and the C parameter names as its parameters, so kernel handles,
 * kjit_launch's count check and the CUDA runner treat it as any kernel.
 * The compile of a kernel adds its name expression (NVRTC's lowered name
 * is the PTX entry); the cache key covers the source, the headers it
 * includes (read recursively, quotes and -I folders), the options, the
 * name expressions, the architecture and NVRTC's version. */
#include "cuda/cuc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"
#include "cache/cache.h"
#include "common/suggest.h"
#include "cuda/nvrtc_internal.h"

#ifndef KJIT_BUILD_ID
#define KJIT_BUILD_ID "unknown"
#endif

/* ------------------------------------------------------------ options --- */

/* NVRTC options a user may pass: exact flags, then prefixes taking a value. */
static const char *const flag_opts[] = {"--use_fast_math", "-use_fast_math", "-lineinfo",
                                        "--generate-line-info"};
static const char *const value_opts[] = {"-I", "--include-path=", "-D", "--define-macro=",
                                         "-U", "--undefine-macro=", "-std=", "--std=",
                                         "--fmad=", "-fmad=", "-ftz=", "--ftz=",
                                         "-prec-div=", "--prec-div=", "-prec-sqrt=",
                                         "--prec-sqrt="};

static bool option_allowed(const char *o) {
  for (size_t i = 0; i < sizeof flag_opts / sizeof *flag_opts; i++)
    if (!strcmp(o, flag_opts[i]))
      return true;
  for (size_t i = 0; i < sizeof value_opts / sizeof *value_opts; i++) {
    size_t n = strlen(value_opts[i]);
    if (!strncmp(o, value_opts[i], n) && o[n])
      return true;
  }
  return false;
}

void kjit_cuda_options_init(kjit_cuda_options *opts) {
  if (opts)
    memset(opts, 0, sizeof *opts);
}

static bool copy_options(kjit_program *p, const kjit_cuda_options *o, Diags *diags) {
  RtCuProgram *c = p->cuc;
  if (!o || o->count == 0)
    return true;
  if (o->count < 0 || o->count > RT_CUC_MAX_OPTIONS) {
    diag_error(diags, RT_E_CUC_OPTION, (SrcLoc){0}, NULL,
               "kjit_cuda_options.count is %d; it must be 0 to %d", o->count, RT_CUC_MAX_OPTIONS);
    return false;
  }
  for (int i = 0; i < 6; i++)
    if (o->reserved[i]) {
      diag_error(diags, RT_E_CUC_OPTION, (SrcLoc){0}, "start from kjit_cuda_options_init()",
                 "kjit_cuda_options.reserved must be zero");
      return false;
    }
  c->opts = arena_alloc(&p->arena, sizeof *c->opts * (size_t)o->count);
  for (int i = 0; i < o->count; i++) {
    const char *s = o->nvrtc_options ? o->nvrtc_options[i] : NULL;
    if (!s || !option_allowed(s)) {
      diag_error(diags, RT_E_CUC_OPTION, (SrcLoc){0},
                 "kjit passes -I, -D, -U, --use_fast_math, -std=, -lineinfo, --fmad=, -ftz=, "
                 "-prec-div= and -prec-sqrt= to NVRTC; it picks -arch itself",
                 "NVRTC option '%s' is not accepted", s ? s : "(null)");
      return false;
    }
    c->opts[c->nopts++] = arena_strdup(&p->arena, s);
  }
  return true;
}

/* ------------------------------------------------------------ loading --- */

bool rt_cuc_is_cuda_path(const char *path) {
  size_t n = strlen(path);
  return (n > 3 && !strcmp(path + n - 3, ".cu")) || (n > 4 && !strcmp(path + n - 4, ".cuh"));
}

/* A program holding CUDA C: rt_program_new's, marked by its cuc part. */
static kjit_program *program_new(kjit_context *ctx, const char *name, const char *text,
                                 size_t len) {
  kjit_program *p = rt_program_new(ctx, name, text, len);
  if (p)
    p->cuc = arena_alloc(&p->arena, sizeof *p->cuc); /* zeroed */
  return p;
}

static IrFunc *stub(Arena *a, const char *name) {
  IrFunc *f = arena_alloc(a, sizeof *f);
  memset(f, 0, sizeof *f);
  f->name = arena_strdup(a, name);
  f->is_kernel = true;
  return f;
}

/* prog->kernels: each non-template kernel name once, in source order. */
static void list_kernels(kjit_program *p) {
  RtCuProgram *c = p->cuc;
  for (int i = 0; i < c->ndecls; i++) {
    bool seen = c->decls[i].is_template;
    for (int k = 0; k < p->kernels.len && !seen; k++)
      seen = !strcmp(p->kernels.data[k]->name, c->decls[i].name);
    if (!seen)
      vec_push(&p->arena, &p->kernels, stub(&p->arena, c->decls[i].name));
  }
}

kjit_status rt_cuc_load(kjit_context *ctx, RtCall *call, const char *name, const char *text,
                        size_t len, const kjit_cuda_options *opts, kjit_program **out) {
  kjit_program *p = program_new(ctx, name, text, len);
  if (!p)
    return rt_finish(call, KJIT_ERROR_OUT_OF_MEMORY);
  kjit_status st = KJIT_ERROR_INVALID_ARGUMENT;
  if (copy_options(p, opts, &call->diags)) {
    p->cuc->ndecls = cuc_scan(&p->arena, &p->src, &p->cuc->decls);
    list_kernels(p);
    p->next = ctx->programs;
    ctx->programs = p;
    *out = p;
    st = KJIT_OK;
  }
  if ((st = rt_finish(call, st)) != KJIT_OK) {
    arena_destroy(&p->arena);
    free(p);
  }
  return st;
}

kjit_status kjit_program_load_cuda_file(kjit_context *ctx, const char *path,
                                        const kjit_cuda_options *opts, kjit_program **out) {
  if (!ctx || !path || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  char *text;
  size_t len;
  if (!rt_read_file(path, &text, &len, &call.diags))
    return rt_finish(&call, KJIT_ERROR_IO);
  kjit_status st = rt_cuc_load(ctx, &call, path, text, len, opts, out);
  free(text);
  return st;
}

kjit_status kjit_program_load_cuda_source(kjit_context *ctx, const char *name, const char *text,
                                          const kjit_cuda_options *opts, kjit_program **out) {
  if (!ctx || !text || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  return rt_cuc_load(ctx, &call, name ? name : "<string>.cu", text, strlen(text), opts, out);
}

/* ------------------------------------------------------------ kernels --- */

/* The declared kernel name to suggest for `name` (common/suggest.h), or
 * NULL. */
static const char *closest(const kjit_program *p, const char *name, Arena *a) {
  const char **names = arena_alloc(a, sizeof *names * (size_t)(p->cuc->ndecls + 1));
  for (int i = 0; i < p->cuc->ndecls; i++)
    names[i] = p->cuc->decls[i].name;
  return suggest_closest(name, names, p->cuc->ndecls);
}

static const char *kernel_list(kjit_program *p, Arena *a) {
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < p->cuc->ndecls; i++) {
    const CucDecl *d = &p->cuc->decls[i];
    bool dup = false;
    for (int k = 0; k < i && !dup; k++)
      dup = !strcmp(p->cuc->decls[k].name, d->name);
    if (!dup)
      sb_printf(&sb, "%s%s%s", sb.len ? ", " : "kernels: ", d->name, d->is_template ? "<...>" : "");
  }
  const char *s = sb.len ? arena_strdup(a, sb.data) : "the file has no __global__ function";
  sb_free(&sb);
  return s;
}

static bool same_param(const CucParam *a, const CucParam *b) {
  return a->pointer == b->pointer && a->any == b->any && (a->any || a->dtype == b->dtype);
}

/* The overload whose parameters are the cast's types. */
static const CucDecl *pick_overload(kjit_program *p, const CucName *n, Arena *a) {
  for (int i = 0; i < p->cuc->ndecls; i++) {
    const CucDecl *d = &p->cuc->decls[i];
    CucParam *ps;
    int np;
    const char *why;
    if (strcmp(d->name, n->name) || !cuc_params(a, d, n->targs, n->ntargs, &ps, &np, &why) ||
        np != n->ncasts)
      continue;
    bool ok = true;
    for (int k = 0; k < np && ok; k++) {
      CucParam c;
      ok = cuc_parse_type(a, n->casts[k], &c) && same_param(&c, &ps[k]);
    }
    if (ok)
      return d;
  }
  return NULL;
}

/* "float *, int": the parameter types of d, for hints. */
static const char *param_types(Arena *a, const CucDecl *d) {
  CucParam *ps;
  int np;
  const char *why;
  if (!cuc_params(a, d, NULL, 0, &ps, &np, &why))
    return "...";
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < np; i++)
    sb_printf(&sb, "%s%s", i ? ", " : "", ps[i].type);
  const char *s = arena_strdup(a, sb.data ? sb.data : "");
  sb_free(&sb);
  return s;
}

/* The declaration a name expression names; NULL with the reason. */
static const CucDecl *find_decl(kjit_program *p, const char *expr, const CucName *n, Diags *diags) {
  const CucDecl *first = NULL;
  int count = 0;
  for (int i = 0; i < p->cuc->ndecls; i++)
    if (!strcmp(p->cuc->decls[i].name, n->name) && count++ == 0)
      first = &p->cuc->decls[i];
  Arena *a = &p->arena;
  if (!first) {
    const char *near = closest(p, n->name, a);
    diag_error(diags, RT_E_CUC_KERNEL, (SrcLoc){0},
               near ? arena_printf(a, "did you mean '%s'? (%s)", near, kernel_list(p, a))
                    : kernel_list(p, a),
               "no kernel named '%s' in %s", n->name, p->src.path);
    return NULL;
  }
  if (n->ncasts >= 0) {
    const CucDecl *d = pick_overload(p, n, a);
    if (!d)
      diag_error(diags, RT_E_CUC_KERNEL, first->loc, NULL,
                 "no overload of kernel '%s' takes the parameters of '%s'", n->name, expr);
    return d;
  }
  if (first->is_template && !n->ntargs) {
    diag_error(diags, RT_E_CUC_KERNEL, first->loc,
               arena_printf(a, "name an instantiation, as nvrtcAddNameExpression takes it: "
                               "'%s<float>'", n->name),
               "kernel '%s' is a template", n->name);
    return NULL;
  }
  if (!first->is_template && n->ntargs) {
    diag_error(diags, RT_E_CUC_KERNEL, first->loc, NULL,
               "kernel '%s' is not a template; name it without <...>", n->name);
    return NULL;
  }
  if (count > 1) {
    diag_error(diags, RT_E_CUC_KERNEL, first->loc,
               arena_printf(a, "name one by its parameter types, as nvrtcAddNameExpression "
                               "takes it: 'static_cast<void(*)(%s)>(%s)'",
                            param_types(a, first), n->name),
               "kernel '%s' is overloaded (%d declarations)", n->name, count);
    return NULL;
  }
  return first;
}

static CucKernel *make_kernel(kjit_program *p, const char *expr, const CucDecl *d,
                              const CucName *n, Diags *diags) {
  Arena *a = &p->arena;
  CucKernel *k = arena_alloc(a, sizeof *k);
  memset(k, 0, sizeof *k);
  const char *why = NULL;
  if (!cuc_params(a, d, n->targs, n->ntargs, &k->params, &k->nparams, &why)) {
    diag_error(diags, RT_E_CUC_PARAM, d->loc, "kjit passes arrays as pointers and numbers as values",
               "kernel '%s' cannot be launched by kjit: %s", expr, why);
    return NULL;
  }
  k->expr = arena_strdup(a, expr);
  k->decl = d;
  k->fn = stub(a, expr);
  k->fn->nparams = k->nparams;
  for (int i = 0; i < k->nparams; i++) {
    IrLocal l = {.name = *k->params[i].name ? k->params[i].name : arena_printf(a, "arg%d", i + 1)};
    vec_push(a, &k->fn->locals, l);
  }
  k->next = p->cuc->kernels;
  p->cuc->kernels = k;
  return k;
}

bool rt_cuc_names_kernel(kjit_program *prog, const char *expr, Diags *diags) {
  CucName n;
  for (CucKernel *k = prog->cuc->kernels; k; k = k->next)
    if (!strcmp(k->expr, expr))
      return true;
  if (!cuc_parse_name(&prog->arena, expr, &n)) {
    diag_error(diags, RT_E_CUC_KERNEL, (SrcLoc){0},
               "write NAME, NAME<T, ...> or static_cast<void(*)(T, ...)>(NAME), as "
               "nvrtcAddNameExpression takes them",
               "'%s' does not name a kernel", expr);
    return false;
  }
  return find_decl(prog, expr, &n, diags) != NULL;
}

CucKernel *rt_cuc_kernel(kjit_program *prog, const char *expr, Diags *diags) {
  for (CucKernel *k = prog->cuc->kernels; k; k = k->next)
    if (!strcmp(k->expr, expr))
      return k;
  CucName n;
  if (!rt_cuc_names_kernel(prog, expr, diags) || !cuc_parse_name(&prog->arena, expr, &n))
    return NULL;
  const CucDecl *d = find_decl(prog, expr, &n, diags);
  return d ? make_kernel(prog, expr, d, &n, diags) : NULL;
}

CucKernel *rt_cuc_kernel_of(const kjit_program *prog, const IrFunc *fn) {
  for (CucKernel *k = prog->cuc ? prog->cuc->kernels : NULL; k; k = k->next)
    if (k->fn == fn)
      return k;
  return NULL;
}

/* ------------------------------------------------------- launch checks --- */

/* "kernel 'k': argument 2 ('b'): MESSAGE" */
static bool arg_error(Diags *d, const CucKernel *k, int i, const char *hint, const char *msg) {
  diag_error(d, RT_E_CUC_ARG, (SrcLoc){0}, hint, "kernel '%s': argument %d ('%s'): %s", k->expr,
             i + 1, k->fn->locals.data[i].name, msg);
  return false;
}

static bool check_pointer(Arena *a, const CucKernel *k, int i, const RtValue *v, Diags *d) {
  const CucParam *p = &k->params[i];
  if (!v->is_array)
    return arg_error(d, k, i, "pass an array (a .npy file, zeros:DTYPE:N, ...)",
                     arena_printf(a, "parameter '%s' is a pointer; a %s is not an array", p->text,
                                  v->is_tuple ? "tuple" : rt_dtype_name(v->scalar.dtype)));
  if (!p->any && v->array.dtype != p->dtype)
    return arg_error(d, k, i,
                     arena_printf(a, "pass a %s array, or change the parameter's type",
                                  rt_dtype_name(p->dtype)),
                     arena_printf(a, "a %s array does not fit parameter '%s' (%s elements)",
                                  rt_dtype_name(v->array.dtype), p->text, rt_dtype_name(p->dtype)));
  if (!rt_array_is_c_contiguous(&v->array))
    return arg_error(d, k, i, "pass a C-contiguous copy",
                     arena_printf(a, "parameter '%s' takes a pointer to contiguous elements; the "
                                     "array is strided", p->text));
  return true;
}

static bool check_value(Arena *a, const CucKernel *k, int i, const RtValue *v, Diags *d) {
  const CucParam *p = &k->params[i];
  if (v->is_array || v->is_tuple)
    return arg_error(d, k, i, "pass a number, e.g. 1024 or int32:1024",
                     arena_printf(a, "parameter '%s' is a value; an %s cannot be passed to it",
                                  p->text, v->is_array ? "array" : "tuple"));
  if (rt_dtype_is_complex(v->scalar.dtype) && !rt_dtype_is_complex(p->dtype))
    return arg_error(d, k, i, NULL,
                     arena_printf(a, "a %s value does not convert to parameter '%s'",
                                  rt_dtype_name(v->scalar.dtype), p->text));
  return true;
}

bool rt_cuc_check_args(const CucKernel *k, const RtValue *vals, int nargs, Diags *diags) {
  Arena *a = diags->arena;
  for (int i = 0; i < nargs && i < k->nparams; i++)
    if (!(k->params[i].pointer ? check_pointer(a, k, i, &vals[i], diags)
                               : check_value(a, k, i, &vals[i], diags)))
      return false;
  return true;
}
