/* nvrtc.c - CUDA C/C++ -> relocatable PTX with NVRTC (dlopen'd).
 *
 * Options: -arch=compute_<sm> (the kernel's architecture), for link= files
 * -rdc=true (so the extern "C" __device__ functions survive for the linker
 * instead of being dropped as unused) and -default-device, -std=c++17
 * unless the user's options name a standard, -I the file's folder, -I the
 * toolkit's include folder, then the user's options.  NVRTC's log names
 * lines as `file.cu(12): error: ...` and prints the line with a caret
 * under the culprit; each error becomes a kjit diagnostic at that line and
 * column. */
#include "cuda/nvrtc_internal.h"
#include "runtime/runtime.h"
#include "common/settings.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/trace.h"

typedef struct NvSym {
  const char *name;
  size_t offset;
} NvSym;

#define SYM(f) {"nvrtc" #f, offsetof(RtNvrtc, f)}
static const NvSym nv_syms[] = {
    SYM(CreateProgram), SYM(DestroyProgram), SYM(CompileProgram), SYM(GetPTXSize),
    SYM(GetPTX), SYM(GetProgramLogSize), SYM(GetProgramLog), SYM(GetErrorString),
    SYM(Version), SYM(AddNameExpression), SYM(GetLoweredName)};
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
  const char *env[] = {rt_setting(RT_SET_CUDA_HOME), rt_setting(RT_SET_CUDA_PATH)};
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

/* KJIT_NVRTC given as a path: it must open as a regular file without
 * blocking (dlopen of a FIFO hangs in open(2)).  A bare soname is left to
 * the loader's search. */
static bool loadable(const char *name, SrcLoc at, Diags *diags) {
  if (!strchr(name, '/'))
    return true;
  const char *why = NULL;
  int fd = rt_open_regular(name, &why);
  if (fd >= 0) {
    close(fd);
    return true;
  }
  if (!why)
    return true; /* missing: the search goes on and names it */
  diag_error(diags, RT_E_NVRTC_MISSING, at, "point KJIT_NVRTC at the NVRTC shared library (libnvrtc.so)",
             "cannot load KJIT_NVRTC=%s: it is %s, not a regular file", name, why);
  return false;
}

/* Tried in order: KJIT_NVRTC, the sonames, then the toolkit's lib64. */
bool rt_nvrtc_open(RtNvrtc *nv, SrcLoc at, Diags *diags) {
  static const char *const sonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
  memset(nv, 0, sizeof *nv);
  char path[600];
  const char *env = rt_setting(RT_SET_NVRTC);
  for (int i = -1; i < 6; i++) {
    const char *name = NULL;
    if (i < 0)
      name = env && *env ? env : NULL;
    else if (i < 3)
      name = sonames[i];
    else if (snprintf(path, sizeof path, "%s/lib64/%s", toolkit_dir(), sonames[i - 3]) > 0)
      name = path;
    if (i < 0 && name && !loadable(name, at, diags))
      return false;
    void *lib = name ? dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) : NULL;
    if (lib && fill(nv, lib)) {
      trace_event("load %s (NVRTC)", name);
      return true;
    }
    memset(nv, 0, sizeof *nv);
  }
  diag_error(diags, RT_E_NVRTC_MISSING, at,
             "install the CUDA toolkit's NVRTC, or name the library with KJIT_NVRTC",
             "cannot compile CUDA C: NVRTC was not found (searched %s)", rt_nvrtc_searched());
  return false;
}

const char *rt_nvrtc_searched(void) {
  static __thread char buf[700];
  const char *env = rt_setting(RT_SET_NVRTC);
  snprintf(buf, sizeof buf, "%s%s%slibnvrtc.so.13, libnvrtc.so.12, libnvrtc.so, %s/lib64",
           env && *env ? "KJIT_NVRTC=" : "", env && *env ? env : "", env && *env ? ", " : "",
           toolkit_dir());
  return buf;
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

/* The Source a log line names: the .cu itself, else the header read from
 * disk (NULL when it cannot be read). */
static const Source *named_source(Arena *a, const Source *main, const char *name, size_t n) {
  if (strlen(main->path) == n && strncmp(main->path, name, n) == 0)
    return main;
  char *path = arena_strndup(a, name, n), *text;
  size_t len;
  if (!rt_read_file(path, &text, &len, NULL))
    return NULL;
  const Source *s = cu_source(a, path, text ? text : "");
  free(text);
  return s;
}

/* NVRTC prints the source line indented by two, then a caret line under
 * the culprit: its column in the file (0 when absent). */
static int caret_column(const char *eol) {
  const char *src_end = eol ? strchr(eol + 1, '\n') : NULL;
  if (!src_end)
    return 0;
  const char *caret = src_end + 1, *p = caret;
  while (*p == ' ')
    p++;
  return *p == '^' && p - caret >= 2 ? (int)(p - caret) - 1 : 0;
}

/* The span at (line, col): the identifier there, else one character. */
static SrcLoc point_loc(const Source *s, int line, int col) {
  SrcLoc loc = line_loc(s, line);
  const char *p = s->text;
  for (int l = 1; l < line && p; l++)
    p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
  if (!p || col < 1 || (size_t)(col - 1) > strcspn(p, "\n"))
    return loc;
  const char *q = p + col - 1;
  int n = 0;
  while (q[n] == '_' || (q[n] >= 'a' && q[n] <= 'z') || (q[n] >= 'A' && q[n] <= 'Z') ||
         (q[n] >= '0' && q[n] <= '9'))
    n++;
  return (SrcLoc){s, line, col, n ? n : 1};
}

/* The message of a log line `NAME(LINE): [catastrophic ]error: MSG`
 * (NULL for warnings and other lines); *nlen, *line set. */
static const char *error_message(const char *p, size_t *nlen, int *line) {
  const char *paren = strstr(p, "): ");
  const char *eol = strchr(p, '\n');
  if (!paren || (eol && paren > eol))
    return NULL;
  const char *open = paren;
  while (open > p && open[-1] != '(')
    open--;
  if (open == p || sscanf(open, "%d", line) != 1)
    return NULL;
  *nlen = (size_t)(open - 1 - p);
  const char *m = paren + 3;
  if (strncmp(m, "catastrophic ", 13) == 0)
    m += 13;
  return strncmp(m, "error: ", 7) == 0 ? m + 7 : NULL;
}

/* One diagnostic per error of the log; false when none was found. */
static bool report_log(Arena *a, const Source *s, const char *log, const char *hint,
                       Diags *diags) {
  bool any = false;
  for (const char *p = log; p && *p;) {
    const char *eol = strchr(p, '\n');
    size_t nlen = 0;
    int line = 0;
    const char *m = error_message(p, &nlen, &line);
    if (m) {
      int mlen = (int)(eol ? eol - m : (long)strlen(m));
      const Source *in = named_source(a, s, p, nlen);
      if (in)
        diag_error(diags, RT_E_NVRTC_COMPILE, point_loc(in, line, caret_column(eol)), hint,
                   "%.*s", mlen, m);
      else
        diag_error(diags, RT_E_NVRTC_COMPILE, (SrcLoc){0}, hint, "%.*s(%d): %.*s", (int)nlen, p,
                   line, mlen, m);
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

/* kjit's options, then the user's. */
static int make_options(const RtNvrtcJob *job, char bufs[4][640], const char **opts, int max) {
  const char *slash = strrchr(job->path, '/');
  snprintf(bufs[0], 640, "-arch=compute_%d", job->sm);
  snprintf(bufs[1], 640, "-I%.*s", slash ? (int)(slash - job->path) : 1, slash ? job->path : ".");
  const char *inc = rt_cuda_include_dir();
  snprintf(bufs[2], 640, "-I%s", inc ? inc : ".");
  /* CUDA 13 keeps libcu++/CUB/Thrust (cuda/std/..., which curand_kernel.h
   * includes) under include/cccl */
  snprintf(bufs[3], 640, "-I%s/cccl", inc ? inc : ".");
  int n = 0;
  opts[n++] = bufs[0];
  if (job->rdc) {
    opts[n++] = "-rdc=true";
    opts[n++] = "-default-device";
  }
  bool std_given = false;
  for (int i = 0; i < job->nopts; i++)
    std_given |= strncmp(job->opts[i], "-std=", 5) == 0 || strncmp(job->opts[i], "--std=", 6) == 0;
  if (!std_given)
    opts[n++] = "-std=c++17";
  for (int i = 0; i < 3; i++)
    opts[n++] = bufs[1 + i];
  for (int i = 0; i < job->nopts && n < max; i++)
    opts[n++] = job->opts[i];
  return n;
}

static void report_failure(RtNvrtc *nv, void *prog, int r, const RtNvrtcJob *job,
                           const Source *s, const char *hint, Arena *arena, Diags *diags) {
  char *log = prog ? program_log(nv, prog) : NULL;
  size_t n = log ? strlen(log) : 0;
  while (n && (log[n - 1] == '\n' || log[n - 1] == ' '))
    log[--n] = '\0';                    /* "nvrtc: error: invalid value for ...\n" */
  if (!log || !report_log(arena, s, log, hint, diags))
    diag_error(diags, RT_E_NVRTC_COMPILE, (SrcLoc){0}, log && *log ? log : NULL,
               "NVRTC could not compile %s (for compute_%d): %s", job->path, job->sm,
               nv->GetErrorString(r));
  free(log);
}

static bool take_ptx(RtNvrtc *nv, void *prog, const RtNvrtcJob *job, char **ptx, size_t *len,
                     Diags *diags) {
  if (nv->GetPTXSize(prog, len) != 0 || !(*ptx = malloc(*len + 1)) || nv->GetPTX(prog, *ptx) != 0) {
    diag_error(diags, RT_E_NVRTC_COMPILE, (SrcLoc){0}, NULL, "NVRTC did not return PTX for %s",
               job->path);
    free(*ptx);
    *ptx = NULL;
    return false;
  }
  (*ptx)[*len] = '\0';
  *len = strlen(*ptx);
  return true;
}

static bool take_lowered(RtNvrtc *nv, void *prog, RtNvrtcJob *job, Arena *arena, Diags *diags) {
  job->lowered = job->nnames ? arena_alloc(arena, sizeof *job->lowered * (size_t)job->nnames) : NULL;
  for (int i = 0; i < job->nnames; i++) {
    const char *low = NULL;
    if (nv->GetLoweredName(prog, job->names[i], &low) != 0 || !low) {
      diag_error(diags, RT_E_NVRTC_COMPILE, (SrcLoc){0}, NULL,
                 "NVRTC gave no lowered name for '%s' in %s", job->names[i], job->path);
      return false;
    }
    job->lowered[i] = arena_strdup(arena, low);
  }
  return true;
}

bool rt_nvrtc_run(RtNvrtc *nv, RtNvrtcJob *job, const char *hint, Arena *arena, char **ptx,
                  size_t *len, Diags *diags) {
  const Source *s = cu_source(arena, job->path, job->src);
  char bufs[4][640];
  const char *opts[96];
  int nopts = make_options(job, bufs, opts, 96);
  void *prog = NULL;
  *ptx = NULL;
  int r = nv->CreateProgram(&prog, job->src, job->path, 0, NULL, NULL);
  for (int i = 0; r == 0 && i < job->nnames; i++)
    r = nv->AddNameExpression(prog, job->names[i]);
  if (r == 0)
    r = nv->CompileProgram(prog, nopts, opts);
  bool ok = r == 0;
  if (!ok)
    report_failure(nv, prog, r, job, s, hint, arena, diags);
  else
    ok = take_ptx(nv, prog, job, ptx, len, diags) && take_lowered(nv, prog, job, arena, diags);
  if (!ok) {
    free(*ptx);
    *ptx = NULL;
  }
  if (prog)
    nv->DestroyProgram(&prog);
  return ok;
}

bool rt_nvrtc_compile(RtNvrtc *nv, const char *path, const char *src, int sm, Arena *arena,
                      char **ptx, size_t *len, Diags *diags) {
  RtNvrtcJob job = {.path = path, .src = src, .sm = sm, .rdc = true};
  return rt_nvrtc_run(nv, &job, sm ? "in CUDA C compiled by NVRTC; fix the .cu file" : NULL, arena,
                      ptx, len, diags);
}
