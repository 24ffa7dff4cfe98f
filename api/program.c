/* program.c - kjit_program: loading a kernel file into generic IR.
 *
 * A program owns one Arena that holds the source text, the AST, the generic
 * IR of every decorated function and the interned types; all of it is freed
 * by kjit_program_destroy.  Loading is: read the file -> parse_module ->
 * the files it imports (runtime/modules.c) -> ir_lower_program -> list the
 * kernels.  Diagnostics point into the program's Source, so they are
 * rendered (rt_finish) before a program that failed to load is freed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/api_internal.h"
#include "cuda/cuc.h"
#include "cuda/link.h"
#include "host/launch.h"

static void collect_kernels(kjit_program *p) {
  for (int i = 0; i < p->ir.funcs.len; i++)
    if (p->ir.funcs.data[i]->is_kernel)
      vec_push(&p->arena, &p->kernels, p->ir.funcs.data[i]);
}

/* The loading pipeline: parse, then lower (only a file that parsed is
 * lowered, so one syntax error does not cascade into name errors). */
static kjit_status load(RtCall *call, kjit_program *p, bool from_file) {
  p->ir.ast = parse_module(&p->arena, &p->src, &call->diags);
  if (call->diags.nerrors)
    return KJIT_ERROR_SYNTAX;
  if (!rt_load_modules(p, from_file, &call->diags)) /* imported files (modules.c) */
    return rt_status_of(&call->diags);
  if (!ir_lower_program(&p->ir, &call->diags) || call->diags.nerrors)
    return rt_status_of(&call->diags);
  collect_kernels(p);
  if (!rt_link_check_files(p, &call->diags))
    return KJIT_ERROR_IO;
  return KJIT_OK;
}

static kjit_status load_text(kjit_context *ctx, RtCall *call, const char *name,
                             const char *text, size_t len, bool from_file,
                             kjit_program **out) {
  kjit_program *p = rt_program_new(ctx, name, text, len);
  if (!p)
    return rt_finish(call, KJIT_ERROR_OUT_OF_MEMORY);
  kjit_status st = load(call, p, from_file);
  if (st == KJIT_OK) {      /* linked before rt_finish releases the lock */
    p->next = ctx->programs;
    ctx->programs = p;
    *out = p;
  }
  if ((st = rt_finish(call, st)) != KJIT_OK) { /* renders while p lives */
    arena_destroy(&p->arena);
    free(p);
  }
  return st;
}

kjit_status kjit_program_load_file(kjit_context *ctx, const char *path,
                                   kjit_program **out) {
  if (!ctx || !path || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  char *text;
  size_t len;
  if (!rt_read_file(path, &text, &len, &call.diags))
    return rt_finish(&call, KJIT_ERROR_IO);
  kjit_status st = rt_cuc_is_cuda_path(path) /* CUDA C (cuda/cuc.c) */
                       ? rt_cuc_load(ctx, &call, path, text, len, NULL, out)
                       : load_text(ctx, &call, path, text, len, true, out);
  free(text);
  return st;
}

kjit_status kjit_program_load_source(kjit_context *ctx, const char *name,
                                     const char *text, kjit_program **out) {
  if (!ctx || !text || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  return load_text(ctx, &call, name ? name : "<string>", text, strlen(text), false, out);
}

kjit_status kjit_program_load_fd(kjit_context *ctx, const char *name, int fd,
                                 kjit_program **out) {
  if (!ctx || fd < 0 || !out)
    return KJIT_ERROR_INVALID_ARGUMENT;
  RtCall call;
  rt_begin(&call, ctx);
  name = name ? name : "<stdin>";
  int own = dup(fd); /* the caller keeps fd open */
  FILE *f = own >= 0 ? fdopen(own, "rb") : NULL;
  if (!f) {
    if (own >= 0)
      close(own);
    diag_error(&call.diags, RT_E_IO, (SrcLoc){0}, NULL, "cannot read '%s': %s", name, strerror(errno));
    return rt_finish(&call, KJIT_ERROR_IO);
  }
  char *text;
  size_t len;
  if (!rt_read_stream(f, name, &text, &len, &call.diags))
    return rt_finish(&call, KJIT_ERROR_IO);
  kjit_status st = load_text(ctx, &call, name, text, len, false, out);
  free(text);
  return st;
}

void kjit_program_destroy(kjit_program *prog) {
  if (!rt_program_live(prog))          /* NULL, or destroyed before (quarantined) */
    return;
  kjit_context *ctx = prog->ctx;
  rt_lock(ctx);                        /* other threads may be calling */
  rt_reduce_program_free(prog);          /* its reductions' device scratch */
  rt_globals_free(prog);                 /* device copies of bound globals */
  rt_cuda_forget_program(prog);          /* its GPU specializations */
  rt_host_program_free(prog);            /* its host JIT, pool, specializations */
  rt_unlink_program(prog->ctx, prog);
  rt_quarantine_program(ctx, prog, false); /* freed later: stale handles detected */
  rt_unlock(ctx);
}

/* ------------------------------------------------------------ queries --- */

kjit_status kjit_program_kernel_count(const kjit_program *prog, int *count) {
  if (!rt_program_live(prog) || !count)
    return KJIT_ERROR_INVALID_ARGUMENT;
  *count = prog->kernels.len;
  return KJIT_OK;
}

kjit_status kjit_program_kernel_name(const kjit_program *prog, int i,
                                     const char **name) {
  if (!rt_program_live(prog) || !name)
    return KJIT_ERROR_INVALID_ARGUMENT;
  if (i < 0 || i >= prog->kernels.len)
    return KJIT_ERROR_NOT_FOUND;
  *name = prog->kernels.data[i]->name;
  return KJIT_OK;
}

IrFunc *rt_factory_kernel(kjit_program *prog, const char *name, Diags *diags) {
  IrFunc *f = NULL;
  if (prog->cuc || !strpbrk(name, "(.") || !ir_lower_factory_call(&prog->ir, name, diags, &f) ||
      !f->is_kernel)
    return NULL;
  for (int i = 0; i < prog->kernels.len; i++)
    if (prog->kernels.data[i] == f)
      return f;
  if (prog->kernel_handles) { /* per kernel: one more slot */
    struct kjit_kernel **h = arena_alloc(&prog->arena, sizeof *h * (size_t)(prog->kernels.len + 1));
    memcpy(h, prog->kernel_handles, sizeof *h * (size_t)prog->kernels.len);
    h[prog->kernels.len] = NULL;
    prog->kernel_handles = h;
  }
  vec_push(&prog->arena, &prog->kernels, f);
  return f;
}

IrFunc *rt_find_launchable(kjit_program *prog, const char *name, Diags *diags) {
  if (prog->cuc) {
    CucKernel *k = rt_cuc_kernel(prog, name, diags);
    return k ? k->fn : NULL;
  }
  for (int i = 0; i < prog->kernels.len; i++)
    if (strcmp(prog->kernels.data[i]->name, name) == 0)
      return prog->kernels.data[i];
  IrFunc *gen = rt_ufunc_kernel_find(prog, name);  /* @vectorize kernels */
  if (!gen)
    gen = rt_find_generated(prog, name);           /* @cuda.reduce kernels */
  if (gen || (gen = rt_factory_kernel(prog, name, diags)) || diags->nerrors)
    return gen;
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < prog->kernels.len; i++)
    sb_printf(&sb, "%s%s", i ? ", " : "kernels: ", prog->kernels.data[i]->name);
  diag_error(diags, RT_E_NO_KERNEL, (SrcLoc){0}, sb.data, "no kernel named '%s' in %s", name,
             prog->src.path);
  sb_free(&sb);
  return NULL;
}
