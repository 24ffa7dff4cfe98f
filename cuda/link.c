/* link.c - `link=[...]` CUDA C files: where they are, NVRTC compiles of them
 * (kept in the disk cache), and the cubin nvJitLink makes of a kernel and
 * its files.
 *
 * A file is named relative to the folder of the file naming it.  Every file is
 * checked when the program loads, so `kjit check` and `kjit ptx` report a
 * missing one at its string literal.  The NVRTC result is cached under a
 * key of the source text, the text of the files it #includes with quotes
 * (one level, from its folder), NVRTC's version, the architecture and the
 * options; so editing the .cu or such a header recompiles it. */
#include "cuda/link.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/sha256.h"
#include "cache/cache.h"
#include "data/npy.h"
#include "cuda/nvrtc_internal.h"
#include "common/settings.h"

#ifndef KJIT_BUILD_ID
#define KJIT_BUILD_ID "unknown"
#endif

#define NVRTC_OPTS "-rdc=true -default-device -std=c++17" /* keep in step with nvrtc.c */

/* The path of a link= file: absolute as is, else next to the file that
 * names it (the kernel file or an imported module). */
static char *resolve(const kjit_program *prog, const IrLink *l) {
  const char *file = l->path;
  const char *kp = l->loc.src && l->loc.src->path ? l->loc.src->path
                   : prog->src.path                ? prog->src.path : "";
  const char *slash = file[0] == '/' || kp[0] == '<' ? NULL : strrchr(kp, '/');
  size_t dir = slash ? (size_t)(slash - kp) + 1 : 0;
  char *out = malloc(dir + strlen(file) + 1);
  if (out) {
    memcpy(out, kp, dir);
    strcpy(out + dir, file);
  }
  return out;
}

/* Regular files only (a FIFO named in link= would block), at most the
 * source size cap's default of 16 MiB. */
static char *read_text(const char *path) {
  const char *why;
  int fd = rt_open_regular(path, &why);
  FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (!f) {
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  StrBuf sb;
  sb_init(&sb);
  char buf[8192];
  size_t n;
  while (sb.len <= ((size_t)16 << 20) && (n = fread(buf, 1, sizeof buf, f)) > 0)
    sb_putn(&sb, buf, n);
  bool err = ferror(f) || sb.len > ((size_t)16 << 20);
  fclose(f);
  char *text = sb_take(&sb);
  if (err) {
    free(text);
    return NULL;
  }
  return text;
}

/* --------------------------------------------------------- the files --- */

typedef struct Files {
  const IrLink *list[64];
  int n;
} Files;

static void add_links(Files *fs, const IrLinkVec *v) {
  for (int i = 0; i < v->len && fs->n < 64; i++) {
    bool dup = false;
    for (int k = 0; k < fs->n && !dup; k++)
      dup = strcmp(fs->list[k]->path, v->data[i].path) == 0;
    if (!dup)
      fs->list[fs->n++] = &v->data[i];
  }
}

static void collect(kjit_program *prog, IrFunc *const *kernels, int nkernels, Files *fs) {
  fs->n = 0;
  for (int i = 0; i < nkernels; i++)
    add_links(fs, &kernels[i]->link);
  for (int i = 0; i < prog->ir.funcs.len; i++)
    if (prog->ir.funcs.data[i]->is_device)
      add_links(fs, &prog->ir.funcs.data[i]->link);
  for (int i = 0; i < prog->ir.externs.len; i++)
    add_links(fs, &prog->ir.externs.data[i].link);
}

int rt_link_count(kjit_program *prog, IrFunc *const *kernels, int nkernels) {
  Files fs;
  collect(prog, kernels, nkernels, &fs);
  return fs.n;
}

static bool check_links(kjit_program *prog, const IrLinkVec *v, Diags *diags) {
  bool ok = true;
  for (int i = 0; i < v->len; i++) {
    if (v->data[i].source)
      continue; /* inline CUDA C: nothing to read */
    char *path = resolve(prog, &v->data[i]);
    if (path && access(path, R_OK) != 0) {
      diag_error(diags, RT_E_IO, v->data[i].loc,
                 "link= files are found relative to the kernel file's folder",
                 "cannot read CUDA C file '%s' named in link=", path);
      ok = false;
    }
    free(path);
  }
  return ok;
}

bool rt_link_check_files(kjit_program *prog, Diags *diags) {
  bool ok = true;
  for (int i = 0; i < prog->ir.funcs.len; i++)
    ok &= check_links(prog, &prog->ir.funcs.data[i]->link, diags);
  for (int i = 0; i < prog->ir.externs.len; i++)
    ok &= check_links(prog, &prog->ir.externs.data[i].link, diags);
  return ok;
}

/* ------------------------------------------------------- NVRTC, cached --- */

/* The text of each `#include "x"` next to the .cu file (one level). */
static void hash_includes(Sha256 *h, const char *path, const char *src) {
  const char *slash = strrchr(path, '/');
  for (const char *p = strstr(src, "#include"); p; p = strstr(p + 8, "#include")) {
    const char *q = p + 8;
    while (*q == ' ' || *q == '\t')
      q++;
    const char *end = *q == '"' ? strchr(q + 1, '"') : NULL;
    if (!end || end - q > 400 || memchr(q, '\n', (size_t)(end - q)))
      continue;
    char inc[1024];
    snprintf(inc, sizeof inc, "%.*s%.*s", slash ? (int)(slash - path) + 1 : 0, path,
             (int)(end - q - 1), q + 1);
    char *text = read_text(inc);
    sha256_update(h, inc, strlen(inc) + 1);
    if (text)
      sha256_update(h, text, strlen(text) + 1);
    free(text);
  }
}

static void nvrtc_key(const RtNvrtc *nv, int sm, const char *path, const char *src,
                      uint8_t key[RT_CACHE_KEY_SIZE]) {
  char head[256];
  snprintf(head, sizeof head, "kjit-nvrtc-1\nbuild %s\nnvrtc %d.%d\nsm %d\nopts %s\ninc %s\n",
           KJIT_BUILD_ID, nv->major, nv->minor, sm, NVRTC_OPTS,
           rt_cuda_include_dir() ? rt_cuda_include_dir() : "");
  Sha256 h;
  sha256_init(&h);
  sha256_update(&h, head, strlen(head));
  rt_settings_hash(&h);      /* the codegen-affecting settings */
  sha256_update(&h, src, strlen(src) + 1);
  hash_includes(&h, path, src);
  sha256_final(&h, key);
}

static bool compile_one(kjit_program *prog, RtNvrtc *nv, int sm, const IrLink *l, Arena *arena,
                        RtLinkInput *out, Diags *diags) {
  char *path = l->source ? strdup(l->path) : resolve(prog, l);
  char *src = !path ? NULL : l->source ? strdup(l->source) : read_text(path);
  if (!src) {
    diag_error(diags, RT_E_IO, l->loc, NULL, "cannot read CUDA C file '%s' named in link=",
               path ? path : l->path);
    free(path);
    return false;
  }
  uint8_t key[RT_CACHE_KEY_SIZE];
  nvrtc_key(nv, sm, path, src, key);
  RtCache *cache = rt_context_cache(prog->ctx, diags);
  RtCacheEntry e = {0};
  RtCacheClaim claim = {.lock.fd = -1};
  size_t n = 0;
  const void *hit = NULL;
  /* a miss holds the entry's compile lock: other processes wait for ours */
  bool got = cache && rt_cache_claim(cache, key, &e, &claim);
  if (got && (hit = rt_cache_entry_find(&e, RT_SEC_PTX, &n)) && (out->ptx = malloc(n + 1))) {
    memcpy(out->ptx, hit, n);
    out->ptx[n] = '\0';
    out->len = strlen(out->ptx);
  }
  if (got)
    rt_cache_entry_release(&e);
  bool ok = out->ptx != NULL;
  if (!ok && (ok = rt_nvrtc_compile(nv, path, src, sm, arena, &out->ptx, &out->len, diags)) && cache) {
    RtCacheEntry put = {0};
    rt_cache_entry_add(&put, RT_SEC_PTX, out->ptx, out->len + 1);
    rt_cache_put(cache, key, &put);
  }
  rt_cache_release(&claim);
  if (!ok)
    diag_add(diags, DL_NOTE, RT_E_NVRTC_COMPILE, l->loc, NULL, "'%s' is linked here", l->path);
  out->name = arena_strdup(arena, path);
  free(src);
  free(path);
  return ok;
}

bool rt_link_compile(kjit_program *prog, IrFunc *const *kernels, int nkernels, int sm,
                     RtLinkInput **inputs, int *n, Diags *diags) {
  Files fs;
  collect(prog, kernels, nkernels, &fs);
  *inputs = NULL;
  *n = 0;
  if (fs.n == 0)
    return true;
  RtNvrtc nv;
  SrcLoc at = fs.list[0]->loc;
  if (!rt_nvrtc_open(&nv, at, diags))
    return false;
  RtLinkInput *in = calloc((size_t)fs.n, sizeof *in);
  if (!in)
    return false;
  bool ok = true;
  for (int i = 0; i < fs.n; i++)
    ok &= compile_one(prog, &nv, sm, fs.list[i], &prog->arena, &in[i], diags);
  if (!ok) {
    rt_link_inputs_free(in, fs.n);
    return false;
  }
  *inputs = in;
  *n = fs.n;
  return true;
}

void rt_link_inputs_free(RtLinkInput *inputs, int n) {
  for (int i = 0; inputs && i < n; i++)
    free(inputs[i].ptx);
  free(inputs);
}

/* ------------------------------------------------------------ cubins --- */

bool rt_link_cubin(kjit_program *prog, IrFunc *const *kernels, int nkernels, const char *arch,
                   const char *ptx, size_t len, char **cubin, size_t *cubin_len, char **info,
                   Diags *diags) {
  int sm = 0;
  if (sscanf(arch, "sm_%d", &sm) != 1) {
    diag_error(diags, RT_E_ARGUMENT, (SrcLoc){0}, NULL, "cannot link for architecture '%s'", arch);
    return false;
  }
  RtLinkInput *in = NULL;
  int n = 0;
  if (!rt_link_compile(prog, kernels, nkernels, sm, &in, &n, diags))
    return false;
  /* nvJitLink needs no device: an RtCuda holding only its table */
  RtCuda *cu = calloc(1, sizeof *cu);
  if (cu) { /* for nvJitLink's messages ("building sm_90") */
    cu->info.cc_major = sm / 10;
    cu->info.cc_minor = sm % 10;
    cu->link_info = info;
  }
  /* ptxas's report comes only from a link that runs ptxas: NVIDIA's JIT
   * cache serves a PTX it has seen without one (measured: an empty report
   * on the second query of the same kernel).  A comment unique to this
   * query makes the text new; the code linked is the same. */
  char *query = NULL;
  if (info) {
    static _Atomic unsigned long queries;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    query = malloc(len + 96);
    if (query) {
      memcpy(query, ptx, len);
      len += (size_t)snprintf(query + len, 96, "\n// kjit resource query %ld.%09ld %d %lu\n",
                              (long)ts.tv_sec, ts.tv_nsec, (int)getpid(), ++queries);
      ptx = query;
    }
  }
  bool unavailable = false;
  void *out = NULL;
  bool ok = cu && rt_cuda_link_inputs(cu, arch, ptx, len, in, n, false, &out, cubin_len,
                                      &unavailable, diags);
  free(query);
  if (unavailable)
    diag_error(diags, RT_E_CUDA_LINK, (SrcLoc){0},
               "install the CUDA toolkit's nvJitLink, or name it with KJIT_NVJITLINK",
               "cannot make a cubin: nvJitLink (libnvJitLink.so) was not found");
  *cubin = out;
  free(cu);
  rt_link_inputs_free(in, n);
  return ok;
}
