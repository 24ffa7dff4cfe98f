/* cuc_compile.c - CUDA C programs through NVRTC: the cached compile, the
 * emit/check entry points, and the loaded specialization a launch uses.
 *
 * One compile is the whole file for compute_<sm> with the user's options
 * and the name expressions asked for (a kernel's own, for a launch or a
 * `kjit ptx FILE:KERNEL`); NVRTC's lowered names come back with the PTX.
 * Both are stored in the disk cache under a key of everything that can
 * change them: kjit's build, NVRTC's version, the architecture, the
 * options, the name expressions, the source and the text of every header
 * it includes that can be found (quotes: next to the including file, then
 * the -I folders; angle brackets: the -I folders; the toolkit's own headers
 * are covered by NVRTC's version). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"
#include "cache/cache.h"
#include "cuda/cuc.h"
#include "cuda/nvrtc_internal.h"
#include "common/settings.h"

#ifndef KJIT_BUILD_ID
#define KJIT_BUILD_ID "unknown"
#endif

#define MAX_HEADERS 64

/* ------------------------------------------------------------ headers --- */

typedef struct Headers {
  char *seen[MAX_HEADERS];   /* malloc'd paths already hashed */
  int n;
  const RtCuProgram *cuc;    /* for its -I folders */
} Headers;

static char *read_all(const char *path) { /* a header that may not exist: quiet */
  char *text;
  size_t len;
  return rt_read_file(path, &text, &len, NULL) ? text : NULL;
}

/* The folder of the -I option o, or NULL. */
static const char *include_dir(const char *o) {
  return !strncmp(o, "-I", 2) ? o + 2 : !strncmp(o, "--include-path=", 15) ? o + 15 : NULL;
}

static void hash_file(Sha256 *h, Headers *hs, const char *path, const char *src, int depth);

/* `#include "x"` / `<x>`: the first readable candidate, hashed once. */
static void hash_include(Sha256 *h, Headers *hs, const char *from, const char *name, bool quoted,
                         int depth) {
  char path[1200];
  const char *slash = strrchr(from, '/');
  for (int i = quoted ? -1 : 0; i < hs->cuc->nopts; i++) {
    const char *dir = i < 0 ? NULL : include_dir(hs->cuc->opts[i]);
    if (i < 0)
      snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - from) + 1 : 0, from, name);
    else if (dir)
      snprintf(path, sizeof path, "%s/%s", dir, name);
    else
      continue;
    for (int k = 0; k < hs->n; k++)
      if (!strcmp(hs->seen[k], path))
        return;
    char *text = read_all(path);
    if (!text)
      continue;
    if (hs->n < MAX_HEADERS)
      hs->seen[hs->n++] = strdup(path);
    hash_file(h, hs, path, text, depth + 1);
    free(text);
    return;
  }
}

static void hash_file(Sha256 *h, Headers *hs, const char *path, const char *src, int depth) {
  sha256_update(h, path, strlen(path) + 1);
  sha256_update(h, src, strlen(src) + 1);
  if (depth > 8 || hs->n >= MAX_HEADERS)
    return;
  for (const char *p = strstr(src, "#include"); p; p = strstr(p + 8, "#include")) {
    const char *q = p + 8;
    while (*q == ' ' || *q == '\t')
      q++;
    char close = *q == '"' ? '"' : *q == '<' ? '>' : 0;
    const char *end = close ? strchr(q + 1, close) : NULL;
    if (!end || end - q > 400 || memchr(q, '\n', (size_t)(end - q)))
      continue;
    char name[420];
    snprintf(name, sizeof name, "%.*s", (int)(end - q - 1), q + 1);
    hash_include(h, hs, path, name, close == '"', depth);
  }
}

/* ---------------------------------------------------------- compiling --- */

typedef struct Build {
  int sm;
  const char *const *names;  /* name expressions */
  int nnames;
  char *ptx;                 /* malloc'd */
  size_t len;
  const char **lowered;      /* nnames, in the arena */
} Build;

static void build_key(const kjit_program *p, const RtNvrtc *nv, const Build *b,
                      uint8_t key[RT_CACHE_KEY_SIZE]) {
  Sha256 h;
  sha256_init(&h);
  char head[256];
  snprintf(head, sizeof head, "kjit-cuc-1\nbuild %s\nnvrtc %d.%d\nsm %d\ninc %s\n", KJIT_BUILD_ID,
           nv->major, nv->minor, b->sm, rt_cuda_include_dir() ? rt_cuda_include_dir() : "");
  sha256_update(&h, head, strlen(head));
  rt_settings_hash(&h);      /* the codegen-affecting settings */
  for (int i = 0; i < p->cuc->nopts; i++)
    sha256_update(&h, p->cuc->opts[i], strlen(p->cuc->opts[i]) + 1);
  sha256_update(&h, "names", 6);
  for (int i = 0; i < b->nnames; i++)
    sha256_update(&h, b->names[i], strlen(b->names[i]) + 1);
  Headers hs = {.cuc = p->cuc};
  hash_file(&h, &hs, p->src.path, p->src.text, 0);
  for (int i = 0; i < hs.n; i++)
    free(hs.seen[i]);
  sha256_final(&h, key);
}

/* A cached entry: the PTX, then the lowered names one per line. */
static bool from_cache(RtCache *c, const uint8_t *key, Build *b, Arena *a) {
  RtCacheEntry e = {0};
  if (!c || !rt_cache_get(c, key, &e))
    return false;
  size_t n = 0, m = 0;
  const char *ptx = rt_cache_entry_find(&e, RT_SEC_PTX, &n);
  const char *meta = rt_cache_entry_find(&e, RT_SEC_META, &m);
  bool ok = ptx && meta && n && (b->ptx = malloc(n + 1));
  if (ok) {
    memcpy(b->ptx, ptx, n);
    b->ptx[n] = '\0';
    b->len = strlen(b->ptx);
    b->lowered = arena_alloc(a, sizeof *b->lowered * (size_t)(b->nnames + 1));
    char *names = arena_strndup(a, meta, m);
    for (int i = 0; i < b->nnames && ok; i++) {
      char *nl = strchr(names, '\n');
      ok = nl != NULL;
      if (ok)
        *nl = '\0', b->lowered[i] = names, names = nl + 1;
    }
    if (!ok)
      free(b->ptx), b->ptx = NULL;
  }
  rt_cache_entry_release(&e);
  return ok;
}

static void to_cache(RtCache *c, const uint8_t *key, const Build *b) {
  if (!c)
    return;
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < b->nnames; i++)
    sb_printf(&sb, "%s\n", b->lowered[i]);
  RtCacheEntry e = {0};
  rt_cache_entry_add(&e, RT_SEC_PTX, b->ptx, b->len + 1);
  rt_cache_entry_add(&e, RT_SEC_META, sb.data ? sb.data : "", sb.len);
  rt_cache_put(c, key, &e);
  sb_free(&sb);
}

/* The whole file -> PTX (and lowered names) for compute_<b->sm>. */
static bool compile(kjit_program *p, Build *b, Arena *a, Diags *diags) {
  RtNvrtc nv;
  if (!rt_nvrtc_open(&nv, (SrcLoc){0}, diags))
    return false;
  uint8_t key[RT_CACHE_KEY_SIZE];
  build_key(p, &nv, b, key);
  RtCache *cache = rt_context_cache(p->ctx, diags);
  if (from_cache(cache, key, b, a))
    return true;
  RtNvrtcJob job = {.path = p->src.path, .src = p->src.text, .sm = b->sm,
                    .opts = (const char *const *)p->cuc->opts, .nopts = p->cuc->nopts,
                    .names = b->names, .nnames = b->nnames};
  if (!rt_nvrtc_run(&nv, &job, NULL, a, &b->ptx, &b->len, diags))
    return false;
  b->lowered = job.lowered;
  to_cache(cache, key, b);
  return true;
}

/* ------------------------------------------------------- emit / check --- */

/* "sm_90" / "sm_90a" -> 90; 0 when it does not read. */
static int arch_sm(const char *arch) {
  int sm = 0, used = 0;
  if (!arch || sscanf(arch, "sm_%d%n", &sm, &used) != 1 || sm < 10)
    return 0;
  return !arch[used] || (arch[used] == 'a' && !arch[used + 1]) ? sm : 0;
}

static bool emit_cubin(const char *arch, Build *b, char **out, size_t *len, Diags *diags) {
  RtCuda *cu = calloc(1, sizeof *cu);  /* nvJitLink needs no device */
  if (!cu)
    return false;
  cu->info.cc_major = b->sm / 10;
  cu->info.cc_minor = b->sm % 10;
  bool unavailable = false;
  void *cubin = NULL;
  bool ok = rt_cuda_link_inputs(cu, arch, b->ptx, b->len, NULL, 0, false, &cubin, len,
                                &unavailable, diags);
  if (unavailable)
    diag_error(diags, RT_E_CUDA_LINK, (SrcLoc){0},
               "install the CUDA toolkit's nvJitLink, or name it with KJIT_NVJITLINK",
               "cannot make a cubin: nvJitLink (libnvJitLink.so) was not found");
  *out = cubin;
  free(cu);
  return ok;
}

/* kjit_compile_options of Python kernels have NVRTC options instead. */
static bool check_compile_options(const kjit_compile_options *o, Diags *d) {
  if (!o)
    return true;
  const char *name = o->opt_level != -1    ? "opt_level (--opt)"
                     : o->fastmath != -1   ? "fastmath (--fastmath)"
                     : o->lineinfo != -1   ? "lineinfo (--lineinfo)"
                     : o->max_registers != -1 ? "max_registers (--max-registers)"
                     : o->debug != -1      ? "debug (--debug)"
                                           : NULL;
  if (name)
    diag_error(d, RT_E_ARGUMENT, (SrcLoc){0},
               "give NVRTC's options instead (--use_fast_math, --nvrtc-opt -lineinfo, ...)",
               "compile option %s applies to Python kernels, not to CUDA C", name);
  return !name;
}

static bool check_emit_args(kjit_program *p, const char *kernel, const char *signature,
                            kjit_emit what, Diags *d) {
  if (signature) {
    diag_error(d, RT_E_ARGUMENT, (SrcLoc){0}, "drop the signature",
               "CUDA C kernels take no signature: their C parameter list is their signature");
    return false;
  }
  if (what != KJIT_EMIT_PTX && what != KJIT_EMIT_CUBIN) {
    diag_error(d, RT_E_ARGUMENT, (SrcLoc){0}, "kir and llvm are stages of Python kernels",
               "CUDA C programs emit ptx or cubin");
    return false;
  }
  return !kernel || rt_cuc_names_kernel(p, kernel, d);
}

static bool emit(kjit_program *p, RtCall *call, const char *kernel, const char *arch,
                 kjit_emit what, char **out, size_t *len) {
  Build b = {.sm = arch_sm(arch), .names = kernel ? &kernel : NULL, .nnames = kernel ? 1 : 0};
  if (!b.sm) {
    diag_error(&call->diags, RT_E_ARCH, (SrcLoc){0}, "write sm_XY, e.g. sm_80 or sm_90a",
               "unknown GPU architecture '%s'", arch);
    return false;
  }
  if (!compile(p, &b, &call->arena, &call->diags))
    return false;
  if (what == KJIT_EMIT_PTX) {
    *out = b.ptx;
    *len = b.len;
    return true;
  }
  bool ok = emit_cubin(arch, &b, out, len, &call->diags);
  free(b.ptx);
  return ok;
}

kjit_status rt_cuc_emit(kjit_program *prog, const char *kernel, const char *signature,
                        const kjit_compile_options *opts, kjit_emit what, char **out,
                        size_t *len) {
  RtCall call;
  rt_begin(&call, prog->ctx);
  char *text = NULL;
  size_t n = 0;
  const char *arch = opts && opts->arch ? opts->arch : rt_default_arch(prog->ctx);
  bool ok = check_compile_options(opts, &call.diags) &&
            check_emit_args(prog, kernel, signature, what, &call.diags) &&
            emit(prog, &call, kernel, arch, what, &text, &n);
  kjit_status st = rt_finish(&call, ok ? KJIT_OK : rt_status_of(&call.diags));
  if (st != KJIT_OK) {
    free(text);
    return st;
  }
  *out = text;
  *len = n;
  return KJIT_OK;
}

/* Compiles the file; a kernel kjit cannot launch is a warning. */
kjit_status rt_cuc_check(kjit_program *prog) {
  RtCall call;
  rt_begin(&call, prog->ctx);
  Build b = {.sm = arch_sm(rt_default_arch(prog->ctx))};
  if (compile(prog, &b, &call.arena, &call.diags)) {
    free(b.ptx);
    for (int i = 0; i < prog->cuc->ndecls; i++) {
      const CucDecl *d = &prog->cuc->decls[i];
      CucParam *ps;
      int np;
      const char *why;
      if (!d->is_template && !cuc_params(&call.arena, d, NULL, 0, &ps, &np, &why))
        diag_add(&call.diags, DL_WARNING, RT_E_CUC_PARAM, d->loc, NULL,
                 "kernel '%s' cannot be launched by kjit: %s", d->name, why);
    }
  }
  return rt_finish(&call, rt_status_of(&call.diags));
}

/* --------------------------------------------------- specializations --- */

RtCudaSpec *rt_cuc_spec(RtCuda *cu, kjit_program *prog, IrFunc *f, const RtSpecKey *key,
                        Diags *diags) {
  CucKernel *k = rt_cuc_kernel_of(prog, f);
  if (!k)
    return NULL;
  /* NVRTC's diagnostics point into a Source made in this arena: the call's,
   * which lives until they are rendered */
  Arena *a = diags->arena;
  Build b = {.sm = cu->info.cc_major * 10 + cu->info.cc_minor, .names = &k->expr, .nnames = 1};
  RtCudaSpec *spec = NULL;
  if (compile(prog, &b, a, diags)) {
    rt_ptx_clamp_version(b.ptx, cu->ptx_isa_max);
    spec = calloc(1, sizeof *spec);
    if (spec && !rt_cuda_module_load_entry(cu, b.ptx, b.lowered[0], f->name, &spec->m, diags)) {
      free(spec);
      spec = NULL;
    }
  }
  free(b.ptx);
  if (!spec)
    return NULL;
  spec->key = *key;
  spec->raw_pointers = true;
  snprintf(spec->kernel, sizeof spec->kernel, "%s", f->name);
  for (int i = 0; i < k->nparams; i++)
    spec->arg_dtype[i] = (uint8_t)k->params[i].dtype;
  if (!rt_spec_prepare_slots(spec) || !rt_spec_insert(&cu->specs, spec)) {
    diag_error(diags, RT_E_CUDA_NOMEM, (SrcLoc){0}, NULL, "out of memory");
    rt_cuda_module_unload(cu, &spec->m);
    free(spec->slots);
    free(spec);
    return NULL;
  }
  return spec;
}
