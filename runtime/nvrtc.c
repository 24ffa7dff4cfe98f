/* nvrtc.c - CUDA C/C++ -> relocatable PTX with NVRTC (dlopen'd).
 *
 * Options: -arch=compute_<sm> (the kernel's architecture), -rdc=true (so
 * the extern "C" __device__ functions survive for the linker instead of
 * being dropped as unused), -default-device, -I the file's folder, -I the
 * toolkit's include folder.  NVRTC's log names lines as `file.cu(12):
 * error: ...`; each error becomes a kjit diagnostic at that line. */
#include "runtime/nvrtc.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/trace.h"

typedef struct NvSym {
  const char *name;
  size_t offset;
} NvSym;

#define SYM(f) {"nvrtc" #f, offsetof(RtNvrtc, f)}
static const NvSym nv_syms[] = {
    SYM(CreateProgram), SYM(DestroyProgram), SYM(CompileProgram), SYM(GetPTXSize),
    SYM(GetPTX), SYM(GetProgramLogSize), SYM(GetProgramLog), SYM(GetErrorString),
    SYM(Version)};
#undef SYM

static bool fill(RtNvrtc *nv, void *lib) {
  for (size_t i = 0; i < sizeof nv_syms / sizeof nv_syms[0]; i++) {
    void *p = dlsym(lib, nv_syms[i].name);
    if (!p)
      return false;
    memcpy((char *)nv + nv_syms[i].offset, &p, sizeof p);
  }
  nv->lib = lib;
  return nv->Version(&nv->major, &nv->minor) == 0;
}

static const char *toolkit_dir(void) {
  const char *env[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH")};
  for (int i = 0; i < 2; i++)
    if (env[i] && *env[i])
      return env[i];
#ifdef KJIT_CUDA_HOME
  if (KJIT_CUDA_HOME[0])
    return KJIT_CUDA_HOME; /* the toolkit kjit was built against */
#endif
  return "/usr/local/cuda";
}

const char *rt_cuda_include_dir(void) {
  static __thread char buf[512];
  snprintf(buf, sizeof buf, "%s/include", toolkit_dir());
  return access(buf, R_OK) == 0 ? buf : NULL;
}

/* Tried in order: KJIT_NVRTC, the sonames, then the toolkit's lib64. */
bool rt_nvrtc_open(RtNvrtc *nv, SrcLoc at, Diags *diags) {
  static const char *const sonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
  memset(nv, 0, sizeof *nv);
  char path[600];
  const char *env = getenv("KJIT_NVRTC");
  for (int i = -1; i < 6; i++) {
    const char *name = NULL;
    if (i < 0)
      name = env && *env ? env : NULL;
    else if (i < 3)
      name = sonames[i];
    else if (snprintf(path, sizeof path, "%s/lib64/%s", toolkit_dir(), sonames[i - 3]) > 0)
      name = path;
    void *lib = name ? dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) : NULL;
    if (lib && fill(nv, lib)) {
      trace_event("load %s (NVRTC)", name);
      return true;
    }
    memset(nv, 0, sizeof *nv);
  }
  diag_error(diags, RT_E_NVRTC_MISSING, at,
             "install the CUDA toolkit's NVRTC, or name the library with KJIT_NVRTC",
             "cannot compile CUDA C: NVRTC (libnvrtc.so) was not found");
  return false;
}

/* ------------------------------------------------------------ the log --- */

/* The Source of the .cu file, so diagnostics show its lines. */
static const Source *cu_source(Arena *a, const char *path, const char *src) {
  Source *s = arena_alloc(a, sizeof *s);
  s->path = arena_strdup(a, path);
  s->len = strlen(src);
  char *t = arena_alloc(a, s->len + 1);
  memcpy(t, src, s->len + 1);
  s->text = t;
  return s;
}

/* The span of line `line`: from its first non-blank to its end. */
static SrcLoc line_loc(const Source *s, int line) {
  const char *p = s->text;
  for (int l = 1; l < line && p; l++)
    p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
  SrcLoc loc = {s, line, 1, 1};
  if (!p)
    return loc;
  const char *q = p;
  while (*q == ' ' || *q == '\t')
    q++;
  const char *end = q;
  while (*end && *end != '\n' && *end != '\r')
    end++;
  loc.col = (int)(q - p) + 1;
  loc.len = end > q ? (int)(end - q) : 1;
  return loc;
}

/* One diagnostic per `NAME(LINE): error: MSG` line; false when none. */
static bool report_log(const Source *s, const char *log, int sm, Diags *diags) {
  bool any = false;
  size_t nlen = strlen(s->path);
  const char *hint = sm ? "in CUDA C compiled by NVRTC; fix the .cu file" : NULL;
  for (const char *p = log; p && *p;) {
    const char *eol = strchr(p, '\n');
    int line = 0, used = 0;
    if (strncmp(p, s->path, nlen) == 0 && sscanf(p + nlen, "(%d): error: %n", &line, &used) == 1 &&
        used > 0) {
      const char *m = p + nlen + used;
      int mlen = (int)(eol ? eol - m : (long)strlen(m));
      diag_error(diags, RT_E_NVRTC_COMPILE, line_loc(s, line), hint, "%.*s", mlen, m);
      any = true;
    }
    p = eol ? eol + 1 : NULL;
  }
  return any;
}

static char *program_log(RtNvrtc *nv, void *prog) {
  size_t n = 0;
  char *log = NULL;
  if (nv->GetProgramLogSize(prog, &n) == 0 && (log = malloc(n + 1)) && nv->GetProgramLog(prog, log) == 0)
    log[n] = '\0';
  else if (log)
    log[0] = '\0';
  return log;
}

bool rt_nvrtc_compile(RtNvrtc *nv, const char *path, const char *src, int sm, Arena *arena,
                      char **ptx, size_t *len, Diags *diags) {
  const Source *s = cu_source(arena, path, src);
  char arch[32], self_inc[600], cuda_inc[600], cccl_inc[620];
  const char *slash = strrchr(path, '/');
  snprintf(arch, sizeof arch, "-arch=compute_%d", sm);
  snprintf(self_inc, sizeof self_inc, "-I%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  const char *inc = rt_cuda_include_dir();
  snprintf(cuda_inc, sizeof cuda_inc, "-I%s", inc ? inc : ".");
  /* CUDA 13 keeps libcu++/CUB/Thrust (cuda/std/..., which curand_kernel.h
   * includes) under include/cccl */
  snprintf(cccl_inc, sizeof cccl_inc, "-I%s/cccl", inc ? inc : ".");
  const char *opts[] = {arch, "-rdc=true", "-default-device", "-std=c++17", self_inc, cuda_inc,
                        cccl_inc};
  void *prog = NULL;
  int r = nv->CreateProgram(&prog, src, path, 0, NULL, NULL);
  if (r == 0)
    r = nv->CompileProgram(prog, (int)(sizeof opts / sizeof *opts), opts);
  bool ok = r == 0;
  *ptx = NULL;
  if (!ok) {
    char *log = prog ? program_log(nv, prog) : NULL;
    SrcLoc top = line_loc(s, 1);
    if (!log || !report_log(s, log, sm, diags))
      diag_error(diags, RT_E_NVRTC_COMPILE, top, log && *log ? log : NULL,
                 "NVRTC could not compile %s: %s", path, nv->GetErrorString(r));
    free(log);
  } else if ((r = nv->GetPTXSize(prog, len)) != 0 || !(*ptx = malloc(*len + 1)) ||
             nv->GetPTX(prog, *ptx) != 0) {
    diag_error(diags, RT_E_NVRTC_COMPILE, (SrcLoc){0}, NULL, "NVRTC did not return PTX for %s", path);
    free(*ptx);
    *ptx = NULL;
    ok = false;
  } else {
    (*ptx)[*len] = '\0';
    *len = strlen(*ptx);
  }
  if (prog)
    nv->DestroyProgram(&prog);
  return ok;
}
